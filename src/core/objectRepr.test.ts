import { describe, expect, it } from 'vitest';
import { isExpandable, parseRepr, reprChildren, splitTopLevel } from './objectRepr';

describe('splitTopLevel', () => {
  it('splits at commas outside brackets and strings', () => {
    expect(splitTopLevel("1, [2, 3], 'a, b', {'k': (4, 5)}, \"q\\\", r\"", ',').parts).toEqual([
      '1',
      '[2, 3]',
      "'a, b'",
      "{'k': (4, 5)}",
      '"q\\", r"',
    ]);
  });

  it('keeps <…> placeholders whole and says when a bracket is left open', () => {
    expect(splitTopLevel('<function f at x, y>, 2', ',').parts).toEqual(['<function f at x, y>', '2']);
    expect(splitTopLevel('f=<bound method A.g of <A, B>>, n=1', ',').parts).toEqual(['f=<bound method A.g of <A, B>>', 'n=1']);
    expect(splitTopLevel('[1, 2', ',').open).toBe(true);
    expect(splitTopLevel("'ab, c", ',').open).toBe(true);
  });
});

describe('parseRepr', () => {
  it('reads the attribute form of user objects, nested', () => {
    expect(parseRepr("Node(a=1, b=[1, 2], c=Other(x='s, t'))")).toEqual({
      kind: 'object',
      name: 'Node',
      fields: [
        { name: 'a', value: '1' },
        { name: 'b', value: '[1, 2]' },
        { name: 'c', value: "Other(x='s, t')" },
      ],
      truncated: false,
    });
    expect(parseRepr("Point(x=1, y=2)")).toMatchObject({ kind: 'object', name: 'Point' });
  });

  it('leaves reprs that are not the attribute form as atoms', () => {
    for (const text of ['Fraction(1, 3)', 'P()', 'Node(...)', 'f(1) + g(2)', "'x=1'", '42', '<function f>', 'None', 'set()', 'A(a==1)']) {
      expect(parseRepr(text)).toEqual({ kind: 'atom', text });
    }
  });

  it('reads lists, tuples, sets, frozensets and dicts', () => {
    expect(parseRepr('[1, [2, 3], "x"]')).toEqual({ kind: 'list', items: ['1', '[2, 3]', '"x"'], truncated: false });
    expect(parseRepr('(1,)')).toEqual({ kind: 'tuple', items: ['1'], truncated: false });
    expect(parseRepr('(1, 2)')).toEqual({ kind: 'tuple', items: ['1', '2'], truncated: false });
    expect(parseRepr('(1)')).toEqual({ kind: 'atom', text: '(1)' });
    expect(parseRepr('{1, 2}')).toEqual({ kind: 'set', items: ['1', '2'], truncated: false });
    expect(parseRepr("frozenset({'a'})")).toEqual({ kind: 'frozenset', items: ["'a'"], truncated: false });
    expect(parseRepr("{'a': [1, 2], (1, 2): {'b': 3}}")).toEqual({
      kind: 'dict',
      entries: [
        { key: "'a'", value: '[1, 2]' },
        { key: '(1, 2)', value: "{'b': 3}" },
      ],
      truncated: false,
    });
    expect(parseRepr('{}')).toEqual({ kind: 'dict', entries: [], truncated: false });
    expect(parseRepr("{'a:b': 1}")).toMatchObject({ kind: 'dict', entries: [{ key: "'a:b'", value: '1' }] });
  });

  it('reads what is left of a value cut at its length cap', () => {
    expect(parseRepr('[1, 2, 3…')).toEqual({ kind: 'list', items: ['1', '2', '3…'], truncated: true });
    expect(parseRepr("Node(a=1, b='abc…")).toEqual({
      kind: 'object',
      name: 'Node',
      fields: [
        { name: 'a', value: '1' },
        { name: 'b', value: "'abc…" },
      ],
      truncated: true,
    });
    expect(parseRepr("{'a': 1, 'b…")).toEqual({ kind: 'dict', entries: [{ key: "'a'", value: '1' }], truncated: true });
    // Without the mark an unclosed bracket is no repr of ours.
    expect(parseRepr('[1, 2')).toEqual({ kind: 'atom', text: '[1, 2' });
  });
});

describe('reprChildren', () => {
  it('gives labelled rows, or null for values without parts', () => {
    expect(reprChildren("P(x=1, ys=[2, 3])")).toEqual([
      { name: 'x', value: '1' },
      { name: 'ys', value: '[2, 3]' },
    ]);
    expect(reprChildren('[5, 6]')).toEqual([
      { name: '[0]', value: '5' },
      { name: '[1]', value: '6' },
    ]);
    expect(reprChildren("{'k': 1}")).toEqual([{ name: "'k'", value: '1' }]);
    expect(reprChildren('{7}')).toEqual([{ name: '{0}', value: '7' }]);
    expect(reprChildren('[]')).toBeNull();
    expect(reprChildren('3')).toBeNull();
    expect(isExpandable('[1]')).toBe(true);
    expect(isExpandable("'[1]'")).toBe(false);
  });

  it('marks cut values and long containers with a last … row', () => {
    expect(reprChildren('[1, 2…')).toEqual([
      { name: '[0]', value: '1' },
      { name: '[1]', value: '2…' },
      { name: '…', value: 'the value was cut at its length cap' },
    ]);
    expect(reprChildren('[1, 2, 3]', 2)).toEqual([
      { name: '[0]', value: '1' },
      { name: '[1]', value: '2' },
      { name: '…', value: 'more items' },
    ]);
  });
});
