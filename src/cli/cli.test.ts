// The CLI contract: `ndb trace`, `ndb debug` (single and --batch), errors on stderr with a non-zero status.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand } from '../realEngine/node/engineChild';
import { REPO_ROOT } from '../util/repoRoot';
import { hostilePrograms, unixSocketProgram } from '../testing/hostilePrograms';
import { runCli as run } from './testCli';

const dir = mkdtempSync(join(tmpdir(), 'ndb-cli-'));
const program = join(dir, 'prog.py');
writeFileSync(program, 'def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n\ndef g(n):\n    return f(list(range(n))) * 2\n');

describe('ndb trace', () => {
  it('prints one JSON object per event, then the exit line', async () => {
    const { code, lines } = await run('trace', program, '--call', 'g(3)', '--json');
    expect(code).toBe(0);
    const objs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const events = objs.slice(0, -1);
    expect(events[0]).toMatchObject({ event: 'call', line: 7, function: 'g', depth: 0, locals: { n: '3' } });
    expect(events.filter((e) => e.function === 'f').every((e) => e.depth === 1)).toBe(true);
    const ret = events[events.length - 1]!;
    expect(ret).toMatchObject({ event: 'return', function: 'g', value: '6' });
    expect(objs[objs.length - 1]).toMatchObject({ event: 'exit', status: 'normal', value: '6' });
  });
});

describe('ndb debug', () => {
  it('prints the initial state and the state after each action', async () => {
    const { code, lines } = await run('debug', program, '--call', 'g(3)', '--actions', 'step_into,step_into,step_into,step_over,step_return,inv_step_call,breakpoint:4,continue', '--breakpoints', '5', '--engine', 'real', '--json');
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const { states } = JSON.parse(lines[0]!) as { states: Array<Record<string, unknown>> };
    expect(states).toHaveLength(9);
    expect(states.map((s) => [s.event, s.function, s.line])).toEqual([
      ['call', 'g', 7],
      ['line', 'g', 8],
      ['call', 'f', 1],
      ['line', 'f', 2],
      ['line', 'f', 3],
      ['line', 'f', 5], // the breakpoint on line 5 stops step_return, as in pdb
      ['call', 'f', 1],
      ['line', 'f', 4],
      ['line', 'f', 5],
    ]);
    expect(states[5]).toMatchObject({ locals: { s: '3', x: '2' } });
    expect(states[6]).toMatchObject({ locals: { xs: '[0, 1, 2]' } });
  });

  it('runs a batch of requests with one Pyodide', async () => {
    const requests = join(dir, 'req.jsonl');
    writeFileSync(
      requests,
      [
        { id: 'a', file: program, call: 'f([5])', actions: ['step_return'], breakpoints: [] },
        { id: 7, file: program, call: 'g(2)', actions: ['continue'], breakpoints: [4] },
        { id: 'bad', file: join(dir, 'missing.py'), call: '', actions: [] },
      ].map((r) => JSON.stringify(r)).join('\n'),
    );
    const { code, lines } = await run('debug', '--batch', requests, '--engine', 'real', '--json');
    expect(code).toBe(1);
    const out = lines.map((l) => JSON.parse(l) as { id: unknown; states?: Array<Record<string, unknown>>; error?: string });
    expect(out.map((o) => o.id)).toEqual(['a', 7, 'bad']);
    expect(out[0]!.states![1]).toMatchObject({ event: 'return', value: '5' });
    expect(out[1]!.states![1]).toMatchObject({ event: 'line', line: 4, locals: { s: '0' } });
    expect(out[2]!.error).toMatch(/cannot read/);
  });

  it('reaches the exit state with its status', async () => {
    const { lines } = await run('debug', program, '--call', 'g(1)', '--actions', 'continue,step_into,inv_step_into', '--json');
    const { states } = JSON.parse(lines[0]!) as { states: Array<Record<string, unknown>> };
    expect(states[1]).toMatchObject({ event: 'exit', status: 'normal', value: '0' });
    expect(states[2]).toMatchObject({ event: 'exit' });
    expect(states[3]).toMatchObject({ event: 'return', function: 'g' });
  });
});

