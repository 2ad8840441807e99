// `ndb mcp` driven by the MCP SDK's own client over stdio, started as the contract says
// (`npm run --silent ndb -- mcp`); every state is compared with the CLI's (`ndb debug --json`).

import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { REPO_ROOT } from '../realEngine/node';
import { hostilePrograms } from '../realEngine/testing/hostilePrograms';

const CODE = ['def f(xs):', '    s = 0', '    for x in xs:', '        s += x', '    return s', '', 'def g(n):', '    print("g", n)', '    return f(list(range(n))) * 2', ''].join('\n');

let client: Client;
const stderr: string[] = [];

beforeAll(async () => {
  const transport = new StdioClientTransport({ command: 'npm', args: ['run', '--silent', 'ndb', '--', 'mcp'], cwd: REPO_ROOT, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'ndb-test', version: '0.0.0' });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: string; text?: string }>;
}

/** A tool call; the structured result must be the text result too. */
async function call(name: string, args: Record<string, unknown>): Promise<Result> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Result;
  if (!result.isError) expect(JSON.parse(result.content[0]!.text!)).toEqual(result.structuredContent);
  return result;
}

async function ok(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await call(name, args);
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  return result.structuredContent!;
}

async function error(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  return result.content[0]!.text!;
}

async function cliStates(call: string, actions: string[], breakpoints: number[]): Promise<unknown[]> {
  const dir = mkdtempSync(join(tmpdir(), 'ndb-mcp-'));
  const file = join(dir, 'prog.py');
  writeFileSync(file, CODE);
  const lines: string[] = [];
  const argv = ['debug', file, '--call', call, '--actions', actions.join(','), '--json'];
  if (breakpoints.length) argv.push('--breakpoints', breakpoints.join(','));
  expect(await main(argv, (l) => lines.push(l))).toBe(0);
  return (JSON.parse(lines[0]!) as { states: unknown[] }).states;
}

describe('ndb mcp', () => {
  it('offers the six tools with their arguments', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {}).sort()]));
    expect(byName).toEqual({
      start_session: ['breakpoints', 'call', 'code', 'engine'],
      step: ['action', 'session'],
      predict: ['action', 'session'],
      guess_inputs: ['k', 'session'],
      trace: ['session'],
      end_session: ['session'],
    });
    for (const t of tools) expect(t.description?.length).toBeGreaterThan(20);
  });

  it('debugs forwards, backwards and with a what-if edit, every state as the CLI prints it', async () => {
    const actions = ['step_into', 'step_into', 'step_into', 'step_over', 'step_return', 'inv_step_call', 'breakpoint:4', 'set:s=100', 'step_over', 'inv_step_over', 'inv_step_into', 'step_return', 'continue', 'inv_step_into'];
    const expected = await cliStates('g(3)', actions, [5]);
    const started = await ok('start_session', { code: CODE, call: 'g(3)', breakpoints: [5] });
    expect(started.session).toMatch(/^s\d+$/);
    expect(started.state).toEqual(expected[0]);
    for (const [i, action] of actions.entries()) {
      const { state } = await ok('step', { session: started.session, action });
      expect(state, `${action} (action ${i + 1})`).toEqual(expected[i + 1]);
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
    expect(await error('step', { session: good, action: 'jump' })).toMatch(/unknown action 'jump'/);
    expect(await error('step', { session: good, action: 'set:zz=1' })).toMatch(/'zz' is not a local of f\(\)/);
    expect(await error('step', { session: good, action: 'set:xs=(' })).toMatch(/not a Python expression|SyntaxError|raised/);
    expect(await error('predict', { session: good, action: 'set:xs=1' })).toMatch(/predict takes a debugger action/);
    expect(await error('guess_inputs', { session: good })).toMatch(/works at a return/);
    expect(await error('guess_inputs', { session: good, k: 0 })).toMatch(/k/);
    expect(await error('no_such_tool', {})).toMatch(/no_such_tool/);
    // The good session is where it was.
    expect((await ok('step', { session: good, action: 'step_return' })).state).toMatchObject({ event: 'return', value: '3' });
    // An endless loop ends with its reason.
    const spin = (await ok('start_session', { code: 'def spin(n):\n    while True:\n        n += 1\n', call: 'spin(0)' })).session;
    expect((await ok('step', { session: spin, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'budget', message: expect.stringMatching(/10000 events/) });
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
  }, 120_000);

  it('bounds the number of sessions', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) ids.push((await ok('start_session', { code: CODE, call: 'f([1])' })).session as string);
    expect(await error('start_session', { code: CODE, call: 'f([1])' })).toMatch(/too many sessions \(8\)/);
    await ok('end_session', { session: ids.pop()! });
    ids.push((await ok('start_session', { code: CODE, call: 'f([1])' })).session as string);
    for (const id of ids) await ok('end_session', { session: id });
  });

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
    const { candidates } = await ok('guess_inputs', { session: real, k: 2 });
    expect((candidates as unknown[]).length).toBeGreaterThan(0);
    for (const c of candidates as Array<Record<string, unknown>>) {
      expect(typeof c.call).toBe('string');
      expect(typeof c.verified).toBe('boolean');
    }

    const both = (await ok('start_session', { code: CODE, call: 'f([1, 2])', engine: 'both' })).session as string;
    const { state } = await ok('step', { session: both, action: 'step_into' });
    expect(state).toMatchObject({ real: { event: 'line', line: 2 }, neural: { event: expect.any(String) }, match: expect.any(Boolean) });
    for (const id of [real, both]) await ok('end_session', { session: id });
    expect(stderr.join('')).not.toMatch(/failed:|uncaught|unhandled/);
  });
});
