// What every face says of a recording a limit cut (issue 47): "may not terminate" only where a
// state came back (same frame, line, locals and output), else where the cut is and the face's own
// option that raises the limit.

import { describe, expect, it } from 'vitest';
import type { Recording, TraceEvent } from './trace';
import { cutOffNotice, cutOffOf, type LimitOptions } from './cutOff';
import { DEFAULT_LIMITS, SERVER_LIMIT_CEILING } from './limits';

const OPTIONS: LimitOptions = { maxEvents: 'OPT_EVENTS', timeLimit: 'OPT_TIME', ceiling: SERVER_LIMIT_CEILING };

function ev(line: number, locals: Record<string, string>, more: Partial<TraceEvent> = {}): TraceEvent {
  return { event: 'line', line, function: 'f', depth: 0, frame: 0, parent: -1, code: 0, locals, out: 0, ...more };
}

function recording(events: TraceEvent[], status: 'budget' | 'timeout' | 'normal', message?: string): Recording {
  return { source: '', call: '', events, codes: [], stdout: '', exit: { status, ...(message ? { message } : {}) } } as Recording;
}

/** `while i < 20000: i += 1` cut at `n` events: every state is new. */
function counting(n: number): TraceEvent[] {
  return Array.from({ length: n }, (_, k) => ev(2 + (k % 2), { i: String(Math.floor(k / 2)) }));
}

/** `while x > 0: pass`: lines 3 and 4 come back with the same locals. */
function spinning(n: number): TraceEvent[] {
  return Array.from({ length: n }, (_, k) => ev(3 + (k % 2), { x: '1' }));
}

describe('cutOffNotice', () => {
  it('is null for a program that ran to its end', () => {
    expect(cutOffNotice(recording(counting(10), 'normal'), DEFAULT_LIMITS, OPTIONS)).toBeNull();
  });

  it('says a finite loop cut by the event budget was cut, and how to raise it, never that it may not terminate', () => {
    const text = cutOffNotice(recording(counting(10_000), 'budget'), DEFAULT_LIMITS, OPTIONS)!;
    expect(text).toContain('cut at 10,000 events (the event budget)');
    expect(text).toContain('at event 10,000 in f, line 3');
    expect(text).toContain('raise OPT_EVENTS (up to 1,000,000 events)');
    expect(text).not.toMatch(/terminate|loop/);
  });

  it('says "may not terminate" where the same state came back, and names the line', () => {
    const text = cutOffNotice(recording(spinning(10_000), 'budget'), DEFAULT_LIMITS, OPTIONS)!;
    expect(text).toContain('may not terminate');
    expect(text).toMatch(/Line [34] came back in the same frame with the same locals/);
    expect(text).not.toContain('OPT_EVENTS');
  });

  it('does not call a repeated line with new output a repeated state', () => {
    const printing = spinning(1_000).map((e, k) => ({ ...e, out: k }));
    expect(cutOffOf(recording(printing, 'budget'))!.loopLine).toBeNull();
    expect(cutOffNotice(recording(printing, 'budget'), { maxEvents: 1_000, timeLimit: 8 }, OPTIONS)).not.toContain('terminate');
  });

  it('does not call the same line in another frame a repeated state', () => {
    const frames = spinning(1_000).map((e, k) => ({ ...e, frame: Math.floor(k / 2) }));
    expect(cutOffOf(recording(frames, 'budget'))!.loopLine).toBeNull();
  });

  it('says a run cut by the time limit names the time option and its ceiling', () => {
    const text = cutOffNotice(recording(counting(40), 'timeout', 'Stopped after 8 s (the time limit)'), DEFAULT_LIMITS, OPTIONS)!;
    expect(text).toContain('cut at 8 s (the time limit), at event 40');
    expect(text).toContain('raise OPT_TIME (up to 45 s)');
    expect(text).not.toContain('OPT_EVENTS');
  });

  it('says a limit at its ceiling cannot be raised', () => {
    const text = cutOffNotice(recording(counting(100), 'budget'), { maxEvents: SERVER_LIMIT_CEILING.maxEvents, timeLimit: 8 }, OPTIONS)!;
    expect(text).toContain('OPT_EVENTS is at its ceiling (1,000,000 events)');
    expect(text).not.toContain('To record more');
  });

  it('names a deep recursion', () => {
    const deep = Array.from({ length: 300 }, (_, k) => ev(2, { n: String(k) }, { event: k % 2 ? 'line' : 'call', depth: Math.floor(k / 2), frame: Math.floor(k / 2) }));
    const text = cutOffNotice(recording(deep, 'budget'), { maxEvents: 300, timeLimit: 8 }, OPTIONS)!;
    expect(text).toContain('The calls were 150 deep');
  });

  it('says a run the user stopped was stopped as asked', () => {
    expect(cutOffNotice(recording(counting(5), 'timeout', 'Stopped as you asked'), DEFAULT_LIMITS, OPTIONS)).toBe('The recording was stopped as you asked, at event 5 in f, line 2.');
  });
});
