import { describe, expect, it } from 'vitest';
import { boxAt, boxText, firstPaths, heapBoxesAt, unfoldRows, unfolds } from './heapGraph';
import { objectsAt } from './objects';
import type { HeapBox, Recording, TraceEvent } from './trace';

function ev(partial: Partial<TraceEvent>): TraceEvent {
  return { event: 'line', line: 1, function: '<module>', depth: 0, frame: 0, parent: -1, code: 0, locals: {}, out: 0, ...partial };
}

function rec(events: TraceEvent[]): Recording {
  return { source: '', call: '', events, codes: [{ name: '<module>', firstline: 1, lines: [1], generator: false }], stdout: '', exit: { status: 'normal' } } as unknown as Recording;
}

const list = (id: number, ...items: (string | number)[]): HeapBox => ({
  id,
  kind: 'list',
  type: 'list',
  items: items.map((i) => (typeof i === 'number' ? { ref: i } : { v: i })),
});

/** grid = [[0] * 3] * 3; grid[0][1] = 5, as the tracer sends it: the inner list again when it changes. */
function gridRecording(): Recording {
  return rec([
    ev({ line: 1 }),
    ev({ line: 2, locals: { grid: '[[0, 0, 0], [0, 0, 0], [0, 0, 0]]' }, ids: { grid: 1 }, heap: [list(1, 2, 2, 2), list(2, '0', '0', '0')] }),
    ev({ line: 2, locals: { grid: '[[0, 5, 0], [0, 5, 0], [0, 5, 0]]' }, ids: { grid: 1 }, heap: [list(2, '0', '5', '0')] }),
    ev({ line: 3, locals: { grid: '[[0, 5, 0], [0, 5, 0], [0, 5, 0]]', row: '[0, 5, 0]' }, ids: { grid: 1, row: 2 } }),
  ]);
}

