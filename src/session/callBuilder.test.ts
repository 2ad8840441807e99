import { describe, expect, it } from 'vitest';
import { buildCall, parameters } from './callBuilder';

describe('parameters and buildCall', () => {
  it('reads the def line: positional, *args, keyword-only, **kwargs, defaults and annotations', () => {
    const source = 'def f(a, b: list[int] = [1, 2], *rest, key=None, **opts) -> int:\n    return a\n';
    expect(parameters(source, 1, [])).toEqual([
      { name: 'a', kind: 'positional' },
      { name: 'b', kind: 'positional' },
      { name: 'rest', kind: 'star' },
      { name: 'key', kind: 'keyword' },
      { name: 'opts', kind: 'starstar' },
    ]);
    const params = parameters(source, 1, []);
    expect(buildCall('f', params, { a: '1', b: '[3]', rest: '(4, 5)', key: "'k'", opts: '{}' })).toBe("f(1, [3], *(4, 5), key='k', **{})");
    expect(buildCall('f', params, { a: '1' })).toBeNull();
  });

  it('calls a method through its object, over lines', () => {
    const source = 'class Box:\n    def add(\n        self,\n        n,\n    ):\n        return n\n';
    const params = parameters(source, 2, []);
    expect(params.map((p) => p.name)).toEqual(['self', 'n']);
    expect(buildCall('add', params, { self: 'Box()', n: '3' })).toBe('(Box()).add(3)');
  });

  it('falls back to the names the call showed when there is no def to read', () => {
    expect(parameters('x = 1\n', 1, ['a', 'b'])).toEqual([
      { name: 'a', kind: 'positional' },
      { name: 'b', kind: 'positional' },
    ]);
  });
});
