// `ndb mcp` driven by the MCP SDK's own client over stdio, started as the contract says
// (`npm run --silent ndb -- mcp`); every state is compared with the CLI's (`ndb debug --json`).

import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand } from '../realEngine/node/engineChild';
import { debugJsonStates } from '../testing/debugStates';
import { engineProcesses } from '../testing/engineProcesses';
import { hostilePrograms, POISONING_PROGRAM, unixSocketProgram } from '../testing/hostilePrograms';
import { startMcp, type McpTestClient } from '../testing/mcpClient';

const CODE = ['def f(xs):', '    s = 0', '    for x in xs:', '        s += x', '    return s', '', 'def g(n):', '    print("g", n)', '    return f(list(range(n))) * 2', ''].join('\n');

let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp();
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

const call = (name: string, args: Record<string, unknown>) => mcp.call(name, args);
const ok = (name: string, args: Record<string, unknown>) => mcp.ok(name, args);
const error = (name: string, args: Record<string, unknown>) => mcp.error(name, args);

async function cliStates(call: string, actions: string[], breakpoints: number[]): Promise<unknown[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ndb-mcp-'));
  // main.py: the name a pasted program goes by in MCP's states
  const file = join(dir, 'main.py');
  writeFileSync(file, CODE);
  return debugJsonStates(file, call, actions, breakpoints);
}

/** A state without its output: the CLI prints all of it, MCP only what is new since its last answer. */
function withoutOutput(state: unknown): unknown {
  const copy = structuredClone(state) as Record<string, unknown>;
  for (const part of [copy, copy.real, copy.neural] as Array<Record<string, unknown> | undefined>) {
    if (part && typeof part === 'object') {
      delete part.stdout;
      delete part.stdout_length;
    }
  }
  return copy;
}

