// What the panels show of a recording at a position: the frames, the watch rows, the line a run
// failed at, a caller's frame, the highlighted line.

import { describe, expect, it } from 'vitest';
import { stateAt } from '../core/state';
import type { Recording, TraceEvent } from '../core/trace';
import { tracebackOf } from '../core/traceback';
import { currentLineOf, errorMarkerOf, framesShown, frameViewOf, watchRowsAt } from './debuggerViews';

const ev = (event: TraceEvent['event'], fn: string, line: number, depth: number, frame: number, locals: Record<string, string>, extra: Partial<TraceEvent> = {}): TraceEvent =>
  ({ event, function: fn, line, depth, frame, parent: depth - 1, code: 0, locals, out: 0, ...extra }) as TraceEvent;

// a(2) calls b(2), which raises at line 5
const rec = {
  source: 'def a(n):\n    return b(n) + 1\n\ndef b(n):\n    raise ValueError(n)\n',
  call: 'a(2)',
  codes: [],
  stdout: '',
  events: [
    ev('call', 'a', 1, 0, 1, { n: '2' }),
    ev('line', 'a', 2, 0, 1, { n: '2' }, { watch: [{ value: '4' }] } as Partial<TraceEvent>),
    ev('call', 'b', 4, 1, 2, { n: '2' }),
    ev('line', 'b', 5, 1, 2, { n: '2' }, { watch: [{ value: '4' }] } as Partial<TraceEvent>),
    ev('exception', 'b', 5, 1, 2, { n: '2' }),
    ev('return', 'b', 5, 1, 2, { n: '2' }, { raising: true }),
    ev('exception', 'a', 2, 0, 1, { n: '2' }),
    ev('return', 'a', 2, 0, 1, { n: '2' }, { raising: true }),
  ],
  exit: { status: 'exception', message: 'ValueError: 2', exc_type: 'ValueError' },
} as unknown as Recording;

describe('debugger views', () => {
  it('lists the frames at a stop, none after the end of a run that was not cut off', () => {
    expect(framesShown(rec, 3, null).map((f) => [f.function, f.line])).toEqual([
      ['a', 2],
      ['b', 5],
    ]);
    expect(framesShown(rec, rec.events.length, null)).toEqual([]);
  });

  it('marks the line an uncaught exception was raised at, and a syntax error where it is', () => {
    expect(errorMarkerOf(rec, tracebackOf(rec))).toEqual({ line: 5, column: 1, message: 'ValueError: 2', kind: 'exception' });
    // not before the debugger reaches the raise: the mark would tell how the run ends
    expect(errorMarkerOf(rec, tracebackOf(rec), 3)).toBeNull();
    expect(errorMarkerOf(rec, tracebackOf(rec), 4)).toMatchObject({ line: 5 });
    expect(errorMarkerOf(rec, tracebackOf(rec), 6)).toMatchObject({ line: 5 });
    const broken = { ...rec, events: [], exit: { status: 'syntax_error', line: 3, column: 7, message: 'invalid syntax' } } as unknown as Recording;
    expect(errorMarkerOf(broken, [])).toEqual({ line: 3, column: 7, message: 'invalid syntax', kind: 'syntax' });
    expect(errorMarkerOf({ ...rec, exit: { status: 'normal', value: '3' } } as Recording, [])).toBeNull();
  });

  it("shows a caller's frame at the line it called from, with its locals then; not the current frame", () => {
    const frames = framesShown(rec, 3, null);
    expect(frameViewOf(rec, 3, frames, 1)).toEqual({ frame: 1, function: 'a', line: 2, locals: { n: '2' } });
    expect(frameViewOf(rec, 3, frames, 2)).toBeNull();
    expect(frameViewOf(rec, 3, frames, null)).toBeNull();
  });

  it('gives each watch its recorded value, its error, or nothing where it has none', () => {
    const watches = [{ expr: 'n * 2' }, { expr: 'n +', error: 'invalid syntax' }, { expr: 'later' }];
    expect(watchRowsAt(rec, 3, watches, ['n * 2'])).toEqual([
      { expr: 'n * 2', real: { value: '4' } },
      { expr: 'n +', real: { error: 'invalid syntax' } },
      { expr: 'later', real: null },
    ]);
    expect(watchRowsAt(rec, -1, watches.slice(0, 1), ['n * 2'])).toEqual([{ expr: 'n * 2', real: null }]);
    // a name not defined yet at the module's start is no error there, only no value yet; later it is
    const start = ev('call', '<module>', 0, 0, 0, {}, { watch: [{ error: "NameError: name 'x' is not defined" }] } as Partial<TraceEvent>);
    const line = ev('line', '<module>', 1, 0, 0, {}, { watch: [{ error: "NameError: name 'x' is not defined" }] } as Partial<TraceEvent>);
    const mod = { ...rec, events: [start, line] } as Recording;
    expect(watchRowsAt(mod, 0, [{ expr: 'x' }], ['x'])).toEqual([{ expr: 'x', real: null }]);
    expect(watchRowsAt(mod, 1, [{ expr: 'x' }], ['x'])).toEqual([{ expr: 'x', real: { error: "NameError: name 'x' is not defined" } }]);
  });

  it('highlights the line of a stop by its kind', () => {
    expect(currentLineOf(stateAt(rec, 3))).toEqual({ line: 5, kind: 'line' });
    expect(currentLineOf(stateAt(rec, 4))).toEqual({ line: 5, kind: 'exception' });
    expect(currentLineOf(stateAt(rec, -1))).toBeNull();
  });
});
