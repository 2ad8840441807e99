// The Node faces' engine keeps a debugged program inside Python: each hostile program either meets
// Python's own refusal (SandboxError, at its line) or, past it, the engine process's walls (the
// permission model, no code from strings, an empty `js`); no file appears on the host, and the
// engine goes on with the next program as before.

import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from './pythonHost';
import { engineCommand, ProcessHost } from './node/processHost';
import {
  FINDER_VISIBLE_PROGRAM,
  forgedChannelProgram,
  hostilePrograms,
  nodeSocketProgram,
  ORDINARY_PROGRAM,
  POISONING_PROGRAM,
  PYTHON_LAYER_ROUTES,
  TAMPERING_PROGRAMS,
} from '../testing/hostilePrograms';

const dir = mkdtempSync(join(tmpdir(), 'ndb-sandbox-'));
let host: ProcessHost;
let inProcess: PythonHost;

beforeAll(async () => {
  host = new ProcessHost();
  await host.whenReady();
  inProcess = await loadInProcessHost();
}, 120_000);

afterAll(() => host?.close());

describe('the engine process', () => {
  it('runs under the permission model with reads of Pyodide only and no code from strings', () => {
    const { args } = engineCommand();
    expect(args.some((a) => a === '--permission' || a === '--experimental-permission')).toBe(true);
    expect(args.filter((a) => a.startsWith('--allow-')).every((a) => a.startsWith('--allow-fs-read='))).toBe(true);
    expect(args).toContain('--disallow-code-generation-from-strings');
  });

  for (const program of hostilePrograms(dir)) {
    it(`keeps ${program.name} inside Python`, async () => {
      const rec = await host.record(program.source, '', { timeLimit: 5 });
      expect(['exception', 'error']).toContain(rec.exit.status);
      if (program.refusedByPython) {
        expect(rec.exit.exc_type).toBe('SandboxError');
        expect(rec.exit.message).toMatch(/not available in ndb's sandbox/);
        expect(rec.events.some((e) => e.event === 'exception')).toBe(true);
      }
      expect(existsSync(join(dir, program.name))).toBe(false);
    }, 60_000);
  }

  for (const route of PYTHON_LAYER_ROUTES) {
    it(`refuses ${route.name} at Python's layer`, async () => {
      const rec = await host.record(route.source, '', { timeLimit: 5 });
      expect(rec.exit.exc_type).toBe('SandboxError');
      expect(rec.exit.message).toMatch(/not available in ndb's sandbox/);
    }, 60_000);
  }

  it("keeps Pyodide's finder of JavaScript modules off sys.meta_path while a program runs", async () => {
    const rec = await host.record(FINDER_VISIBLE_PROGRAM, '');
    expect(rec.stdout).toBe('False\n');
  });

  for (const program of TAMPERING_PROGRAMS) {
    it(`says a recording cannot be trusted when ${program.name}`, async () => {
      // an owner of its own: what it changed stays in its interpreter
      const rec = await host.forOwner(`tampering: ${program.name}`).record(program.source, '', { timeLimit: 5 });
      expect(rec.exit.status).toBe('error');
      expect(rec.exit.message).toMatch(/cannot be trusted/);
    }, 60_000);
  }

  for (const close of [false, true]) {
    it(`reports a program that ${close ? 'closes' : 'writes on'} the engine's channel, and starts afresh`, async () => {
      const owner = host.forOwner(`channel ${close}`);
      const rec = await owner.record(forgedChannelProgram(close), '', { timeLimit: 5 });
      expect(rec.exit.status).toBe('error');
      expect(rec.exit.message).toMatch(/reached outside ndb's sandbox.*engine's channel/);
      expect((await owner.record('print(7)\n', '')).stdout).toBe('7\n');
    }, 120_000);
  }

  it('leaves ordinary uses of what it guards alone: logging, traceback, threading, importlib', async () => {
    const source = [
      'import importlib, logging, threading, traceback, sys',
      'logging.basicConfig(stream=sys.stdout, format="%(funcName)s %(message)s", level=logging.INFO)',
      'def f():',
      '    logging.info("hi")',
      '    try:',
      '        1 / 0',
      '    except ZeroDivisionError:',
      '        print(traceback.format_exc().splitlines()[-1])',
      '    return importlib.import_module("math").sqrt(16), threading.current_thread().name',
      'print(f())',
      '',
    ].join('\n');
    const rec = await host.record(source, '');
    expect(rec.exit.status).toBe('normal');
    expect(rec.stdout).toBe("f hi\nZeroDivisionError: division by zero\n(4.0, 'MainThread')\n");
  });

  it('left nothing on the host and goes on as before', async () => {
    expect(readdirSync(dir)).toEqual([]);
    const rec = await host.record('def f(n):\n    return n * 2\n', 'f(21)');
    expect(rec.exit).toMatchObject({ status: 'normal', value: '42' });
  });

  it('records an ordinary program of the standard library as the engine in this process does', async () => {
    const sandboxed = await host.record(ORDINARY_PROGRAM.source, ORDINARY_PROGRAM.call);
    const here = await inProcess.record(ORDINARY_PROGRAM.source, ORDINARY_PROGRAM.call);
    expect(sandboxed.exit).toEqual({ status: 'normal', value: ORDINARY_PROGRAM.value });
    expect(sandboxed.events).toEqual(here.events);
    expect(sandboxed.events.map((e) => e.line)).toEqual([3, 4, 5, 6, 6]);
  });

  it("refuses pyodide to a program and still answers the engine's own questions after it", async () => {
    // the guard is on only while a program runs: the engine's own imports are untouched
    const refused = await host.record('import pyodide\n', '');
    expect(refused.exit.exc_type).toBe('SandboxError');
    expect(await host.codeLines('x = 1\n')).toEqual({ lines: [1] });
  });

  it('gives another owner a fresh interpreter: what a program leaves behind never reaches it', async () => {
    const attacker = host.forOwner('attacker');
    const victim = host.forOwner('victim');
    await attacker.record(POISONING_PROGRAM, '');
    // the attacker's own later run runs where it left its patches, and its answer fails the check
    // (a frame of the last program's code, line 9, in a program of one line): the engine is replaced
    expect((await attacker.record('print("hi")\n', '')).exit.message).toMatch(/^The run cannot be trusted: codes\[1\]\.firstline is 9, outside 0\.\.1; /);
    expect((await victim.record('def f():\n    print("seen")\n', 'f()')).stdout).toBe('seen\n');
    const rec = await victim.record(ORDINARY_PROGRAM.source, ORDINARY_PROGRAM.call);
    expect(rec.exit).toEqual({ status: 'normal', value: ORDINARY_PROGRAM.value });
    // and the host's own owner, after both
    expect((await host.record('print(1)\n', '')).stdout).toBe('1\n');
  }, 120_000);
});

describe('the engine process without a network namespace', () => {
  it("sends nothing through Node's sockets, reached past Python's layer", async () => {
    const received: string[] = [];
    const server = createServer((socket) => socket.on('data', (data) => received.push(String(data))));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const bare = new ProcessHost({ confinement: 'none' });
    try {
      const rec = await bare.record(nodeSocketProgram(port, 'sent from the sandbox'), '', { timeLimit: 5 });
      // past Python's layer the run is also marked as tampered with; what ended it is kept
      expect(['exception', 'error']).toContain(rec.exit.status);
      expect(rec.exit.message).toMatch(/no network|not available/);
      // what the program set going would have arrived by now; the engine still works
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await bare.record('x = 2\n', '')).exit.status).toBe('normal');
      expect(received).toEqual([]);
    } finally {
      await bare.close();
      server.close();
    }
  }, 120_000);
});
