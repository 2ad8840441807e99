// The tools an agent localises a bug with (stack, evaluate, set_breakpoints, conditional
// breakpoints, tracebacks), answers that stay small (output not repeated, pages, the size cap),
// limits it can set, programs from files, sessions that do not wait for a stuck one, and the
// model's tools (guess_inputs builds calls that run; neural states say they are predicted).

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { startMcp, type McpTestClient } from '../testing/mcpClient';

// An off-by-one in a binary search: `hi = len(xs)` lets mid reach past the end.
const SEARCH = [
  'def search(xs, target):', //                1
  '    lo, hi = 0, len(xs)', //                 2
  '    while lo <= hi:', //                     3
  '        mid = (lo + hi) // 2', //            4
  '        if xs[mid] == target:', //           5
  '            return mid', //                  6
  '        if xs[mid] < target:', //            7
  '            lo = mid + 1', //                8
  '        else:', //                           9
  '            hi = mid - 1', //                10
  '    return -1', //                           11
  '',
].join('\n');

const DEEP = ['def a(n):', '    return b(n) + 1', '', 'def b(n):', '    return c(n) * 2', '', 'def c(n):', '    raise ValueError(f"bad {n}")', ''].join('\n');

let mcp: McpTestClient;
let folder: string;

beforeAll(async () => {
  mcp = await startMcp();
  // start_session's path reads only under the server's roots (here: the repository, its cwd)
  folder = mkdtempSync(join(REPO_ROOT, 'node_modules', '.ndb-mcp-test-'));
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('ndb mcp: the tools that find a bug', () => {
  it('finds an off-by-one with a conditional breakpoint, stack and evaluate in a handful of calls', async () => {
    const started = await mcp.ok('start_session', { code: SEARCH, call: 'search([1, 3, 5], 9)', breakpoints: [{ line: 5, condition: 'mid >= len(xs)' }, 12, 11] });
    const session = started.session as string;
    expect(started.breakpoints).toEqual([
      { file: 'main.py', line: 5, verified: true },
      { file: 'main.py', line: 12, verified: false, message: expect.stringMatching(/past the end|no code/) },
      { file: 'main.py', line: 11, verified: true },
    ]);
    // continue stops where mid has run past the end, before the IndexError
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ event: 'line', line: 5, locals: { mid: '3' } });
    expect(await mcp.ok('evaluate', { session, expression: 'len(xs), lo, hi' })).toEqual({ value: '(3, 3, 3)', frame: { function: 'search', file: 'main.py', line: 5 } });
    expect(await mcp.error('evaluate', { session, expression: 'xs[mid]' })).toMatch(/IndexError/);
    const { frames } = await mcp.ok('stack', { session });
    expect(frames).toEqual([{ function: 'search', file: 'main.py', line: 5, source: 'if xs[mid] == target:', locals: expect.objectContaining({ lo: '3', hi: '3', mid: '3' }) }]);
    await mcp.ok('end_session', { session });
  });

  it("gives the stack and evaluates as CPython's bdb does at the same breakpoint", async () => {
    const code = [
      'def outer(xs):', //                        1
      '    total = 0', //                         2
      '    for x in xs:', //                      3
      '        total += inner(x, total)', //      4
      '    return total', //                      5
      '',
      'def inner(x, acc):', //                    7
      '    scaled = x * 3', //                    8
      '    return scaled - acc // 2', //          9
      '',
    ].join('\n');
    const call = 'outer([4, 7, 1])';
    const expressions = ['scaled + acc', 'x * [1, 2]', 'sorted({"b": 1, "a": 2})'];
    // bdb: the second time line 9 is reached (acc > 0), the frames innermost first with their
    // locals, and the expressions evaluated in the innermost frame and in its caller
    const script = [
      'import bdb, json, sys',
      'code, call, exprs = json.loads(sys.argv[1])',
      'class Probe(bdb.Bdb):',
      '    def user_line(self, frame):',
      '        if frame.f_code.co_filename != "<prog>" or frame.f_lineno != 9 or frame.f_locals["acc"] == 0: return',
      '        frames, f = [], frame',
      '        while f is not None and f.f_code.co_filename == "<prog>" and f.f_code.co_name != "<module>":',
      '            frames.append({"function": f.f_code.co_name, "line": f.f_lineno, "locals": {k: repr(v) for k, v in f.f_locals.items()}})',
      '            f = f.f_back',
      '        values = [repr(eval(e, frame.f_globals, frame.f_locals)) for e in exprs] + [repr(eval("total", frame.f_back.f_globals, frame.f_back.f_locals))]',
      '        print(json.dumps({"frames": frames, "values": values}))',
      '        raise SystemExit',
      'g = {"__name__": "__main__"}',
      'exec(compile(code, "<prog>", "exec"), g)',
      'try:',
      '    Probe().runeval(compile(call, "<prog>", "eval"), g)',
      'except SystemExit:',
      '    pass',
    ].join('\n');
    const bdbAnswer = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, JSON.stringify([code, call, expressions])], { encoding: 'utf8' })) as {
      frames: Array<{ function: string; line: number; locals: Record<string, string> }>;
      values: string[];
    };
    const session = (await mcp.ok('start_session', { code, call, breakpoints: [{ line: 9, condition: 'acc > 0' }] })).session as string;
    expect((await mcp.ok('step', { session, action: 'continue' })).state).toMatchObject({ line: 9 });
    const { frames } = await mcp.ok('stack', { session });
    expect((frames as Array<Record<string, unknown>>).map(({ function: fn, line, locals }) => ({ function: fn, line, locals }))).toEqual(bdbAnswer.frames);
    for (const [i, expression] of expressions.entries()) expect((await mcp.ok('evaluate', { session, expression })).value).toBe(bdbAnswer.values[i]);
    expect((await mcp.ok('evaluate', { session, expression: 'total', frame: 1 })).value).toBe(bdbAnswer.values[expressions.length]);
    await mcp.ok('end_session', { session });
  });

  it('changes breakpoints at any stop, verifying each; a breakpoint jump to a line without code is refused', async () => {
    const session = (await mcp.ok('start_session', { code: SEARCH, call: 'search([1, 3, 5, 7, 9, 11], 12)' })).session as string;
    expect((await mcp.ok('set_breakpoints', { session, breakpoints: [{ line: 8, hit_count: 2 }, { line: 1 + 1, condition: 'lo +' }, { line: 9 }] })).breakpoints).toEqual([
      { file: 'main.py', line: 8, verified: true },
      { file: 'main.py', line: 2, verified: false, message: expect.stringMatching(/not a Python expression/) },
      { file: 'main.py', line: 9, verified: false, message: expect.stringMatching(/no code/) },
    ]);
    // the second hit of line 8
    expect((await mcp.ok('step', { session, action: 'continue' })).state).toMatchObject({ line: 8, locals: { mid: '5' } });
    expect(await mcp.error('step', { session, action: 'breakpoint:9' })).toMatch(/line 9 has no code/);
    // an alias an agent may use
    expect((await mcp.ok('step', { session, action: 'step_out' })).state).toMatchObject({ event: 'return', function: 'search' });
    await mcp.ok('end_session', { session });
  });

  it('ends an uncaught exception with its traceback, outermost first', async () => {
    const session = (await mcp.ok('start_session', { code: DEEP, call: 'a(4)' })).session as string;
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({
      event: 'exit',
      status: 'exception',
      traceback: [
        { function: 'a', line: 2, source: 'return b(n) + 1' },
        { function: 'b', line: 5, source: 'return c(n) * 2' },
        { function: 'c', line: 8, source: 'raise ValueError(f"bad {n}")' },
      ],
    });
    await mcp.ok('end_session', { session });
  });
});