describe('the heap graph of a stop', () => {
  it('folds the boxes sent so far: each object as it was last sent at or before the event', () => {
    const r = gridRecording();
    expect(boxAt(r, 0, 2)).toBeNull();
    expect(boxAt(r, 1, 2)).toEqual(list(2, '0', '0', '0'));
    expect(boxAt(r, 2, 2)).toEqual(list(2, '0', '5', '0'));
    expect(boxAt(r, 3, 2)).toEqual(list(2, '0', '5', '0'));
    // the outer list was sent once and holds
    expect(boxAt(r, 3, 1)).toEqual(list(1, 2, 2, 2));
  });

  it('is the same stepping back as forward: a pure function of the event', () => {
    const r = gridRecording();
    const at = (i: number) => [...heapBoxesAt(r, i, [1]).boxes.values()];
    const forward = [0, 1, 2, 3].map(at);
    const back = [3, 2, 1, 0].map(at).reverse();
    expect(back).toEqual(forward);
    expect(forward[1]).toEqual([list(1, 2, 2, 2), list(2, '0', '0', '0')]);
    expect(forward[2]).toEqual([list(1, 2, 2, 2), list(2, '0', '5', '0')]);
  });

  it('keeps a what-if recording\'s boxes its own: another run, sent from its start', () => {
    const base = gridRecording();
    // the edit `grid = [[1]]` at event 2: a run of its own, its boxes numbered and sent anew
    const edited = rec([
      ...base.events.slice(0, 2),
      ev({ line: 2, locals: { grid: '[[1]]' }, ids: { grid: 3 }, heap: [list(3, 4), list(4, '1')], edits: [{ name: 'grid', expr: '[[1]]', value: '[[1]]' }] }),
    ]);
    expect([...heapBoxesAt(edited, 2, [3]).boxes.keys()]).toEqual([3, 4]);
    expect(heapBoxesAt(edited, 2, [3]).boxes.get(4)).toEqual(list(4, '1'));
    // the first recording is untouched by the second
    expect(heapBoxesAt(base, 2, [1]).boxes.get(2)).toEqual(list(2, '0', '5', '0'));
  });

  it('shows only what the walk reached where it was cut, never an older box', () => {
    const r = rec([
      ev({ locals: { a: '[[1]]' }, ids: { a: 1 }, heap: [list(1, 2), list(2, '1')] }),
      // here the tracer reached box 1 only: box 2's last description is stale
      ev({ locals: { a: '[[2]]' }, ids: { a: 1 }, heap_cut: [1] }),
    ]);
    const cut = heapBoxesAt(r, 1, [1]);
    expect([...cut.boxes.keys()]).toEqual([1]);
    expect(cut.cut).toBe(true);
    expect(heapBoxesAt(r, 0, [1]).cut).toBe(false);
  });

  it('answers "not drawn here" where the tracer stopped walking the heap, never the last picture drawn', () => {
    const r = rec([
      ev({ locals: { a: '[[1]]' }, ids: { a: 1 }, heap: [list(1, 2), list(2, '1')] }),
      ev({ locals: { a: '[[2]]' }, ids: { a: 1 }, heap: [list(2, '2')] }),
      // the walk had taken its share of the run's time: from here on no event has boxes
      ev({ locals: { a: '[[3]]' }, ids: { a: 1 }, heap_stopped: true }),
      ev({ locals: { a: '[[3], 4]' }, ids: { a: 1 } }),
    ]);
    expect(heapBoxesAt(r, 1, [1])).toEqual({ boxes: new Map([[1, list(1, 2)], [2, list(2, '2')]]), cut: false, stopped: null });
    for (const i of [2, 3]) {
      expect(heapBoxesAt(r, i, [1])).toEqual({ boxes: new Map(), cut: false, stopped: 2 });
      expect(boxAt(r, i, 2)).toBeNull();
    }
    // stepping back before the stop draws the heap again, as it was there
    expect([...heapBoxesAt(r, 0, [1]).boxes.values()]).toEqual([list(1, 2), list(2, '1')]);
    // the views' heap: the names keep their values (inline), no box, and where it stopped
    const heap = objectsAt(r, r.events[3]!).heap;
    expect(heap.stopped).toBe(2);
    expect(heap.boxes.size).toBe(0);
    expect(heap.names).toEqual([{ name: 'a', global: false, object: 1, value: '[[3], 4]' }]);
    expect(objectsAt(r, r.events[1]!).heap.stopped).toBeNull();
  });

  it('names each object by the first path that reaches it', () => {
    const boxes = new Map<number, HeapBox>([
      [1, list(1, 2, 2, 2)],
      [2, list(2, '0', '5', '0')],
      [3, { id: 3, kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: "'Rex'" }]], cls: 4 }],
      [4, { id: 4, kind: 'class', type: 'Pet', items: [['tricks', { ref: 5 }], ['speak', { v: '<function Pet.speak>' }]] }],
      [5, list(5, "'roll'")],
      [6, { id: 6, kind: 'dict', type: 'dict', items: [[{ v: "'g'" }, { ref: 1 }]] }],
    ]);
    const paths = firstPaths(
      [
        { name: 'd', object: 6 },
        { name: 'grid', object: 1 },
        { name: 'n', object: null },
        { name: 'rex', object: 3 },
      ],
      boxes,
    );
    // grid is a name of its own, before d['g'] (a longer path) is walked
    expect(Object.fromEntries(paths)).toEqual({ 6: 'd', 1: 'grid', 3: 'rex', 2: 'grid[0]', 4: 'Pet', 5: 'Pet.tricks' });
  });

  it('writes a box as its repr would be, a cycle as Python does', () => {
    const boxes = new Map<number, HeapBox>([
      [1, list(1, '1', 1)],
      [2, { id: 2, kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: "'Rex'" }], ['pals', { ref: 1 }]] }],
      [3, { id: 3, kind: 'instance', type: 'Card', repr: 'A♠', items: [] }],
      [4, { id: 4, kind: 'tuple', type: 'tuple', items: [{ ref: 3 }] }],
    ]);
    expect(boxText(boxes, boxes.get(1)!)).toBe('[1, [...]]');
    expect(boxText(boxes, boxes.get(2)!)).toBe("Pet(name='Rex', pals=[1, [...]])");
    expect(boxText(boxes, boxes.get(4)!)).toBe('(A♠,)');
  });
});