describe('ndb mcp', () => {
  it('offers its tools with every argument described, output schemas and annotations', async () => {
    const { tools } = await mcp.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {}).sort()]));
    expect(byName).toEqual({
      start_session: ['argv', 'breakpoints', 'call', 'code', 'engine', 'exceptions', 'max_events', 'path', 'stdin', 'timeout_s'],
      step: ['action', 'session'],
      stack: ['from', 'limit', 'session'],
      evaluate: ['expression', 'frame', 'session'],
      set_breakpoints: ['breakpoints', 'session'],
      predict: ['action', 'session'],
      guess_inputs: ['k', 'session'],
      trace: ['file', 'from', 'function', 'limit', 'line', 'session'],
      output: ['at_end', 'from', 'session', 'stream'],
      end_session: ['session'],
    });
    for (const t of tools) {
      expect(t.description?.length).toBeGreaterThan(20);
      expect(t.outputSchema, t.name).toBeDefined();
      expect(typeof t.annotations?.readOnlyHint, t.name).toBe('boolean');
      for (const [arg, schema] of Object.entries(t.inputSchema.properties ?? {})) expect((schema as { description?: string }).description, `${t.name}.${arg}`).toBeTruthy();
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name).sort();
    expect(readOnly).toEqual(['evaluate', 'guess_inputs', 'output', 'predict', 'stack', 'trace']);
    expect(tools.find((t) => t.name === 'end_session')?.annotations?.destructiveHint).toBe(true);
  });

  it('debugs forwards, backwards and with a what-if edit, every state as the CLI prints it', async () => {
    const actions = ['step_into', 'step_into', 'step_into', 'step_over', 'step_return', 'inv_step_call', 'breakpoint:4', 'set:s=100', 'step_over', 'inv_step_over', 'inv_step_into', 'step_return', 'continue', 'inv_step_into'];
    const expected = await cliStates('g(3)', actions, [5]);
    const started = await ok('start_session', { code: CODE, call: 'g(3)', breakpoints: [5] });
    expect(started.session).toMatch(/^s\d+$/);
    expect(withoutOutput(started.state)).toEqual(withoutOutput(expected[0]));
    for (const [i, action] of actions.entries()) {
      const { state } = await ok('step', { session: started.session, action });
      expect(withoutOutput(state), `${action} (action ${i + 1})`).toEqual(withoutOutput(expected[i + 1]));
      if (action.startsWith('set:')) {
        // The run with the edit: f returns 100 + 1 + 2, g twice that.
        const trace = await ok('trace', { session: started.session });
        expect((trace.events as Array<Record<string, unknown>>).some((e) => Array.isArray(e.edits))).toBe(true);
        expect(trace.exit).toMatchObject({ status: 'normal', value: '206' });
      }
    }
    // Stepping back to before the edit returned to the run without it.
    const trace = await ok('trace', { session: started.session });
    expect(trace.truncated).toBe(false);
    const events = trace.events as Array<Record<string, unknown>>;
    expect(events[0]).toMatchObject({ event: 'call', function: 'g', line: 7, locals: { n: '3' } });
    expect(events.some((e) => Array.isArray(e.edits))).toBe(false);
    // `xs` is a list the recording numbers (ids); the heap's boxes, which only the app draws, are not walked
    expect(events.some((e) => e.ids !== undefined)).toBe(true);
    expect(events.filter((e) => 'heap' in e || 'heap_cut' in e)).toEqual([]);
    expect(trace.exit).toMatchObject({ status: 'normal', value: '6', stdout: 'g 3\n' });
    expect(await ok('end_session', { session: started.session })).toEqual({});
    expect(await error('step', { session: started.session, action: 'step_into' })).toMatch(/unknown session/);
  });

  it('answers bad input with tool errors and keeps the other sessions', async () => {
    const good = (await ok('start_session', { code: CODE, call: 'f([1, 2])' })).session as string;
    expect(await error('start_session', { code: 'def f(:\n    pass\n', call: 'f()' })).toMatch(/:1:\d+: SyntaxError/);
    expect(await error('start_session', { code: CODE, call: 'f([1,' })).toMatch(/The call is not an expression/);
    expect(await error('start_session', { code: CODE, call: 'nosuch()' })).toMatch(/NameError/);
    expect(await error('start_session', { code: CODE, engine: 'quantum' })).toMatch(/engine/);
    expect(await error('start_session', { call: 'f()' })).toMatch(/code/);
    expect(await error('step', { session: 'nope', action: 'step_into' })).toMatch(/unknown session 'nope'/);
    const jump = await error('step', { session: good, action: 'jump' });
    expect(jump).toMatch(/action/);
    expect(await error('step', { session: good, action: 'breakpoint:6' })).toMatch(/line 6 has no code/);
    expect(await error('step', { session: good, action: 'set:zz=1' })).toMatch(/'zz' is not a local of f\(\)/);
    expect(await error('step', { session: good, action: 'set:xs=(' })).toMatch(/not a Python expression|SyntaxError|raised/);
    expect(await error('predict', { session: good, action: 'set:xs=1' })).toMatch(/action/);
    expect(await error('guess_inputs', { session: good })).toMatch(/works at a return/);
    expect(await error('guess_inputs', { session: good, k: 0 })).toMatch(/k/);
    expect(await error('no_such_tool', {})).toMatch(/no_such_tool/);
    // The good session is where it was.
    expect((await ok('step', { session: good, action: 'step_return' })).state).toMatchObject({ event: 'return', value: '3' });
    // An endless loop ends with its reason.
    const spin = (await ok('start_session', { code: 'def spin(n):\n    while True:\n        n += 1\n', call: 'spin(0)' })).session;
    expect((await ok('step', { session: spin, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'budget', message: expect.stringMatching(/cut at 10,000 events \(the event budget\).*max_events/) });
    expect((await ok('step', { session: spin, action: 'inv_step_into' })).state).toMatchObject({ event: 'line', function: 'spin' });
    for (const id of [good, spin]) await ok('end_session', { session: id });
  });

  it('keeps programs that try to leave Python inside it, and the next session works', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'ndb-mcp-hostile-'));
    for (const hostile of hostilePrograms(watched)) {
      // A module-level program starts at its first line; continue runs it to its end.
      const started = await call('start_session', { code: hostile.source });
      if (started.isError) {
        // refused before any stop (e.g. the engine restarted under it): said as a tool error
        expect(started.content[0]!.text, hostile.name).toMatch(/sandbox|engine/);
      } else {
        const session = started.structuredContent!.session as string;
        const { state } = await ok('step', { session, action: 'continue' });
        expect(state, hostile.name).toMatchObject({ event: 'exit' });
        expect(['exception', 'error'], hostile.name).toContain((state as { status: string }).status);
        await ok('end_session', { session });
      }
      expect(existsSync(join(watched, hostile.name)), hostile.name).toBe(false);
    }
    expect(readdirSync(watched)).toEqual([]);
    const next = (await ok('start_session', { code: CODE, call: 'g(2)' })).session as string;
    expect((await ok('step', { session: next, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'normal', value: '2' });
    await ok('end_session', { session: next });
  }, 300_000);

  it("gives each session an interpreter of its own: what one session's program leaves behind never reaches another's", async () => {
    // the attacker's run patches json.dumps: its own recording says it cannot be trusted
    const attacker = await call('start_session', { code: POISONING_PROGRAM });
    expect(attacker.isError).toBe(true);
    expect(attacker.content[0]!.text).toMatch(/cannot be trusted/);
    const victim = (await ok('start_session', { code: CODE, call: 'g(2)' })).session as string;
    const { state } = await ok('step', { session: victim, action: 'continue' });
    expect(state).toMatchObject({ event: 'exit', status: 'normal', value: '2', stdout: 'g 2\n' });
    await ok('end_session', { session: victim });
  }, 120_000);

  it('keeps at most 4 engine processes after 10 sessions started and ended one after another', async () => {
    for (let i = 0; i < 10; i++) {
      const id = (await ok('start_session', { code: CODE, call: `f([${i}])` })).session as string;
      await ok('step', { session: id, action: 'continue' });
      await ok('end_session', { session: id });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a released process ends after its last answer
    const left = engineProcesses(process.pid);
    expect(left.length).toBeGreaterThan(0); // the warm spare: a session still starts at once
    expect(left.length).toBeLessThanOrEqual(4);
  }, 300_000);

  it.runIf(engineCommand().boundary === 'bubblewrap')(
    'lets no program, condition, evaluate or edit that reached JavaScript create or reach a Unix socket',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ndb-mcp-os-'));
      const hostSocket = join(dir, 'host.sock');
      let reached = 0;
      const server = createServer((socket) => {
        reached++;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(hostSocket, resolve));
      const escape = (name: string) => `exec(${JSON.stringify(unixSocketProgram(join(dir, `${name}.sock`), hostSocket))}) or True`;
      try {
        // past Python's layer the recording is marked untrustworthy: start_session says so as an error
        const program = await call('start_session', { code: unixSocketProgram(join(dir, 'program.sock'), hostSocket) });
        if (!program.isError) await ok('end_session', { session: program.structuredContent!.session as string });
        const conditioned = await call('start_session', { code: CODE, call: 'g(2)', breakpoints: [{ line: 4, condition: escape('condition') }] });
        if (!conditioned.isError) await ok('end_session', { session: conditioned.structuredContent!.session as string });
        const id = (await ok('start_session', { code: CODE, call: 'g(2)', breakpoints: [4] })).session as string;
        await ok('step', { session: id, action: 'continue' });
        await call('evaluate', { session: id, expression: escape('evaluate') });
        await call('step', { session: id, action: `set:s=${escape('edit')}` });
        await ok('end_session', { session: id });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(readdirSync(dir)).toEqual(['host.sock']);
        expect(reached).toBe(0);
      } finally {
        server.close();
      }
    },
    300_000,
  );

  // Nine engine processes start here: on a loaded machine that takes minutes, not seconds. The
  // sessions end whatever happens, so that a failure here does not fill the next test's slots.
  it('bounds the number of sessions', async () => {
    const ids: string[] = [];
    try {
      for (let i = 0; i < 8; i++) ids.push((await ok('start_session', { code: CODE, call: 'f([1])' })).session as string);
      expect(await error('start_session', { code: CODE, call: 'f([1])' })).toMatch(/too many sessions \(8\)/);
      await ok('end_session', { session: ids.pop()! });
      ids.push((await ok('start_session', { code: CODE, call: 'f([1])' })).session as string);
    } finally {
      for (const id of ids) await ok('end_session', { session: id });
    }
  }, 240_000);

  it("puts the model's prediction beside the truth (predict, engine both, guess_inputs)", async () => {
    const real = (await ok('start_session', { code: CODE, call: 'f([1, 2])' })).session as string;
    const p = await ok('predict', { session: real, action: 'step_into' });
    expect(p.real).toMatchObject({ event: 'line', line: 2, locals: { xs: '[1, 2]' } });
    expect(p.predicted).toHaveProperty('event');
    expect(typeof p.match).toBe('boolean');
    expect(p.confidence).toBeGreaterThanOrEqual(0);
    expect(p.confidence).toBeLessThanOrEqual(1);
    expect(p.confidence_fields).toHaveProperty('position');
    // predict did not move the session.
    expect((await ok('step', { session: real, action: 'step_into' })).state).toMatchObject({ line: 2 });
    await ok('step', { session: real, action: 'step_return' });
    const guessed = await ok('guess_inputs', { session: real, k: 2 });
    const candidates = guessed.candidates as unknown[];
    // every draw is accounted for: a candidate, a repeat, or not a call that can run
    expect(guessed.drawn).toBe(2);
    expect(candidates.length + (guessed.duplicates as number) + (guessed.unusable as number)).toBe(2);
    for (const c of candidates as Array<Record<string, unknown>>) {
      expect(typeof c.call).toBe('string');
      expect(typeof c.verified).toBe('boolean');
    }

    const both = (await ok('start_session', { code: CODE, call: 'f([1, 2])', engine: 'both' })).session as string;
    const { state } = await ok('step', { session: both, action: 'step_into' });
    expect(state).toMatchObject({ real: { event: 'line', line: 2 }, neural: { event: expect.any(String) }, match: expect.any(Boolean) });
    for (const id of [real, both]) await ok('end_session', { session: id });
    expect(mcp.stderr.join('')).not.toMatch(/failed:|uncaught|unhandled/);
  });
});
