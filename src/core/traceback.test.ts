import { describe, expect, it } from 'vitest';
import { tracebackOf } from './traceback';
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
});
