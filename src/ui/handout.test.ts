// The printed handout holds the program with its lines numbered and the current one marked, the
// state at the stop (variables, return value or exception, globals, frames innermost first) and
// the output; a changed program marks no line (its lines no longer match the run).

import { describe, expect, it } from 'vitest';
import type { DebugState } from '../core/state';
import { handoutOf, type HandoutInput } from './handout';

const SOURCE = 'def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n\nprint(fact(3))\n';

function input(over: Partial<HandoutInput> = {}): HandoutInput {
  const state: DebugState = { event: 'line', line: 2, function: 'fact', depth: 2, locals: { n: '2' }, stdout: 'warming up\n' };
  return {
    source: SOURCE,
    title: 'Recursion',
    call: '',
    input: '',
    state,
    currentLine: { line: 2, kind: 'line' },
    stale: false,
    status: 'line 2 in fact',
    breakpoints: [4],
    stack: [
      { function: '<module>', file: '<string>', line: 6, frame: 1 },
      { function: 'fact', file: '<string>', line: 4, frame: 2 },
      { function: 'fact', file: '<string>', line: 2, frame: 3 },
    ],
    frameArgs: new Map([
      [2, 'n=3'],
      [3, 'n=2'],
    ]),
    globals: null,
    ...over,
  };
}

describe('the handout', () => {
  it('numbers every line of the program and marks the current line and the breakpoints', () => {
    const h = handoutOf(input());
    expect(h.lines.map((l) => l.number)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(h.lines[0]!.text).toBe('def fact(n):');
    expect(h.lines.filter((l) => l.current).map((l) => l.number)).toEqual([2]);
    expect(h.lines.filter((l) => l.breakpoint).map((l) => l.number)).toEqual([4]);
    expect(h.currentKind).toBe('line');
    expect(h.title).toBe('Recursion');
    expect(h.status).toBe('line 2 in fact');
  });

  it('holds the variables, the frames innermost first with their arguments, and the output', () => {
    const h = handoutOf(input());
    expect(h.variables).toEqual([{ name: 'n', value: '2' }]);
    expect(h.frames).toEqual([
      { title: 'fact(n=2)', line: 2 },
      { title: 'fact(n=3)', line: 4 },
      { title: '<module>', line: 6 },
    ]);
    expect(h.output).toBe('warming up\n');
    expect(h.special).toBeNull();
  });

  it('says what a return or an exception stop holds', () => {
    const ret = handoutOf(input({ state: { event: 'return', line: 3, function: 'fact', depth: 3, locals: { n: '1' }, value: '1', stdout: '' } }));
    expect(ret.special).toEqual({ label: 'Return value', value: '1' });
    const exc = handoutOf(
      input({ state: { event: 'exception', line: 3, function: 'fact', depth: 3, locals: {}, value: "ValueError('bad')", stdout: '' }, currentLine: { line: 3, kind: 'exception' } }),
    );
    expect(exc.special).toEqual({ label: 'Exception', value: 'ValueError: bad' });
    expect(exc.currentKind).toBe('exception');
  });

  it('at the end shows the output and no frames or variables; the entry shows no output', () => {
    const end = handoutOf(input({ state: { event: 'exit', status: 'normal', stdout: '6\n' }, currentLine: null, stack: [] }));
    expect(end.variables).toEqual([]);
    expect(end.frames).toEqual([]);
    expect(end.output).toBe('6\n');
    expect(end.lines.some((l) => l.current)).toBe(false);
    const entry = handoutOf(input({ state: { event: 'entry' }, currentLine: null, stack: [] }));
    expect(entry.output).toBe('');
  });

  it('marks no line when the program was changed after the run', () => {
    const h = handoutOf(input({ stale: true }));
    expect(h.lines.some((l) => l.current)).toBe(false);
    expect(h.currentKind).toBeNull();
  });

  it('lists the globals a function uses, and shows control characters as escapes', () => {
    const h = handoutOf(input({ globals: { counter: '1' }, state: { event: 'line', line: 2, function: 'fact', depth: 2, locals: { s: "'a\u202eb'" }, stdout: '' } }));
    expect(h.globals).toEqual([{ name: 'counter', value: '1' }]);
    expect(h.variables[0]!.value).not.toContain('\u202e');
  });
});