describe('ndb debug with what-if edits (set:NAME=EXPR)', () => {
  it('edits a local at the stop and goes on from the edited program state', async () => {
    const { code, lines } = await run('debug', program, '--call', 'f([1, 2, 3])', '--actions', 'breakpoint:4,set:s=100,step_over,step_return', '--json');
    expect(code).toBe(0);
    const { states } = JSON.parse(lines[0]!) as { states: Array<Record<string, unknown>> };
    expect(states[1]).toMatchObject({ event: 'line', line: 4, locals: { xs: '[1, 2, 3]', s: '0', x: '1' } });
    expect(states[2]).toMatchObject({ event: 'line', line: 4, locals: { xs: '[1, 2, 3]', s: '100', x: '1' }, edits: [{ name: 's', expr: '100', value: '100' }] });
    expect(states[3]).toMatchObject({ line: 3, locals: { s: '101' } });
    expect(states[4]).toMatchObject({ event: 'return', value: '106' });
  });

  it('takes set: items in --batch requests, and a bad one fails only its request', async () => {
    const requests = join(dir, 'whatif.jsonl');
    writeFileSync(
      requests,
      [
        { id: 1, file: program, call: 'f([1, 2])', actions: ['breakpoint:4', 'set:xs=[10, 20, 30]', 'step_return'] },
        { id: 2, file: program, call: 'f([1, 2])', actions: ['breakpoint:4', 'set:y=1'] },
      ].map((r) => JSON.stringify(r)).join('\n'),
    );
    const { code, lines } = await run('debug', '--batch', requests, '--json');
    expect(code).toBe(1);
    const out = lines.map((l) => JSON.parse(l) as { states?: Array<Record<string, unknown>>; error?: string });
    // The loop's iterator was made from the old list: only the edited local changes.
    expect(out[0]!.states![3]).toMatchObject({ event: 'return', value: '3', locals: { xs: '[10, 20, 30]' } });
    expect(out[1]!.error).toMatch(/'y' is not a local of f\(\)/);
  });
});

describe('ndb errors', () => {
  it('rejects bad usage and bad programs on stderr with a non-zero status', async () => {
    expect((await run('debug', program, '--actions', 'jump')).code).toBe(2);
    expect((await run('trace', join(dir, 'none.py'))).code).toBe(1);
    const bad = join(dir, 'bad.py');
    writeFileSync(bad, 'def f(:\n');
    expect((await run('trace', bad, '--json')).code).toBe(1);
  });

  it('works as a process: stdout for JSON, stderr for the error', async () => {
    const exec = promisify(execFile);
    const ok = await exec('node', ['bin/ndb.mjs', 'debug', program, '--call', 'f([1])', '--actions', 'step_return', '--json'], { cwd: REPO_ROOT });
    expect(JSON.parse(ok.stdout).states[1].value).toBe('1');
    const bad = join(dir, 'bad2.py');
    writeFileSync(bad, 'x = (\n');
    const failed = await exec('node', ['bin/ndb.mjs', 'trace', bad, '--json'], { cwd: REPO_ROOT }).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect('code' in failed && failed.code).toBe(1);
    // named by its own name (ndb trace reads FILE's folder as the program, as ndb debug does)
    expect((failed as { stderr: string }).stderr).toMatch(/bad2\.py:1:\d+: SyntaxError/);
    expect((failed as { stdout: string }).stdout).toBe('');
  }, 60_000);
});

describe('ndb debug with the model', () => {
  it('gives every neural state a confidence from 0 to 1, per field beside it (both and neural)', async () => {
    for (const engine of ['both', 'neural']) {
      const { code, lines } = await run('debug', program, '--call', 'g(3)', '--actions', 'step_into,step_into,step_over,step_return,inv_step_call', '--engine', engine, '--json');
      expect(code).toBe(0);
      const states = (JSON.parse(lines[0]!) as { states: Array<Record<string, unknown>> }).states;
      const neural = states.map((s) => (engine === 'both' ? (s.neural as Record<string, unknown>) : s));
      expect(neural[0]).toMatchObject({ confidence: 1 });
      for (const s of neural) {
        expect(s.confidence, JSON.stringify(s)).toBeGreaterThanOrEqual(0);
        expect(s.confidence).toBeLessThanOrEqual(1);
        expect(s).toHaveProperty('confidence_fields.position');
      }
    }
  }, 120_000);
});

