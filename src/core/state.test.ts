// The call stack and the traceback read from a recording.
import { describe, expect, it } from 'vitest';
import { frameEvents, qualnameOf, shownLine, shownState, stateAt, tracebackOf } from './state';
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

describe('what a face shows of a stop (issue 47, item 6)', () => {
  // a module whose first line of code is 3 (a comment and a blank line before it), a method
  const methods = {
    source: '# prices\n\nclass Frozen:\n    def rate(self, x):\n        return x * 2\n\nFrozen().rate(4)\n',
    call: '',
    codes: [
      { name: '<module>', firstline: 1, lines: [3, 7], generator: false },
      { name: 'Frozen', firstline: 3, lines: [3, 4], generator: false },
      { name: 'rate', qualname: 'Frozen.rate', firstline: 4, lines: [4, 5], generator: false },
    ],
    stdout: '',
    events: [
      ev('call', '<module>', 0, 0, 1),
      ev('line', '<module>', 3, 0, 1),
      ev('line', '<module>', 7, 0, 1),
      ev('call', 'rate', 4, 1, 2, { code: 2 }),
      ev('line', 'rate', 5, 1, 2, { code: 2 }),
      ev('return', 'rate', 5, 1, 2, { code: 2, value: '8' }),
      ev('return', '<module>', 7, 0, 1, { value: 'None' }),
    ],
    exit: { status: 'normal' },
  } as unknown as Recording;

  it("shows the module's start at its first line of code, where the recording (and the model's format) keep line 0", () => {
    expect(methods.events[0]!.line).toBe(0);
    expect(shownLine(methods, methods.events[0]!)).toBe(3);
    expect(frameEvents(methods, 0)).toEqual([{ function: '<module>', file: 'main.py', line: 3, depth: 0, event: 0 }]);
    // the state the model is compared with keeps the recording's line; the faces' state does not
    expect(stateAt(methods, 0)).toMatchObject({ event: 'call', line: 0 });
    expect(shownState(methods, 0, stateAt(methods, 0))).toMatchObject({ event: 'call', line: 3, function: '<module>' });
    // any other event is at its own line
    expect(methods.events.slice(1).map((e) => shownLine(methods, e))).toEqual(methods.events.slice(1).map((e) => e.line));
  });

  it('names a method by its qualified name in the stack and the shown state, the events keeping the code name', () => {
    expect(frameEvents(methods, 4).map((f) => f.function)).toEqual(['Frozen.rate', '<module>']);
    expect(stateAt(methods, 4)).toMatchObject({ function: 'rate', line: 5 });
    expect(shownState(methods, 4, stateAt(methods, 4))).toMatchObject({ function: 'Frozen.rate', line: 5 });
    expect(qualnameOf(methods, methods.events[1]!)).toBe('<module>');
    // a recording without qualnames (an older one, or Python before 3.11) names it as the event does
    const old = { ...methods, codes: methods.codes.map(({ qualname: _q, ...c }) => c) } as Recording;
    expect(frameEvents(old, 4).map((f) => f.function)).toEqual(['rate', '<module>']);
  });

  it('has no frames once the program has ended, nor before it starts', () => {
    const n = methods.events.length;
    expect(frameEvents(methods, n - 1)).toHaveLength(1);
    expect(frameEvents(methods, n)).toEqual([]);
    expect(frameEvents(methods, n + 5)).toEqual([]);
    expect(frameEvents(methods, -1)).toEqual([]);
    expect(shownState(methods, n, stateAt(methods, n))).toEqual(stateAt(methods, n));
  });
});
