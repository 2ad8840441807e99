// `ndb debug --actions` moves as every other face does, whatever the engine (issue 47, "one
// road"): `--exceptions raised` stops a move where an exception is raised with the model on too,
// and the action aliases every face takes are understood here.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';

const dir = mkdtempSync(join(tmpdir(), 'ndb-one-road-'));
const program = join(dir, 'prog.py');
writeFileSync(program, 'def parse(s):\n    return int(s)\n\ntry:\n    parse("x")\nexcept ValueError:\n    pass\nprint("done")\n');

async function states(...argv: string[]): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const code = await main(['debug', program, ...argv, '--json'], (l) => lines.push(l));
  expect(code).toBe(0);
  return (JSON.parse(lines[0]!) as { states: Array<Record<string, unknown>> }).states;
}

/** The real state of a stop, in every engine's shape. */
function real(state: Record<string, unknown>): Record<string, unknown> {
  return (state.real as Record<string, unknown> | undefined) ?? state;
}

describe('ndb debug --actions, one road with the other faces', () => {
  it('stops where an exception is raised with --exceptions raised, with the model on or off', async () => {
    const raised = { event: 'exception', function: 'parse', line: 2, value: expect.stringMatching(/^ValueError/) };
    const [, first, second] = await states('--actions', 'continue,continue', '--exceptions', 'raised', '--engine', 'real');
    expect(first).toMatchObject(raised);
    expect(second).toMatchObject({ event: 'exit', status: 'normal' });
    for (const engine of ['both', 'neural']) {
      const [, stop, end] = await states('--actions', 'continue,continue', '--exceptions', 'raised', '--engine', engine);
      // an exception stop is no model action: the stop is the real one, given, not predicted
      expect(real(stop!), engine).toMatchObject(raised);
      expect(engine === 'both' ? stop!.neural : stop, engine).toMatchObject({ predicted: false, event: 'exception', line: 2 });
      // the next continue goes on from the real stop (no breakpoint: to the end)
      if (engine === 'both') expect(real(end!)).toMatchObject({ event: 'exit', status: 'normal' });
    }
    // without exception stops the same moves run to the end
    const [, plain] = await states('--actions', 'continue', '--engine', 'both');
    expect(real(plain!)).toMatchObject({ event: 'exit', status: 'normal' });
  }, 180_000);

  it('makes --batch requests the same way: --exceptions, the names of moves, reverse continue', async () => {
    const requests = join(dir, 'requests.jsonl');
    writeFileSync(requests, `${JSON.stringify({ id: 1, file: program, actions: ['c', 'next', 'rc'], breakpoints: [7] })}\n`);
    for (const engine of ['real', 'both']) {
      const lines: string[] = [];
      expect(await main(['debug', '--batch', requests, '--exceptions', 'raised', '--engine', engine, '--json'], (l) => lines.push(l))).toBe(0);
      const { id, states } = JSON.parse(lines[0]!) as { id: number; states: Array<Record<string, unknown>> };
      expect(id).toBe(1);
      // the exception stop; next from there is bdb's (its frame's return); rc: back to the start
      expect(states.slice(1).map((s) => [real(s).event, real(s).function, real(s).line]), engine).toEqual([
        ['exception', 'parse', 2],
        ['return', 'parse', 2],
        ['call', '<module>', real(states[0]!).line],
      ]);
    }
  }, 180_000);

  it('takes the names every face takes for a move, reverse continue with the model beside it too', async () => {
    const named = await states('--actions', 'c,next,back,step_out,reverse_continue', '--breakpoints', '7', '--engine', 'real');
    const canonical = await states('--actions', 'continue,step_over,inv_step_into,step_return,inv_continue', '--breakpoints', '7', '--engine', 'real');
    expect(named).toEqual(canonical);
    expect(canonical.slice(1).map((s) => [s.event, s.line])).toEqual([
      ['line', 7],
      ['line', 8],
      ['line', 7],
      ['return', 8],
      ['line', 7],
    ]);
    const both = await states('--actions', 'continue,step_over,rc', '--breakpoints', '7', '--engine', 'both');
    expect(both.slice(1).map((s) => [real(s).event, real(s).line])).toEqual([
      ['line', 7],
      ['line', 8],
      ['line', 7],
    ]);
  }, 180_000);
});