describe('a value unfolded in Variables', () => {
  const pets = (): Recording =>
    rec([
      ev({
        locals: { rex: "Pet(name='Rex')", tom: "Pet(name='Tom')", pets: "[Pet(name='Rex'), Pet(name='Tom'), Pet(name='Rex')]" },
        ids: { rex: 1, tom: 2, pets: 5 },
        heap: [
          { id: 1, kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: "'Rex'" }]], cls: 3 },
          { id: 2, kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: "'Tom'" }]], cls: 3 },
          { id: 3, kind: 'class', type: 'Pet', items: [['tricks', { ref: 4 }], ['speak', { v: '<function Pet.speak>' }], ['legs', { v: '4' }]] },
          list(4, "'roll'"),
          list(5, 1, 2, 1),
        ],
      }),
    ]);

  it('marks an item that is an object seen before by another path, and an instance\'s class attributes', () => {
    const r = pets();
    const heap = objectsAt(r, r.events[0]!).heap;
    const list = unfoldRows(r.events[0]!.locals.pets!, heap, 5, 'pets');
    expect(list.header).toBeNull();
    expect(list.rows.map((row) => [row.name, row.value, row.box, row.same])).toEqual([
      ['[0]', "Pet(name='Rex')", 1, 'same object as rex'],
      ['[1]', "Pet(name='Tom')", 2, 'same object as tom'],
      ['[2]', "Pet(name='Rex')", 1, 'same object as rex'],
    ]);
    const rex = unfoldRows(r.events[0]!.locals.rex!, heap, 1, 'rex');
    expect(rex.header).toBe('<__main__.Pet object at 0x…>');
    expect(rex.className).toBe('Pet');
    expect(rex.rows.map((row) => [row.name, row.value, row.group ?? '', row.same])).toEqual([
      ['name', "'Rex'", '', null],
      ['tricks', "['roll']", 'class', null],
      // a class's data, not its methods
      ['legs', '4', 'class', null],
    ]);
    // tom's class attribute is the same list: it was reached first as Pet.tricks, which it is
    expect(unfoldRows(r.events[0]!.locals.tom!, heap, 2, 'tom').rows.find((row) => row.name === 'tricks')).toMatchObject({ path: 'Pet.tricks', same: null, box: 4 });
  });

  it('unfolds from the box what the repr does not show: a class\'s own __repr__', () => {
    const boxes = new Map<number, HeapBox>([[1, { id: 1, kind: 'instance', type: 'Card', repr: 'A♠', items: [['rank', { v: "'A'" }], ['suit', { v: "'♠'" }]] }]]);
    const heap = { boxes, paths: new Map([[1, 'card']]) };
    expect(unfolds('A♠', boxes.get(1))).toBe(true);
    expect(unfolds('A♠', null)).toBe(false);
    const card = unfoldRows('A♠', heap, 1, 'card');
    expect(card.header).toBe('A♠');
    expect(card.rows.map((row) => `${row.name}=${row.value}`)).toEqual(["rank='A'", "suit='♠'"]);
  });

  it('says "same object as grid[0]" between the rows of one list', () => {
    const r = gridRecording();
    const heap = objectsAt(r, r.events[2]!).heap;
    const rows = unfoldRows(r.events[2]!.locals.grid!, heap, 1, 'grid').rows;
    expect(rows.map((row) => row.same)).toEqual([null, 'same object as grid[0]', 'same object as grid[0]']);
    // the inner list's own items are numbers: nothing to say
    expect(unfoldRows(rows[1]!.value, heap, rows[1]!.box, rows[1]!.path).rows.map((row) => row.same)).toEqual([null, null, null]);
    // without the heap (a recording made without objects) the rows are the repr's, unmarked
    expect(unfoldRows(r.events[2]!.locals.grid!, null, null, 'grid').rows.map((row) => row.same)).toEqual([null, null, null]);
  });
});
