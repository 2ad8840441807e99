// `pp`: a long repr laid out one item a line, as pprint would; a short one, or one it cannot
// read, as it is.

import { describe, expect, it } from 'vitest';
import { prettyRepr } from './prettyRepr';

describe('prettyRepr', () => {
  it('keeps what fits on one line', () => {
    expect(prettyRepr('[1, 2, 3]')).toBe('[1, 2, 3]');
    expect(prettyRepr("'a' * 100", 0, 5)).toBe("'a' * 100");
  });

  it('lays out lists, dicts, tuples and objects one item a line, nested ones too', () => {
    expect(prettyRepr('[1, 2, 3]', 0, 5)).toBe('[1,\n 2,\n 3]');
    expect(prettyRepr("{'a': [1, 2], 'b': 3}", 0, 11)).toBe("{'a': [1,\n       2],\n 'b': 3}");
    expect(prettyRepr('(1,)', 0, 2)).toBe('(1,)');
    expect(prettyRepr('Point(x=1, y=2)', 0, 8)).toBe('Point(x=1,\n      y=2)');
    expect(prettyRepr('frozenset({1, 2})', 0, 8)).toBe('frozenset({1,\n           2})');
  });

  it('leaves a repr cut at its cap as it is', () => {
    expect(prettyRepr('[1, 2, 3, …', 0, 5)).toBe('[1, 2, 3, …');
  });
});
