// The call stack and the traceback read from a recording.
import { describe, expect, it } from 'vitest';
import { frameEvents, stateAt, tracebackOf } from './state';
import type { Recording, TraceEvent } from './trace';

const ev = (event: TraceEvent['event'], fn: string, line: number, depth: number, frame: number, extra: Partial<TraceEvent> = {}): TraceEvent =>
  ({ event, function: fn, line, depth, frame, parent: depth - 1, code: 0, locals: { n: String(depth) }, out: 0, ...extra }) as TraceEvent;

const rec = {
  source: 'def a(n):\n    return b(n) + 1\n\ndef b(n):\n    return c(n) * 2\n\ndef c(n):\n    raise ValueError(n)\n',
  call: 'a(4)',
  codes: [],
  stdout: '',
  events: [
    ev('call', 'a', 1, 0, 1),
    ev('line', 'a', 2, 0, 1),
    ev('call', 'b', 4, 1, 2),
    ev('line', 'b', 5, 1, 2),
    ev('call', 'c', 7, 2, 3),
    ev('line', 'c', 8, 2, 3),
    ev('exception', 'c', 8, 2, 3),
    ev('return', 'c', 8, 2, 3, { raising: true }),
    ev('exception', 'b', 5, 1, 2),
    ev('return', 'b', 5, 1, 2, { raising: true }),
    ev('exception', 'a', 2, 0, 1),
    ev('return', 'a', 2, 0, 1, { raising: true }),
  ],
  exit: { status: 'exception', message: 'ValueError: bad 4' },
} as unknown as Recording;

describe('frames and tracebacks', () => {
  it('lists the frames at a stop innermost first, each at its latest event', () => {
    expect(frameEvents(rec, 5)).toEqual([
      { function: 'c', file: 'main.py', line: 8, depth: 2, event: 5 },
      { function: 'b', file: 'main.py', line: 5, depth: 1, event: 3 },
      { function: 'a', file: 'main.py', line: 2, depth: 0, event: 1 },
    ]);
    expect(frameEvents(rec, -1)).toEqual([]);
  });

  it('gives an uncaught exception its traceback, outermost first, at the exit', () => {
    const expected = [
      { function: 'a', file: 'main.py', line: 2, source: 'return b(n) + 1' },
      { function: 'b', file: 'main.py', line: 5, source: 'return c(n) * 2' },
      { function: 'c', file: 'main.py', line: 8, source: 'raise ValueError(n)' },
    ];
    expect(tracebackOf(rec)).toEqual(expected);
    expect(stateAt(rec, rec.events.length)).toMatchObject({ event: 'exit', status: 'exception', traceback: expected });
    expect(tracebackOf({ ...rec, exit: { status: 'normal' } } as Recording)).toEqual([]);
  });
});