describe('ndb trace on programs that try to leave Python', () => {
  it('ends each in an exception or error state, makes no file on the host, and goes on', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'ndb-cli-hostile-'));
    for (const hostile of hostilePrograms(watched)) {
      // each in a folder of its own: FILE's folder is the program (one named urllib.py beside the
      // others would be the module `import urllib` finds, as in Python)
      const file = join(mkdtempSync(join(tmpdir(), 'ndb-cli-programs-')), 'main.py');
      writeFileSync(file, hostile.source);
      const { code, lines } = await run('trace', file, '--json');
      if (hostile.refusedByPython || code === 0) {
        expect(code, hostile.name).toBe(0);
        const exit = JSON.parse(lines.at(-1)!) as { event: string; status: string; message?: string };
        expect(exit.event, hostile.name).toBe('exit');
        expect(['exception', 'error'], hostile.name).toContain(exit.status);
        if (hostile.refusedByPython) expect(exit.message, hostile.name).toMatch(/ndb's sandbox/);
      } else {
        // past Python's layer the run is marked as changed: an error (status 1), nothing printed
        expect(code, hostile.name).toBe(1);
        expect(lines, hostile.name).toEqual([]);
      }
      expect(existsSync(join(watched, hostile.name)), hostile.name).toBe(false);
    }
    expect(readdirSync(watched)).toEqual([]);
    const { lines } = await run('trace', program, '--call', 'g(3)', '--json');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: 'exit', status: 'normal', value: '6' });
  }, 120_000);
});

describe('the CLI past Python and JavaScript (the OS boundary)', () => {
  const hostSocket = join(dir, 'host.sock');
  let reached = 0;
  const server = createServer((socket) => {
    reached++;
    socket.destroy();
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(hostSocket, resolve)));
  afterAll(() => server.close());

  it.runIf(engineCommand().boundary === 'bubblewrap')('creates no socket and reaches none: from a program, a batch request and a set: edit', async () => {
    const file = join(dir, 'sockets.py');
    writeFileSync(file, unixSocketProgram(join(dir, 'bound-trace.sock'), hostSocket));
    // past Python's layer the run is marked as changed (an error on stderr); nothing gets out
    await run('trace', file, '--json');
    const edit = `set:x=exec(${JSON.stringify(unixSocketProgram(join(dir, 'bound-edit.sock'), hostSocket))}) or 1`;
    const requests = join(dir, 'escape.jsonl');
    writeFileSync(
      requests,
      [
        JSON.stringify({ id: 'program', file }),
        JSON.stringify({ id: 'edit', file: program, call: 'g(2)', actions: ['step_into', 'step_into', edit, 'step_into'] }),
      ].join('\n'),
    );
    await run('debug', '--batch', requests, '--json');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readdirSync(dir).filter((f) => f.startsWith('bound-'))).toEqual([]);
    expect(reached).toBe(0);
  }, 180_000);
});

describe('the CLI and what a program prints', () => {
  const nasty = 'x\\n\\x1b[2J\\x1b]0;pwned\\x07exit: normal\\r\\u202e';
  const source = [
    'class Shifty:',
    '    def __repr__(self):',
    `        return "${nasty}"`,
    'def f():',
    '    s = Shifty()',
    `    raise RuntimeError("${nasty}")`,
    'f()',
    '',
  ].join('\n');

  it('prints no raw control character of the program in text output (trace and debug)', async () => {
    const file = join(dir, 'nasty.py');
    writeFileSync(file, source);
    const traced = await run('trace', file);
    const debugged = await run('debug', file, '--actions', 'breakpoint:6,step_into,continue', '--engine', 'real');
    for (const { lines } of [traced, debugged]) {
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
      expect(lines.filter((l) => /^exit: normal/.test(l))).toEqual([]);
      expect(lines.join('\n')).toContain('\\x1b[2J');
    }
    expect(traced.lines.at(-1)).toMatch(/^exit: exception/);
  });

  it('keeps JSON output parseable and free of raw C1 controls', async () => {
    const file = join(dir, 'nasty.py');
    const { lines } = await run('trace', file, '--json');
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    const exit = JSON.parse(lines.at(-1)!) as { message: string };
    expect(exit.message).toContain('\x1b[2J');
  });
});
