import { describe, expect, it } from 'vitest';
import { firstPaths } from '../core/heapGraph';
import type { Heap, HeapName } from '../core/objects';
import type { HeapBox } from '../core/trace';
import { fitText, HEAP_PX, heapLayout, type HeapLayout, type LaidBox } from './heapLayout';

const name = (n: string, object: number | null, value = '', global = false): HeapName => ({ name: n, global, object, value });

function heapOf(names: HeapName[], boxes: HeapBox[], cut = false): Heap {
  const map = new Map(boxes.map((b) => [b.id, b]));
  return {
    names,
    refs: names.filter((n) => n.object !== null).map((n) => ({ name: n.name, global: n.global, object: n.object! })),
    boxes: map,
    paths: firstPaths(names, map),
    cut,
    stopped: null,
  };
}

const seq = (id: number, ...items: (string | number)[]): HeapBox => ({
  id,
  kind: 'list',
  type: 'list',
  items: items.map((i) => (typeof i === 'number' ? { ref: i } : { v: i })),
});

const box = (l: HeapLayout, id: number): LaidBox => l.boxes.find((b) => b.id === id)!;

function noOverlaps(l: HeapLayout): void {
  for (const a of l.boxes)
    for (const b of l.boxes) {
      if (a === b) continue;
      const apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
      expect(apart, `boxes #${a.id} and #${b.id} overlap`).toBe(true);
    }
  for (const b of l.boxes) {
    expect(b.x).toBeGreaterThanOrEqual(l.names.w);
    expect(b.x + b.w).toBeLessThanOrEqual(l.width);
    expect(b.y + b.h).toBeLessThanOrEqual(l.height);
  }
}

