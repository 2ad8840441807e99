// Issue 47, item 6 ("Smaller"), through `ndb mcp` and the MCP SDK's own client: the module's first
// state is at its first line of code, not line 0; at the end there is no frame (stack is empty and
// evaluate says the program has ended); trace's total counts what its filter matched; a method is
// named `Frozen.rate`; a breakpoint condition that raises (SystemExit included) stops, as pdb's
// does; and the tool list an agent reads at every listing stays small.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOVE_KINDS } from '../core/actions';
import { startMcp, type McpTestClient } from '../testing/mcpClient';
import {
  EXITING_CONDITION,
  FIRST_CODE_LINE,
  FIRST_CODE_TEXT,
  LOOP_LINE,
  PRINTED,
  RAISING_CONDITION,
  RATE_LINE,
  RATE_STACK,
  writeSmallerProject,
} from '../testing/smallerPrograms';

const project = writeSmallerProject();
let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp(['--root', project.folder]);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

type Json = Record<string, unknown>;

/** The tool list's JSON (tools/list), in characters: issue 47 measured 28.6 KB; under half of it. */
const TOOL_LIST_MOST = 14_000;
/** What a client puts before its model at every listing: names, descriptions and input schemas. */
const MODEL_FACING_MOST = 9_500;

describe('ndb mcp: the tool list', () => {
  it('is small, and still says every move, every argument and the shapes an agent reads', async () => {
    const listed = await mcp.client.listTools();
    expect(JSON.stringify(listed).length).toBeLessThan(TOOL_LIST_MOST);
    const facing = listed.tools.map((t) => JSON.stringify({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    expect(facing.join('').length).toBeLessThan(MODEL_FACING_MOST);
    const byName = new Map(listed.tools.map((t) => [t.name, t]));
    const argText = (tool: string, arg: string) => (byName.get(tool)!.inputSchema.properties as Record<string, { description?: string }>)[arg]!.description ?? '';
    for (const tool of ['step', 'predict']) for (const move of MOVE_KINDS) expect(argText(tool, 'action'), `${tool}: ${move}`).toContain(move);
    expect(argText('step', 'action')).toMatch(/breakpoint:LINE/);
    expect(argText('step', 'action')).toMatch(/set:NAME=EXPR/);
    for (const tool of ['start_session', 'set_breakpoints']) expect(argText(tool, 'breakpoints')).toMatch(/file.*line.*condition.*hit_count/);
    expect(byName.get('step')!.description).toMatch(/exit_code/);
    expect(byName.get('trace')!.description).toMatch(/total.*matched.*run_events/);
    // the moves are checked by the tool, with a message that lists them
    const { session } = (await mcp.ok('start_session', { code: 'x = 1\n' })) as { session: string };
    expect(await mcp.error('step', { session, action: 'jump_around' })).toMatch(/unknown action 'jump_around'.*step_into/);
    expect(await mcp.error('step', { session, action: 'set:1x=2' })).toMatch(/set:NAME=EXPR/);
    // pdb's `n` from the module's start: its first line
    expect((await mcp.ok('step', { session, action: 'n' })).state).toMatchObject({ event: 'line', line: 1 });
    await mcp.ok('end_session', { session });
  });
});

describe('ndb mcp: the smaller things of issue 47', () => {
  it("starts at the module's first line of code, names a method by its qualified name, and has no frame at the end", async () => {
    const started = await mcp.ok('start_session', { path: project.main });
    const session = started.session as string;
    expect(started.state).toMatchObject({ event: 'call', function: '<module>', line: FIRST_CODE_LINE, file: 'main.py' });
    const first = await mcp.ok('stack', { session });
    expect(first.frames).toEqual([expect.objectContaining({ function: '<module>', line: FIRST_CODE_LINE, source: FIRST_CODE_TEXT })]);
    // the recording itself keeps CPython's line 0 for the module's call event
    const raw = await mcp.ok('trace', { session, limit: 1 });
    expect((raw.events as Json[])[0]).toMatchObject({ event: 'call', function: '<module>', line: 0 });

    await mcp.ok('set_breakpoints', { session, breakpoints: [{ file: 'pricing.py', line: RATE_LINE }] });
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ event: 'line', function: 'Frozen.rate', file: 'pricing.py', line: RATE_LINE });
    const stack = await mcp.ok('stack', { session });
    expect((stack.frames as Json[]).map((f) => f.function)).toEqual(RATE_STACK);
    expect(await mcp.ok('evaluate', { session, expression: 'self.k * x' })).toMatchObject({ value: '3', frame: { function: 'Frozen.rate', line: RATE_LINE } });

    await mcp.ok('set_breakpoints', { session, breakpoints: [] });
    const end = await mcp.ok('step', { session, action: 'continue' });
    expect(end.state).toMatchObject({ event: 'exit', status: 'normal' });
    expect(await mcp.ok('stack', { session })).toEqual({ frames: [], total: 0 });
    expect(await mcp.error('evaluate', { session, expression: '1 + 1' })).toMatch(/the program has ended/);
    // one step back there is a frame again, and evaluate answers in it
    await mcp.ok('step', { session, action: 'inv_step_into' });
    expect(((await mcp.ok('stack', { session })).frames as Json[]).length).toBe(1);
    expect((await mcp.ok('evaluate', { session, expression: '1 + 1' })).value).toBe('2');
    await mcp.ok('end_session', { session });
  });

  it("counts in trace's total what its filter matched, the whole run apart, and pages through the matches", async () => {
    const { session } = (await mcp.ok('start_session', { path: project.main })) as { session: string };
    const all = await mcp.ok('trace', { session, limit: 2_000 });
    const events = all.events as Json[];
    expect(all.total).toBe(events.length);
    expect(all.run_events).toBe(events.length);
    const inRate = events.filter((e) => e.function === 'rate');
    expect(inRate.length).toBeGreaterThan(0);
    for (const name of ['rate', 'Frozen.rate']) {
      const filtered = await mcp.ok('trace', { session, function: name });
      expect(filtered.total).toBe(inRate.length);
      expect(filtered.run_events).toBe(events.length);
      expect((filtered.events as Json[]).map((e) => e.index)).toEqual(inRate.map((e) => e.index));
      expect(filtered.next).toBeUndefined();
      expect(filtered.truncated).toBe(false);
    }
    // a page of two: next is the index of the next match, total stays the number of matches
    const page = await mcp.ok('trace', { session, function: 'rate', limit: 2 });
    expect((page.events as Json[]).map((e) => e.index)).toEqual(inRate.slice(0, 2).map((e) => e.index));
    expect(page).toMatchObject({ total: inRate.length, next: inRate[2]!.index, truncated: true });
    const inPricing = events.filter((e) => e.file === 'pricing.py' && e.line === LOOP_LINE);
    expect((await mcp.ok('trace', { session, file: 'pricing.py', line: LOOP_LINE })).total).toBe(inPricing.length);
    expect((await mcp.ok('trace', { session, function: 'no_such_function' })).total).toBe(0);
    await mcp.ok('end_session', { session });
  });

  it.each([
    ['an ordinary exception', RAISING_CONDITION, /ZeroDivisionError/],
    ['SystemExit', EXITING_CONDITION, /SystemExit: 2/],
  ])('stops where a breakpoint condition raises %s, as pdb does, and goes on after it', async (_kind, condition, error) => {
    const started = await mcp.ok('start_session', { path: project.main, breakpoints: [{ file: 'pricing.py', line: LOOP_LINE, condition }] });
    const session = started.session as string;
    expect((started.breakpoints as Json[])[0]).toMatchObject({ file: 'pricing.py', line: LOOP_LINE, verified: true, condition_error: expect.stringMatching(error) });
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ event: 'line', file: 'pricing.py', line: LOOP_LINE, locals: { x: '6' }, condition_error: expect.stringMatching(error) });
    const next = (await mcp.ok('step', { session, action: 'continue' })).state as Json;
    if (condition === RAISING_CONDITION) {
      // x = 9: the condition holds
      expect(next).toMatchObject({ event: 'line', line: LOOP_LINE, locals: { x: '9' } });
      expect(next.condition_error).toBeUndefined();
      expect(((await mcp.ok('step', { session, action: 'continue' })).state as Json).event).toBe('exit');
    } else {
      // the condition's SystemExit is not the program's: it runs to its end and prints its total
      expect(next).toMatchObject({ event: 'exit', status: 'normal' });
      expect(next.exit_code).toBeUndefined();
      expect((await mcp.ok('output', { session, at_end: true })).text).toBe(PRINTED);
    }
    await mcp.ok('end_session', { session });
  });
});
