import { describe, expect, it } from 'vitest';
import { heapLayout, HEAP_ROW_PX, objectKind } from './heapLayout';

describe('the heap view', () => {
  it('draws one arrow per name and two into an object two names share', () => {
    const layout = heapLayout({
      refs: [
        { name: 'a', global: false, object: 1 },
        { name: 'b', global: false, object: 1 },
        { name: 'c', global: false, object: 2 },
      ],
      objects: [
        { id: 1, value: '[1, 2, 3]', names: [{ name: 'a', global: false }, { name: 'b', global: false }] },
        { id: 2, value: '[1, 2, 3]', names: [{ name: 'c', global: false }] },
      ],
    });
    expect(layout.rows).toBe(3);
    expect(layout.arrows.map((a) => [a.from, a.to])).toEqual([
      [0, 0],
      [1, 0],
      [2, 2],
    ]);
    // each object on the row of its first name: c's box beside c, no box beside b
    expect(layout.slots.map((o) => o?.id ?? null)).toEqual([1, null, 2]);
    // b's arrow starts on its own row and ends on the row of a's object
    expect(layout.arrows[1]!.d.startsWith(`M 2 ${1.5 * HEAP_ROW_PX} `)).toBe(true);
    expect(layout.arrows[1]!.d.endsWith(` ${0.5 * HEAP_ROW_PX}`)).toBe(true);
  });

  it('names the kind of object from its repr', () => {
    expect(objectKind('[1, 2]')).toBe('list');
    expect(objectKind('{}')).toBe('dict');
    expect(objectKind("{'a': 1}")).toBe('dict');
    expect(objectKind("{'a:b', 'c'}")).toBe('set');
    expect(objectKind('{(1, 2)}')).toBe('set');
    expect(objectKind('Node(v=2, next=None)')).toBe('Node');
    expect(objectKind('deque([1])')).toBe('deque');
    expect(objectKind('<__main__.Box object at 0x7f>')).toBe('Box');
    expect(objectKind("bytearray(b'x')")).toBe('bytearray');
  });
});