describe('the heap laid out as Python Tutor draws it', () => {
  it('draws a nested list with shared rows as one inner box with three arrows into it', () => {
    // grid = [[0] * 3] * 3; grid[0][1] = 5
    const l = heapLayout(heapOf([name('grid', 1, '[[0, 5, 0], [0, 5, 0], [0, 5, 0]]')], [seq(1, 2, 2, 2), seq(2, '0', '5', '0')]));
    expect(l.boxes.map((b) => [b.id, b.title, b.column])).toEqual([
      [1, 'list', 0],
      [2, 'list', 1],
    ]);
    const outer = box(l, 1);
    const inner = box(l, 2);
    // the inner list to the right of the outer one and below it (so that the three arrows from
    // its cells are three lines), its cells 0 5 0 under their indices
    expect(inner.x).toBeGreaterThanOrEqual(outer.x + outer.w + HEAP_PX.gap);
    expect(inner.y).toBeGreaterThanOrEqual(outer.y + outer.h);
    expect(inner.parts.filter((p) => p.kind === 'cell').map((p) => p.text)).toEqual(['0', '5', '0']);
    expect(inner.parts.filter((p) => p.kind === 'index').map((p) => p.text)).toEqual(['0', '1', '2']);
    // one arrow from the name, three from grid's cells, all three into the inner box
    expect(l.arrows.map((a) => [a.from, a.to])).toEqual([
      ['grid', 1],
      ['grid[0]', 2],
      ['grid[1]', 2],
      ['grid[2]', 2],
    ]);
    for (const a of l.arrows.slice(1)) {
      expect([a.x2, a.y2]).toEqual([inner.anchor.x, inner.anchor.y]);
      expect(a.d.endsWith(`${inner.anchor.x} ${inner.anchor.y}`)).toBe(true);
    }
    expect(l.arrows[2]!.label).toBe('grid[1] refers to object #2, a list');
    // the name's arrow is level: the box stands beside its name
    expect(l.arrows[0]!.y1).toBe(l.arrows[0]!.y2);
    // each arrow leaves the centre of its cell
    const cells = outer.parts.filter((p) => p.kind === 'cell');
    expect(l.arrows.slice(1).map((a) => a.x1)).toEqual(cells.map((c) => c.x + c.w / 2));
    noOverlaps(l);
  });

  it('draws two instances with an arrow each to their one class, whose attribute list is a box', () => {
    const pet = (id: number, n: string): HeapBox => ({ id, kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: n }]], cls: 3 });
    const l = heapLayout(
      heapOf(
        [name('Pet', null, "<class '__main__.Pet'>"), name('a', 1), name('b', 2)],
        [pet(1, "'Rex'"), pet(2, "'Tom'"), { id: 3, kind: 'class', type: 'Pet', items: [['tricks', { ref: 4 }], ['add', { v: '<function Pet.add>' }]] }, seq(4, "'roll'")],
      ),
    );
    expect(l.boxes.map((b) => [b.id, b.title, b.column])).toEqual([
      [1, 'Pet instance', 0],
      [3, 'Pet class', 1],
      [4, 'list', 2],
      [2, 'Pet instance', 0],
    ]);
    // the repr line, the attribute, the class
    const a = box(l, 1);
    expect(a.parts.map((p) => [p.kind, p.text])).toEqual([
      ['repr', '<__main__.Pet object at 0x…>'],
      ['key', 'name'],
      ['value', "'Rex'"],
      ['key', '__class__'],
      ['value', ''],
    ]);
    expect(box(l, 3).parts.filter((p) => p.kind === 'key').map((p) => p.text)).toEqual(['tricks', 'add']);
    expect(l.arrows.map((x) => [x.from, x.to])).toEqual([
      ['a', 1],
      ['b', 2],
      ['type(a)', 3],
      ['Pet.tricks', 4],
      ['type(b)', 3],
    ]);
    // both instances' arrows end at the class box
    const cls = box(l, 3);
    for (const x of l.arrows.filter((x) => x.to === 3)) expect([x.x2, x.y2]).toEqual([cls.anchor.x, cls.anchor.y]);
    // a value Python keeps inline stays in the names' column
    expect(l.names.parts.find((p) => p.kind === 'value')!.text.startsWith('<class')).toBe(true);
    noOverlaps(l);
  });

  it('draws a list that contains itself with an arrow back over its top', () => {
    const l = heapLayout(heapOf([name('xs', 1)], [seq(1, '1', 1)]));
    expect(l.boxes).toHaveLength(1);
    const xs = box(l, 1);
    const back = l.arrows.find((a) => a.from === 'xs[1]')!;
    expect(back.to).toBe(1);
    // it ends on the box's top edge, coming down from above it
    expect(back.y2).toBe(xs.y + 2);
    expect(back.x2).toBeGreaterThanOrEqual(xs.x);
    expect(back.x2).toBeLessThanOrEqual(xs.x + xs.w);
    const lift = Number(back.d.split(/[ ,]+/)[5]);
    expect(lift).toBeLessThan(xs.y);
    expect(lift).toBeGreaterThanOrEqual(0);
  });

  it('says what the caps left out: items past a box\'s cap, objects past the walk\'s, long values cut', () => {
    const long = `'${'x'.repeat(300)}'`;
    const l = heapLayout(
      heapOf(
        [name('xs', 1), name('s', null, long)],
        [{ id: 1, kind: 'list', type: 'list', items: [{ v: long }, { ref: 9 }], more: 70 }],
        true,
      ),
    );
    const xs = box(l, 1);
    expect(xs.parts.filter((p) => p.kind !== 'index').map((p) => p.kind)).toEqual(['cell', 'cell', 'more']);
    const [text, missing, more] = xs.parts.filter((p) => p.kind !== 'index');
    expect(more!.text).toBe('+70 more');
    // the object past the walk's cap: no box, no arrow, a mark in its cell
    expect(missing).toMatchObject({ ref: 9, missing: true, text: '…' });
    expect(l.arrows.map((a) => a.to)).toEqual([1]);
    // a long value is cut to its cell, the whole text kept for its tooltip
    expect(text!.w).toBe(HEAP_PX.cell);
    expect(text!.text.endsWith('…')).toBe(true);
    expect(text!.text.length * HEAP_PX.char).toBeLessThanOrEqual(HEAP_PX.cell);
    expect(text!.full).toBe(long);
    expect(fitText('abc', 100)).toBe('abc');
  });

  it('puts each box below the ones above it in its column, beside the cell that reaches it first', () => {
    // a = [[1], [2]], b = {'k': [3]}: every list its own box, none overlapping
    const l = heapLayout(
      heapOf(
        [name('a', 1), name('b', 4)],
        [seq(1, 2, 3), seq(2, '1'), seq(3, '2'), { id: 4, kind: 'dict', type: 'dict', items: [[{ v: "'k'" }, { ref: 5 }]] }, seq(5, '3')],
      ),
    );
    expect(l.boxes.map((b) => [b.id, b.column])).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 0],
      [5, 1],
    ]);
    // a list's items below it, to its right, one under the other; the dict's value as high as the
    // boxes above it in its column let it be
    expect(box(l, 2).y).toBe(box(l, 1).y + box(l, 1).h + HEAP_PX.space);
    expect(box(l, 3).y).toBe(box(l, 2).y + box(l, 2).h + HEAP_PX.space);
    expect(box(l, 5).y).toBe(Math.max(box(l, 3).y + box(l, 3).h + HEAP_PX.space, l.arrows.find((a) => a.from === "b['k']")!.y1 - (box(l, 5).anchor.y - box(l, 5).y)));
    expect(l.arrows.find((a) => a.from === "b['k']")!.to).toBe(5);
    noOverlaps(l);
  });

  it('draws the names alone where no object is shown, and a global tagged apart from its name', () => {
    const l = heapLayout(heapOf([name('n', null, '3'), name('g (global)', null, "'x'", true)], []));
    expect(l.boxes).toEqual([]);
    expect(l.arrows).toEqual([]);
    expect(l.names.parts.map((p) => [p.kind, p.text, p.global ?? false])).toEqual([
      ['name', 'n', false],
      ['value', '3', false],
      ['name', 'g (global)', true],
      ['value', "'x'", false],
    ]);
  });
});