describe('ndb mcp: answers that stay small', () => {
  it('gives each state only the new output, pages through all of it, and caps every answer', async () => {
    const code = 'def noisy(n):\n    for i in range(n):\n        print("x" * 1000, i)\n    return n\n';
    const session = (await mcp.ok('start_session', { code, call: 'noisy(60)' })).session as string;
    const first = (await mcp.ok('step', { session, action: 'step_return' })).state as Record<string, unknown>;
    expect(first.stdout_length).toBeGreaterThan(50_000);
    expect((first.stdout as string).length).toBeLessThan(10_000);
    const again = (await mcp.ok('step', { session, action: 'inv_step_into' })).state as Record<string, unknown>;
    expect(again.stdout).toBe('');
    let from: number | undefined = 0;
    let text = '';
    while (from !== undefined) {
      const page = await mcp.ok('output', { session, from, at_end: true });
      text += page.text as string;
      from = page.next as number | undefined;
    }
    expect(text.split('\n').filter(Boolean)).toHaveLength(60);
    // a trace of a long run comes in pages
    const trace = await mcp.ok('trace', { session, limit: 50, function: 'noisy', line: 3 });
    expect((trace.events as unknown[]).length).toBe(50);
    expect(trace.next).toBeGreaterThan(0);
    // total: the events the filter matched (line 3 ran 60 times), the whole run apart
    expect(trace.total).toBe(60);
    expect(trace.run_events).toBeGreaterThan(2 * 60); // lines 2 and 3 each iteration, and more
    await mcp.ok('end_session', { session });
  });

  it('pages a trace by size and caps a deep stack', async () => {
    const code = [
      'def walk(n):',
      '    names = [f"item-{i}" for i in range(40)]',
      '    total = 0',
      '    for i in range(n):',
      '        total += len(names[i % 40])',
      '    return total',
      '',
      'def down(n):',
      '    if n == 0:',
      '        return 0',
      '    return down(n - 1) + 1',
      '',
      'def main():',
      '    return walk(1500) + down(400)',
    ].join('\n');
    const session = (await mcp.ok('start_session', { code, call: 'main()', max_events: 20_000 })).session as string;
    const page = await mcp.ok('trace', { session, limit: 2_000 });
    const events = page.events as Array<{ index: number }>;
    expect(events.length).toBeGreaterThan(10);
    expect(events.length).toBeLessThan(2_000);
    expect(page.next).toBe(events.at(-1)!.index + 1);
    const following = await mcp.ok('trace', { session, from: page.next, limit: 5 });
    expect((following.events as Array<{ index: number }>)[0]!.index).toBe(page.next);
    // 400 frames deep, each with its locals and source: the answer is cut, and says so
    await mcp.ok('set_breakpoints', { session, breakpoints: [{ line: 10 }] });
    const stop = (await mcp.ok('step', { session, action: 'continue' })).state as Record<string, unknown>;
    expect(stop).toMatchObject({ line: 10 });
    const stack = await mcp.ok('stack', { session });
    expect((stack.frames as Array<{ function: string }>)[0]).toMatchObject({ function: 'down', line: 10 });
    await mcp.ok('end_session', { session });
  });

  it("gives predict's real state the output its action writes, not all output again", async () => {
    const code = 'def greet(n):\n    print("a" * 20000)\n    print("hello", n)\n    return n\n';
    const session = (await mcp.ok('start_session', { code, call: 'greet(3)', breakpoints: [3] })).session as string;
    await mcp.ok('step', { session, action: 'continue' });
    const p = await mcp.ok('predict', { session, action: 'step_over' });
    expect(p.real).toMatchObject({ event: 'line', line: 4, stdout: 'hello 3\n', stdout_length: 20_009 });
    // a step back writes nothing
    const back = await mcp.ok('predict', { session, action: 'inv_step_into' });
    expect(back.real).toMatchObject({ line: 2, stdout: '', stdout_length: 0 });
    await mcp.ok('end_session', { session });
  });

  it('keeps warnings and logging apart from stdout, and reads input() from stdin', async () => {
    const code = [
      'import logging, warnings',
      '',
      'def run():',
      '    name = input("who? ")',
      '    warnings.warn("old api")',
      '    logging.warning("careful, %s", name)',
      '    print("hello", name)',
      '    return name',
      '',
    ].join('\n');
    const session = (await mcp.ok('start_session', { code, call: 'run()', stdin: 'ada\n' })).session as string;
    const end = (await mcp.ok('step', { session, action: 'step_return' })).state as Record<string, unknown>;
    expect(end).toMatchObject({ event: 'return', value: "'ada'" });
    expect(end.stdout).toMatch(/who\? ada\nhello ada/);
    expect(end.stderr).toMatch(/UserWarning: old api[\s\S]*careful, ada/);
    expect(end.stdout).not.toMatch(/careful/);
    const errors = await mcp.ok('output', { session, stream: 'stderr', at_end: true });
    expect(errors.text).toMatch(/careful, ada/);
    await mcp.ok('end_session', { session });
  });

  it('takes the limits an agent sets, within their ceilings', async () => {
    const code = 'def process(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n';
    const cut = (await mcp.ok('start_session', { code, call: 'process(6000)' })).session as string;
    expect((await mcp.ok('step', { session: cut, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'budget' });
    const raised = (await mcp.ok('start_session', { code, call: 'process(6000)', max_events: 50_000 })).session as string;
    expect((await mcp.ok('step', { session: raised, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'normal', value: '17997000' });
    expect(await mcp.error('start_session', { code, call: 'process(1)', max_events: 10 ** 9 })).toMatch(/max_events/);
    for (const session of [cut, raised]) await mcp.ok('end_session', { session });
  });
});

describe('ndb mcp: files, isolation and the model', () => {
  it('debugs a file under its roots with another module of its folder, and refuses one outside', async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'helpers.py'), 'def double(x):\n    return 2 * x\n');
    writeFileSync(join(folder, 'main.py'), 'from helpers import double\n\ndef run(n):\n    return double(n) + 1\n');
    const started = await mcp.ok('start_session', { path: join(folder, 'main.py'), call: 'run(5)' });
    const session = started.session as string;
    expect((await mcp.ok('step', { session, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'normal', value: '11' });
    await mcp.ok('end_session', { session });
    const outside = mkdtempSync(join(tmpdir(), 'ndb-mcp-outside-'));
    writeFileSync(join(outside, 'x.py'), 'print(1)\n');
    expect(await mcp.error('start_session', { path: join(outside, 'x.py') })).toMatch(/outside the folders this server may read/);
  });

  it('answers one session while another is stuck in a call that cannot be interrupted', async () => {
    const stuck = (await mcp.ok('start_session', { code: 'def hang(n):\n    return sum(range(n))\n', call: 'hang(10)', timeout_s: 3 })).session as string;
    const working = (await mcp.ok('start_session', { code: SEARCH, call: 'search([1, 3], 3)' })).session as string;
    await mcp.ok('step', { session: stuck, action: 'step_into' });
    // the what-if run computes one sum that Python cannot interrupt: its process is held
    const hung = mcp.call('step', { session: stuck, action: 'set:n=10**13' });
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    await mcp.ok('step', { session: working, action: 'step_into' });
    await mcp.ok('evaluate', { session: working, expression: 'len(xs)' });
    // generous on a loaded machine; the stuck run holds its process for 3 s and more
    expect(performance.now() - started).toBeLessThan(2_500);
    await hung;
    for (const session of [stuck, working]) await mcp.ok('end_session', { session });
  }, 60_000);

  it('guesses inputs as calls that run: a method through its object, a function of two arguments', async () => {
    const code = [
      'class Account:',
      '    def __init__(self, balance):',
      '        self.balance = balance',
      '    def __repr__(self):',
      '        return f"Account({self.balance})"',
      '    def deposit(self, amount):',
      '        self.balance += amount',
      '        return self.balance',
      '',
      'def area(w, h):',
      '    return w * h',
      '',
      'def run():',
      '    return Account(10).deposit(5) + area(3, 4)',
      '',
    ].join('\n');
    for (const [line, fn] of [
      [8, 'deposit'],
      [11, 'area'],
    ] as const) {
      const session = (await mcp.ok('start_session', { code, call: 'run()' })).session as string;
      expect((await mcp.ok('step', { session, action: `breakpoint:${line}` })).state).toMatchObject({ line });
      await mcp.ok('step', { session, action: 'step_over' });
      const guess = await mcp.ok('guess_inputs', { session, k: 4 });
      expect(guess.drawn).toBe(4);
      const candidates = guess.candidates as Array<{ call: string; verified: boolean; got?: string }>;
      expect(candidates.length + (guess.duplicates as number) + (guess.unusable as number)).toBe(4);
      for (const c of candidates) {
        expect(c.call, fn).toMatch(fn === 'deposit' ? /^\(.*\)\.deposit\(/ : /^area\(/);
        expect(c.call).not.toMatch(/<\|/);
        // the call itself fits the function (its arity, its keywords); a predicted object's repr may
        // still be wrong, which is the model's miss, not the call's
        expect(c.got ?? '', c.call).not.toMatch(new RegExp(`\\b${fn}\\(\\) (missing|takes|got)`));
      }
      await mcp.ok('end_session', { session });
    }
  }, 120_000);

  it('marks each state of engine neural as predicted or given', async () => {
    const session = (await mcp.ok('start_session', { code: SEARCH, call: 'search([1, 3], 3)', engine: 'neural' })).session as string;
    const first = await mcp.ok('step', { session, action: 'step_into' });
    expect(first.state).toMatchObject({ predicted: true, confidence: expect.any(Number) });
    await mcp.ok('end_session', { session });
  });
});
