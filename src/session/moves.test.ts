// Every face's moves and why each stopped (session/moves.ts through LiveSession): a step that ends
// on a breakpoint only because of it is a breakpoint stop, reverse continue finds one or the
// start, an exception stop comes first, a frame's call is a restart, pdb's until stops where bdb's
// does; asking moves nothing.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { LiveSession } from './liveSession';
import { followedAction, type SessionMove } from './moves';

const SOURCE = [
  'def f(n):',
  '    s = 0',
  '    for i in range(n):',
  '        s += i',
  '    return s',
  '',
  'def g():',
  '    try:',
  '        int("x")',
  '    except ValueError:',
  '        pass',
  '    return f(3)',
  '',
  'print(g())',
  '',
].join('\n');

let host: PythonHost;

beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

/** Where each move stopped, its line and function, and why. */
async function moves(live: LiveSession, list: SessionMove[]): Promise<Array<[string, number, string, string]>> {
  const out: Array<[string, number, string, string]> = [];
  for (const move of list) {
    const before = live.position;
    const asked = live.whereWould(move);
    // asking moves nothing, and answers what the move then does
    expect(live.position).toBe(before);
    const stop = await live.move(move);
    expect(asked).toMatchObject({ position: live.position, reason: stop.reason, breakpointHit: stop.breakpointHit });
    const s = live.state;
    out.push([s.event === 'entry' || s.event === 'exit' ? s.event : s.function, s.event === 'entry' || s.event === 'exit' ? 0 : s.line, s.event, stop.reason]);
  }
  return out;
}

