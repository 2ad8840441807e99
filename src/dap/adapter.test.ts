// `ndb dap` driven as VS Code drives it (DebugClient over stdio): every stop is compared with
// the CLI's states, which are pdb's (src/realEngine/bdbOracle.test.ts).

import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { engineCommand } from '../realEngine/node/engineChild';
import { hostilePrograms, unixSocketProgram } from '../testing/hostilePrograms';
import { act, dapClient, launch, where } from '../testing/dapClient';
import { debugJsonStates } from '../testing/debugStates';

const dir = mkdtempSync(join(tmpdir(), 'ndb-dap-'));

function program(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

const SUM = program(
  'sum.py',
  [
    'def f(xs):', //        1
    '    s = 0', //         2
    '    for x in xs:', //  3
    '        s += x', //    4
    '    return s', //      5
    '', //                  6
    'def g(n):', //         7
    '    print("g", n)', // 8
    '    return f(list(range(n))) * 2', // 9
    '',
  ].join('\n'),
);

/** The CLI's states for the same program, call, actions and breakpoints. */
async function cliStates(file: string, call: string, actions: string[], breakpoints: number[]): Promise<Array<Record<string, unknown>>> {
  return debugJsonStates(file, call, actions, breakpoints);
}

let clients: DebugClient[] = [];

async function started(via: 'node' | 'npm' = 'node'): Promise<DebugClient> {
  const dc = dapClient(via);
  await dc.start();
  clients.push(dc);
  return dc;
}

afterEach(async () => {
  await Promise.all(clients.map((dc) => dc.stop()));
  clients = [];
});

/** What a DAP stop shows, in the CLI state's terms. */
async function shown(dc: DebugClient): Promise<Record<string, unknown>> {
  const w = await where(dc);
  const { '(return)': value, ...locals } = w.locals;
  return value === undefined ? { function: w.name, line: w.line, locals } : { function: w.name, line: w.line, locals, value };
}

describe('ndb dap', () => {
  it('stops where the CLI (pdb) stops, forwards and backwards, with the right reasons', async () => {
    const dc = await started();
    const { first, capabilities, breakpoints } = await launch(dc, { program: SUM, call: 'g(3)', stopOnEntry: true }, [{ line: 5 }]);
    expect(capabilities).toMatchObject({
      supportsStepBack: true,
      supportsConfigurationDoneRequest: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsSetVariable: true,
      supportsEvaluateForHovers: true,
      supportsRestartFrame: true,
    });
    expect(breakpoints).toMatchObject([{ verified: true, line: 5 }]);
    expect(first.body).toMatchObject({ reason: 'entry', threadId: 1 });
    expect((await dc.threadsRequest()).body.threads).toEqual([{ id: 1, name: 'main' }]);

    const t = { threadId: 1 };
    const moves: Array<[string, () => Promise<unknown>, string]> = [
      ['step_into', () => dc.stepInRequest(t), 'step'],
      ['step_into', () => dc.stepInRequest(t), 'step'],
      ['step_into', () => dc.stepInRequest(t), 'step'],
      ['step_over', () => dc.nextRequest(t), 'step'],
      ['step_over', () => dc.nextRequest(t), 'step'],
      ['step_return', () => dc.stepOutRequest(t), 'breakpoint'], // the breakpoint on line 5 stops it, as in pdb
      ['inv_step_into', () => dc.stepBackRequest(t), 'step'],
      ['inv_step_into', () => dc.stepBackRequest(t), 'step'],
      ['inv_step_call', () => dc.restartFrameRequest({ frameId: 2 }), 'restart'],
      ['step_over', () => dc.nextRequest(t), 'step'],
      ['step_return', () => dc.stepOutRequest(t), 'breakpoint'],
      ['step_return', () => dc.stepOutRequest(t), 'step'],
      ['step_over', () => dc.nextRequest(t), 'step'],
    ];
    const expected = await cliStates(SUM, 'g(3)', moves.map((m) => m[0]), [5]);
    const pick = (s: Record<string, unknown>) => {
      const out: Record<string, unknown> = { function: s.function, line: s.line, locals: s.locals };
      if (s.event === 'return') out.value = s.value;
      return out;
    };
    expect(await shown(dc)).toEqual(pick(expected[0]!));
    for (const [i, [name, send, reason]] of moves.entries()) {
      const stop = await act(dc, send);
      expect(stop.event, `${name} (move ${i + 1})`).toBe('stopped');
      expect(stop.body.reason, `${name} (move ${i + 1})`).toBe(reason);
      expect(await shown(dc), `${name} (move ${i + 1})`).toEqual(pick(expected[i + 1]!));
    }
    // The stack: f called from g, each frame at its own line.
    const trace = await dc.stackTraceRequest({ threadId: 1 });
    expect(trace.body.stackFrames.map((f) => [f.name, f.line])).toEqual([['g', 9]]);
    const end = await act(dc, () => dc.continueRequest(t));
    expect(end.event).toBe('terminated');
  });

  it('verifies breakpoints per line, honours conditions and hit counts, and continues in reverse', async () => {
    const dc = await started();
    const { first, breakpoints } = await launch(dc, { program: SUM, call: 'f([10, 11, 12, 13])' }, [
      { line: 4, condition: 'x % 2 == 1' },
      { line: 6 },
      { line: 2, condition: 'xs[' },
      { line: 3, hitCondition: '== 2' },
    ]);
    expect(breakpoints.map((b) => b.verified)).toEqual([true, false, false, false]);
    expect(breakpoints[1]!.message).toMatch(/no code on line 6/);
    expect(breakpoints[2]!.message).toMatch(/not a Python expression/);
    expect(breakpoints[3]!.message).toMatch(/hit count/);
    const t = { threadId: 1 };
    expect(first.body).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [breakpoints[0]!.id] });
    expect(await where(dc)).toMatchObject({ line: 4, locals: { x: '11', s: '10' } });
    expect((await act(dc, () => dc.continueRequest(t))).body.reason).toBe('breakpoint');
    expect((await where(dc)).locals).toMatchObject({ x: '13' });
    expect((await act(dc, () => dc.reverseContinueRequest(t))).body.reason).toBe('breakpoint');
    expect((await where(dc)).locals).toMatchObject({ x: '11' });
    expect((await act(dc, () => dc.reverseContinueRequest(t))).body.reason).toBe('entry');
    expect(await where(dc)).toMatchObject({ name: 'f', line: 1, locals: { xs: '[10, 11, 12, 13]' } });

    // A hit count: stop from the 3rd time line 4 is reached on (bdb's ignore count).
    const set = await dc.setBreakpointsRequest({ source: { path: SUM }, breakpoints: [{ line: 4, hitCondition: '3' }] });
    expect(set.body.breakpoints[0]).toMatchObject({ verified: true });
    await act(dc, () => dc.continueRequest(t));
    expect((await where(dc)).locals).toMatchObject({ x: '12' });
    await act(dc, () => dc.continueRequest(t));
    expect((await where(dc)).locals).toMatchObject({ x: '13' });
    expect((await act(dc, () => dc.continueRequest(t))).event).toBe('terminated');
  });

  it('shows objects expandable to their attributes, evaluates, edits a local (what-if) and sends the output', async () => {
    const file = program(
      'objects.py',
      [
        'class P:', //                    1
        '    def __init__(self, a):', //  2
        '        self.a = a', //          3
        '        self.b = [a, "x,y"]', // 4
        '', //                            5
        'def f(n):', //                   6
        '    p = P(n * 2)', //            7
        '    print("n is", n)', //        8
        '    return p.a + n', //          9
        '',
      ].join('\n'),
    );
    const dc = await started();
    const output: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => {
      if (e.body.category === 'stdout') output.push(e.body.output);
    });
    await launch(dc, { program: file, call: 'f(3)' }, [{ line: 8 }]);
    const t = { threadId: 1 };
    const scopes = (await where(dc)).scopes;
    const locals = (await dc.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body.variables;
    const p = locals.find((v) => v.name === 'p')!;
    expect(p).toMatchObject({ value: "P(a=6, b=[6, 'x,y'])", evaluateName: 'p' });
    expect(p.variablesReference).toBeGreaterThan(0);
    const fields = (await dc.variablesRequest({ variablesReference: p.variablesReference })).body.variables;
    expect(fields.map((v) => [v.name, v.value, v.evaluateName])).toEqual([
      ['a', '6', 'p.a'],
      ['b', "[6, 'x,y']", 'p.b'],
    ]);
    const items = (await dc.variablesRequest({ variablesReference: fields[1]!.variablesReference })).body.variables;
    expect(items.map((v) => [v.name, v.value, v.evaluateName])).toEqual([
      ['[0]', '6', 'p.b[0]'],
      ['[1]', "'x,y'", 'p.b[1]'],
    ]);

    expect((await dc.evaluateRequest({ expression: 'n', frameId: 1, context: 'hover' })).body.result).toBe('3');
    expect((await dc.evaluateRequest({ expression: 'p.a * 10 + n', frameId: 1, context: 'watch' })).body.result).toBe('63');
    await expect(dc.evaluateRequest({ expression: 'nope + 1', frameId: 1, context: 'watch' })).rejects.toThrow(/NameError: name 'nope' is not defined/);

    // What-if: n = 10 at this stop; the program runs on from the edited state.
    const set = await dc.setVariableRequest({ variablesReference: scopes[0]!.variablesReference, name: 'n', value: '5 * 2' });
    expect(set.body.value).toBe('10');
    await expect(dc.setVariableRequest({ variablesReference: scopes[0]!.variablesReference, name: 'm', value: '1' })).rejects.toThrow(/'m' is not a local of f\(\)/);
    await act(dc, () => dc.nextRequest(t));
    expect((await where(dc)).locals).toMatchObject({ n: '10' });
    await act(dc, () => dc.nextRequest(t));
    expect((await where(dc)).locals).toMatchObject({ '(return)': '16' });
    expect(output.join('')).toBe('n is 10\n');
    const exited = dc.waitForEvent('exited');
    expect((await act(dc, () => dc.continueRequest(t))).event).toBe('terminated');
    expect((await exited).body).toMatchObject({ exitCode: 0 });
  });

  it('answers bad launches with error responses and stays up (npm run --silent ndb -- dap)', async () => {
    const dc = await started('npm');
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest();
    await initialized;
    await expect(dc.launchRequest({ program: join(dir, 'missing.py') } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/cannot read .*missing\.py: ENOENT/);
    await expect(dc.launchRequest({ program: SUM, engine: 'quantum' } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/"engine" must be one of real, neural, both/);
    await expect(dc.launchRequest({} as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/launch needs "program"/);
    const bad = program('bad.py', 'def f(x):\n    return (x +\n');
    await expect(dc.launchRequest({ program: bad } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/bad\.py:\d+: SyntaxError/);
    await expect(dc.launchRequest({ program: SUM, call: 'f([1,' } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/The call is not an expression/);
    await expect(dc.launchRequest({ program: SUM, call: 'nosuch(1)' } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/NameError/);
    await expect(dc.stackTraceRequest({ threadId: 1 })).rejects.toThrow(/launch one first/);
    // Still up: a good launch works in the same session, here configured before it is launched
    // (breakpoints are checked against the file then); an endless loop ends with its reason.
    const spin = program('spin.py', 'def spin(n):\n    while True:\n        n += 1\n');
    const early = await dc.setBreakpointsRequest({ source: { path: spin }, breakpoints: [{ line: 4 }, { line: 3, condition: 'n == 2' }] });
    expect(early.body.breakpoints.map((b) => b.verified)).toEqual([false, true]);
    await dc.configurationDoneRequest();
    const first = act(dc, () => dc.launchRequest({ program: spin, call: 'spin(0)', stopOnEntry: true } as DebugProtocol.LaunchRequestArguments));
    expect((await first).body).toMatchObject({ reason: 'entry' });
    expect((await act(dc, () => dc.continueRequest({ threadId: 1 }))).body).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [early.body.breakpoints[1]!.id] });
    expect((await where(dc)).locals).toEqual({ n: '2' });
    await dc.setBreakpointsRequest({ source: { path: spin }, breakpoints: [] });
    await expect(dc.setVariableRequest({ variablesReference: 999_999, name: 'n', value: '1' })).rejects.toThrow(/current frame/);
    const errors: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => {
      if (e.body.category === 'stderr') errors.push(e.body.output);
    });
    expect((await act(dc, () => dc.continueRequest({ threadId: 1 }))).event).toBe('terminated');
    // (n changes every time round: the recording shows no state that came back, so no "may not terminate")
    expect(errors.join('')).toMatch(/The recording was cut at 10,000 events \(the event budget\).*raise "maxEvents" in launch\.json/);
    expect(errors.join('')).not.toContain('terminate');
  });

  it("works with DebugClient's own scenario helpers (hitBreakpoint, assertStoppedLocation)", async () => {
    const dc = await started();
    await dc.hitBreakpoint({ program: SUM, call: 'g(2)' }, { path: SUM, line: 4 });
    const step = dc.assertStoppedLocation('step', { path: SUM, line: 3 });
    await dc.nextRequest({ threadId: 1 });
    await step;
    const back = dc.assertStoppedLocation('step', { path: SUM, line: 4 });
    await dc.stepBackRequest({ threadId: 1 });
    await back;
  });

  it("with engine both, shows the model's prediction of each stop in a Predicted scope, marked ✓/✗", async () => {
    const dc = await started();
    const { first } = await launch(dc, { program: SUM, call: 'f([1, 2])', engine: 'both', stopOnEntry: true });
    expect(first.body).toMatchObject({ reason: 'entry' });
    const predictedRows = async () => {
      const w = await where(dc);
      expect(w.scopes.map((s) => s.name)).toEqual(['Locals', 'Predicted']);
      const rows = (await dc.variablesRequest({ variablesReference: w.scopes[1]!.variablesReference })).body.variables;
      return { w, rows: Object.fromEntries(rows.map((v) => [v.name, v.value])) };
    };
    // The first stop is given, not predicted.
    expect((await predictedRows()).rows).toHaveProperty('(not predicted)');
    for (const send of [() => dc.stepInRequest({ threadId: 1 }), () => dc.nextRequest({ threadId: 1 }), () => dc.stepOutRequest({ threadId: 1 })]) {
      await act(dc, send);
      const { w, rows } = await predictedRows();
      expect(rows.match).toMatch(/^[✓✗] /);
      // The line is marked against the real one.
      expect(rows.line).toMatch(new RegExp(`^${w.line} ✓ |^\\d+ ✗ \\(real: ${w.line}\\) `));
      // how sure the model was, whole and per field
      expect(rows.confidence).toMatch(/^(sure|likely|a guess) \d+ % that the whole state is right$/);
      for (const [name, value] of Object.entries(rows)) if (name !== 'match' && name !== 'confidence') expect(value).toMatch(/[✓✗]/);
      expect(rows.line).toMatch(/· (sure|likely|a guess) \d+ %$/);
    }
    // The step out lands on the return: the model's value beside the real one.
    const { rows } = await predictedRows();
    expect(rows['(return)']).toMatch(/^\S+ ✓ |✗ \(real: 3\) /);
  });

  it('runs a program that tries to leave Python to its end inside it', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'ndb-dap-hostile-'));
    for (const name of ['os-system', 'past-python-eval', 'past-python-mount']) {
      const hostile = hostilePrograms(watched).find((p) => p.name === name)!;
      const dc = await started();
      const launched = await launch(dc, { program: program(`${name}.py`, hostile.source), stopOnEntry: true }).catch((err: Error) => err);
      if (launched instanceof Error) {
        // past Python's layer the recording cannot be trusted: the launch is refused, saying so
        expect(hostile.refusedByPython, name).toBe(false);
        expect(launched.message, name).toMatch(/cannot be trusted/);
      } else {
        expect(launched.first.event, name).toBe('stopped');
        expect((await act(dc, () => dc.continueRequest({ threadId: 1 }))).event, name).toMatch(/stopped|terminated/);
      }
      expect(existsSync(join(watched, name)), name).toBe(false);
    }
  }, 120_000);

  it.runIf(engineCommand().boundary === 'bubblewrap')('lets a launched program or an evaluate that reached JavaScript create or reach no Unix socket', async () => {
    const sockets = mkdtempSync(join(tmpdir(), 'ndb-dap-os-'));
    const hostSocket = join(sockets, 'host.sock');
    let reached = 0;
    const server = createServer((socket) => {
      reached++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(hostSocket, resolve));
    try {
      const dc = await started();
      await launch(dc, { program: program('sockets.py', unixSocketProgram(join(sockets, 'launch.sock'), hostSocket)), stopOnEntry: true }).catch(() => undefined);
      const clean = await started();
      await launch(clean, { program: SUM, call: 'g(2)', stopOnEntry: true });
      const frames = await clean.stackTraceRequest({ threadId: 1 });
      const escape = `exec(${JSON.stringify(unixSocketProgram(join(sockets, 'evaluate.sock'), hostSocket))}) or 1`;
      await clean.evaluateRequest({ expression: escape, frameId: frames.body.stackFrames[0]!.id, context: 'repl' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(readdirSync(sockets)).toEqual(['host.sock']);
      expect(reached).toBe(0);
    } finally {
      server.close();
    }
  }, 180_000);
});

