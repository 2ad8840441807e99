// A fresh program starts with a fresh state: breakpoints only on lines with code, and none of the
// old program's breakpoints, conditions or watches.

import { describe, expect, it } from 'vitest';
import { Program } from './program.svelte';

const EXAMPLES = [
  { id: 'a', title: 'A', call: 'f(1)', source: 'def f(n):\n    # a comment\n\n    return n\n' },
  { id: 'b', title: 'B', call: 'g()', source: 'def g():\n    return 2\n' },
];

describe('Program', () => {
  it('takes breakpoints only on lines with code', () => {
    const p = new Program(EXAMPLES);
    p.selectExample('a');
    expect(p.toggleBreakpoint(2)).toBeNull(); // a comment
    expect(p.toggleBreakpoint(3)).toBeNull(); // blank
    expect(p.toggleBreakpoint(9)).toBeNull(); // past the end
    expect(p.toggleBreakpoint(4)).toEqual([]);
    expect(p.breakpoints).toEqual([4]);
    expect(p.toggleBreakpoint(4)).toEqual([]);
    expect(p.breakpoints).toEqual([]);
  });

  it('forgets breakpoints, conditions and watches when another example is picked', () => {
    const p = new Program(EXAMPLES);
    p.selectExample('a');
    p.toggleBreakpoint(4);
    p.conditions = { 4: { condition: 'n > 1' } };
    p.watches = [{ expr: 'n * 2' }];
    p.selectExample('b');
    expect(p.breakpoints).toEqual([]);
    expect(p.conditions).toEqual({});
    expect(p.watches).toEqual([]);
  });
});