describe('moves and their reasons', () => {
  it('tells a breakpoint stop from a step that ends on a breakpoint line', async () => {
    const live = await LiveSession.start(host, SOURCE, '', { engine: 'real', breakpoints: [4] });
    expect(await moves(live, [{ kind: 'continue' }, { kind: 'step_over' }, { kind: 'step_over' }, { kind: 'step_return' }])).toEqual([
      ['f', 4, 'line', 'breakpoint'],
      ['f', 3, 'line', 'step'],
      // step_over stops at line 4 anyway: a step, not a breakpoint stop
      ['f', 4, 'line', 'step'],
      // step_return would have gone to the return: the breakpoint stopped it
      ['f', 4, 'line', 'breakpoint'],
    ]);
    const hits = live.position;
    expect(await moves(live, [{ kind: 'inv_continue' }, { kind: 'inv_continue' }, { kind: 'inv_continue' }, { kind: 'inv_continue' }])).toEqual([
      ['f', 4, 'line', 'breakpoint'],
      ['f', 4, 'line', 'breakpoint'],
      ['<module>', expect.any(Number) as unknown as number, 'call', 'entry'],
      ['<module>', expect.any(Number) as unknown as number, 'call', 'entry'],
    ]);
    expect(live.position).toBe(0);
    expect(live.canDo({ kind: 'inv_continue' })).toBe(false);
    await live.jump(hits);
    expect(live.canDo({ kind: 'inv_continue' })).toBe(true);
  });

  it('stops first where an exception is raised, and says so', async () => {
    const live = await LiveSession.start(host, SOURCE, '', { engine: 'real', breakpoints: [4], exceptions: 'raised' });
    const stop = await live.move({ kind: 'continue' });
    expect(stop).toEqual({ reason: 'exception', breakpointHit: false, byException: true });
    expect(live.state).toMatchObject({ event: 'exception', function: 'g', line: 9 });
    expect(live.atExceptionStop).toBe(true);
    expect((await live.move({ kind: 'continue' })).reason).toBe('breakpoint');
    // a step back onto the raise is at an exception stop too, though no exception stopped it
    await live.jump(0);
    await live.move({ kind: 'continue' });
    await live.move({ kind: 'step_into' });
    const back = await live.move({ kind: 'inv_step_into' });
    expect(back).toEqual({ reason: 'exception', breakpointHit: false, byException: false });
    live.setExceptions('none');
    await live.jump(0);
    expect((await live.move({ kind: 'continue' })).reason).toBe('breakpoint');
  });

  it('goes back to the call of this frame or an outer one: a restart', async () => {
    const live = await LiveSession.start(host, SOURCE, '', { engine: 'real', breakpoints: [4] });
    await live.move({ kind: 'continue' });
    const inF = live.position;
    const gEvent = live.recording.events.findIndex((e, j) => j < inF && e.event === 'line' && e.line === 12);
    expect(await moves(live, [{ kind: 'inv_step_call' }])).toEqual([['f', 1, 'call', 'restart']]);
    expect(live.state).toMatchObject({ locals: { n: '3' } });
    await live.jump(inF);
    expect(await moves(live, [{ kind: 'call_of', event: gEvent }])).toEqual([['g', 7, 'call', 'restart']]);
  });

  it("until: past the loop, stopped first by a breakpoint in it; to a line; at a return, into the caller", async () => {
    const live = await LiveSession.start(host, SOURCE, '', { engine: 'real', breakpoints: [4] });
    await live.move({ kind: 'continue' });
    expect(live.state).toMatchObject({ function: 'f', line: 4, locals: { i: '0' } });
    // the loop's last line: until waits for a line past it, the breakpoint in the loop stops it first
    expect(await moves(live, [{ kind: 'until' }])).toEqual([['f', 4, 'line', 'breakpoint']]);
    expect(live.state).toMatchObject({ locals: { i: '1' } });
    expect(live.whereWould({ kind: 'until' }).breakpointHit).toBe(true);
    live.setBreakLines([]);
    // no model action goes there (step_over stops at line 3)
    expect(followedAction(live.real, { kind: 'until' })).toBeNull();
    expect(await moves(live, [{ kind: 'until' }, { kind: 'until' }])).toEqual([
      ['f', 5, 'line', 'step'],
      ['f', 5, 'return', 'step'],
    ]);
    expect(live.state).toMatchObject({ event: 'return', value: '3' });
    // at a return it is step_over, into the caller (the model follows it as step_over)
    expect(followedAction(live.real, { kind: 'until' })).toEqual({ kind: 'step_over' });
    const over = live.whereWould({ kind: 'step_over' }).position;
    expect(await moves(live, [{ kind: 'until', target: 99 }])).toEqual([['g', 12, 'return', 'step']]);
    expect(live.position).toBe(over);

    const again = await LiveSession.start(host, SOURCE, '', { engine: 'real', breakpoints: [2] });
    await again.move({ kind: 'continue' });
    // the next line is where step_over goes too
    expect(followedAction(again.real, { kind: 'until' })).toEqual({ kind: 'step_over' });
    expect(await moves(again, [{ kind: 'until', target: 5 }])).toEqual([['f', 5, 'line', 'step']]);
    expect(again.state).toMatchObject({ locals: { s: '3' } });
  });

  it('until stops first where an exception is raised in a call, as next does with exceptions raised', async () => {
    const live = await LiveSession.start(host, SOURCE, '', { engine: 'real', exceptions: 'raised' });
    await live.move({ kind: 'step_into' });
    expect(await moves(live, [{ kind: 'until', target: 14 }])).toEqual([['<module>', 14, 'line', 'step']]);
    // without exception stops it goes on to the module's return
    const plain = live.whereWould({ kind: 'until' }, [], 'none');
    expect(plain).toMatchObject({ reason: 'step', byException: false });
    expect(plain.recording.events[plain.position]).toMatchObject({ event: 'return', function: '<module>' });
    // next from here stops at the same raise
    const next = live.whereWould({ kind: 'step_over' });
    const stop = await live.move({ kind: 'until' });
    expect(stop).toEqual({ reason: 'exception', breakpointHit: false, byException: true });
    expect(live.state).toMatchObject({ event: 'exception', function: 'g', line: 9 });
    expect(live.position).toBe(next.position);
    expect(live.atExceptionStop).toBe(true);
  });
});
