// Issue 47, item 1, through `ndb mcp`: a program that ends through sys.exit() ends normally with
// its exit code (no traceback, no exception stop), an object of a class from the program's other
// module is shown by its attributes, and `evaluate` runs its expression once, at the stop.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpTestClient } from '../testing/mcpClient';
import {
  COUNT_STOP_LINE,
  COUNTING_EXPRESSION,
  EXIT_PROGRAMS,
  OBJECT_STOP_LINE,
  ORDER_SHOWN,
  writeEndPrograms,
  type ExitProgram,
} from '../testing/endPrograms';

const programs = writeEndPrograms();
let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp(['--root', programs.root]);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

describe('ndb mcp: a program that ends through sys.exit()', () => {
  const cases: Array<[ExitProgram, 'none' | 'uncaught' | 'raised']> = [
    ['exit0', 'uncaught'],
    ['exit3', 'raised'],
    ['exitMain', 'uncaught'],
    ['exitMessage', 'none'],
  ];
  it.each(cases)('%s ends with status normal and its exit_code (exceptions %s: no exception stop)', async (name, exceptions) => {
    const started = await mcp.ok('start_session', { path: programs.exits[name], exceptions });
    const session = started.session as string;
    const next = await mcp.ok('step', { session, action: 'continue' });
    expect(next.reason).toBeUndefined();
    const state = next.state as Record<string, unknown>;
    expect(state).toMatchObject({ event: 'exit', status: 'normal', exit_code: EXIT_PROGRAMS[name].code });
    expect(state.traceback).toBeUndefined();
    expect(state.message).toBeUndefined();
    if (name === 'exitMessage') expect(state.stderr).toBe('bad input\n');
    else expect(state.stderr).toBeUndefined();
    await mcp.ok('end_session', { session });
  });
});

describe('ndb mcp: objects of a class in the program\'s other module', () => {
  it('shows them by their attributes, in the stop\'s locals and in evaluate; a standard library object stays as Python writes it', async () => {
    const started = await mcp.ok('start_session', { path: programs.objects, breakpoints: [OBJECT_STOP_LINE] });
    const session = started.session as string;
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ event: 'line', line: OBJECT_STOP_LINE, function: 'total', locals: { order: ORDER_SHOWN } });
    expect((await mcp.ok('evaluate', { session, expression: 'order' })).value).toBe(ORDER_SHOWN);
    expect((await mcp.ok('evaluate', { session, expression: '[order]' })).value).toBe(`[${ORDER_SHOWN}]`);
    const { state: end } = await mcp.ok('step', { session, action: 'step_return' });
    expect(end).toMatchObject({ event: 'return', value: '7' });
    const { state: module } = await mcp.ok('step', { session, action: 'step_into' });
    expect(module).toMatchObject({ function: '<module>', locals: { o: ORDER_SHOWN, t: '<string.Template object>' } });
    await mcp.ok('end_session', { session });
  });
});

describe('ndb mcp: evaluate', () => {
  it('runs the expression once, at the stop, and what it changed is gone after', async () => {
    const started = await mcp.ok('start_session', { path: programs.count, breakpoints: [COUNT_STOP_LINE] });
    const session = started.session as string;
    let state: unknown;
    for (let i = 0; i < 3; i++) ({ state } = await mcp.ok('step', { session, action: 'continue' }));
    expect(state).toMatchObject({ line: COUNT_STOP_LINE, locals: { i: '2' } });
    // once: one append to the program's empty list (at every event it would be many)
    expect(await mcp.ok('evaluate', { session, expression: COUNTING_EXPRESSION })).toEqual({ value: '1', frame: { function: 'fill', file: 'count.py', line: COUNT_STOP_LINE } });
    // a second evaluate runs the program again: the first one's append is not in it
    expect((await mcp.ok('evaluate', { session, expression: 'len(hits)' })).value).toBe('0');
    // a caller's frame as it is at this stop: fill has appended 0 and 1 to main's list so far
    expect(await mcp.ok('evaluate', { session, expression: 'got', frame: 1 })).toEqual({ value: '[0, 1]', frame: { function: 'main', file: 'count.py', line: 14 } });
    expect((await mcp.ok('evaluate', { session, expression: `${COUNTING_EXPRESSION} + len(got) * 10`, frame: 1 })).value).toBe('21');
    await mcp.ok('end_session', { session });
  });
});
