import { describe, expect, it } from 'vitest';
import { tracebackOf, unrecordedRaise } from './traceback';
import type { Recording, TraceEvent } from './trace';

function ev(event: TraceEvent['event'], fn: string, line: number, depth: number, frame: number, parent: number, extra: Partial<TraceEvent> = {}): TraceEvent {
  return { event, function: fn, line, depth, frame, parent, code: 0, locals: {}, out: 0, ...extra };
}

function rec(events: TraceEvent[], status: Recording['exit']['status'] = 'exception'): Recording {
  return { source: '', call: 'outer()', events, codes: [], stdout: '', exit: { status, message: 'ZeroDivisionError: division by zero' } };
}

describe('tracebackOf', () => {
  it('lists the frames an uncaught exception left, outermost first', () => {
    const r = rec([
      ev('call', 'outer', 1, 0, 0, -1),
      ev('line', 'outer', 2, 0, 0, -1),
      ev('call', 'inner', 5, 1, 1, 0),
      ev('line', 'inner', 6, 1, 1, 0),
      ev('exception', 'inner', 6, 1, 1, 0, { value: 'ZeroDivisionError' }),
      ev('return', 'inner', 6, 1, 1, 0, { raising: true }),
      ev('exception', 'outer', 2, 0, 0, -1),
      ev('return', 'outer', 2, 0, 0, -1, { raising: true }),
    ]);
    expect(tracebackOf(r)).toEqual([
      { function: 'outer', line: 2, file: 0, position: 6 },
      { function: 'inner', line: 6, file: 0, position: 4 },
    ]);
  });

  it('skips an exception that was caught earlier in another call', () => {
    const r = rec([
      ev('call', 'outer', 1, 0, 0, -1),
      ev('call', 'safe', 9, 1, 1, 0),
      ev('exception', 'safe', 10, 1, 1, 0),
      ev('line', 'safe', 11, 1, 1, 0),
      ev('return', 'safe', 12, 1, 1, 0),
      ev('line', 'outer', 3, 0, 0, -1),
      ev('exception', 'outer', 3, 0, 0, -1),
      ev('return', 'outer', 3, 0, 0, -1, { raising: true }),
    ]);
    expect(tracebackOf(r)).toEqual([{ function: 'outer', line: 3, file: 0, position: 6 }]);
  });

  it('is empty for a run that did not end with an exception', () => {
    expect(tracebackOf(rec([ev('call', 'f', 1, 0, 0, -1)], 'normal'))).toEqual([]);
  });

  it('reads a RecursionError that stopped the tracer from the stack at the last event, raised there', () => {
    const events = [
      ev('call', '<module>', 0, 0, 0, -1),
      ev('line', '<module>', 4, 0, 0, -1),
      ev('call', 'fact', 1, 1, 1, 0),
      ev('line', 'fact', 2, 1, 1, 0),
      ev('call', 'fact', 1, 2, 2, 1),
      ev('line', 'fact', 2, 2, 2, 1),
    ];
    const r: Recording = { ...rec(events), exit: { status: 'exception', exc_type: 'RecursionError', message: 'RecursionError: maximum recursion depth exceeded' } };
    expect(tracebackOf(r)).toEqual([
      { function: '<module>', line: 4, file: 0, position: 1 },
      { function: 'fact', line: 2, file: 0, position: 3 },
      { function: 'fact', line: 2, file: 0, position: 5 },
    ]);
    expect(unrecordedRaise(r)).toBe(5);
    // another exception, or a RecursionError whose raise was recorded, is read as before
    expect(unrecordedRaise({ ...r, exit: { status: 'exception', exc_type: 'ValueError' } })).toBeNull();
    expect(tracebackOf({ ...r, exit: { status: 'exception', exc_type: 'ValueError' } })).toEqual([]);
    const recorded = [...events, ev('exception', 'fact', 2, 2, 2, 1), ev('return', 'fact', 2, 2, 2, 1, { raising: true }), ev('exception', 'fact', 2, 1, 1, 0), ev('return', 'fact', 2, 1, 1, 0, { raising: true }), ev('exception', '<module>', 4, 0, 0, -1)];
    expect(unrecordedRaise({ ...r, events: recorded })).toBeNull();
    expect(tracebackOf({ ...r, events: recorded }).at(-1)).toEqual({ function: 'fact', line: 2, file: 0, position: 6 });
  });
});
