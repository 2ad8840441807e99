// The Node faces' engine keeps a debugged program inside Python: each hostile program either meets
// Python's own refusal (SandboxError, at its line) or, past it, the engine process's walls (the
// permission model, no code from strings, an empty `js`); no file appears on the host, and the
// engine goes on with the next program as before.

import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from './pythonHost';
import { engineCommand, ProcessHost } from './processHost';
import { hostilePrograms, ORDINARY_PROGRAM } from './testing/hostilePrograms';

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
});
