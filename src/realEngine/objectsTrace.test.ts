// What the tracer records for the views when asked for `objects` (never for the model's text):
// which names refer to one object, the module's variables inside a function, and a closure's
// variables from the enclosing function. Checked against what Python itself says (`is`).

import { beforeAll, describe, expect, it } from 'vitest';
import { boxText, heapBoxesAt } from '../core/heapGraph';
import { objectsAt } from '../core/objects';
import type { HeapBox, HeapCell, Recording, TraceEvent } from '../core/trace';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
}, 60_000);

const lastAt = (rec: Recording, line: number): TraceEvent => rec.events.filter((e) => e.line === line).at(-1)!;

describe('objects in the recording', () => {
  it('gives two names for one list one number, and an equal list another', () => {
    const rec = engine.record('a = [1, 2]\nb = a\nc = [1, 2]\nb.append(3)\nsame = a is b\nother = a is c\n', '', { objects: true, heap: true });
    const end = rec.events.at(-1)!;
    expect(end.locals).toMatchObject({ a: '[1, 2, 3]', b: '[1, 2, 3]', c: '[1, 2]', same: 'True', other: 'False' });
    expect(end.ids!.a).toBe(end.ids!.b);
    expect(end.ids!.c).not.toBe(end.ids!.a);
    // numbers, strings and booleans are values, not objects a lesson follows
    expect(end.ids).not.toHaveProperty('same');
  });

  it('numbers objects the same way across frames: a parameter is the caller\'s list', () => {
    const rec = engine.record('def add(xs):\n    xs.append(4)\n    return xs\n\nnums = [1]\nout = add(nums)\n', '', { objects: true, heap: true });
    const inAdd = rec.events.find((e) => e.function === 'add' && e.event === 'line')!;
    expect(inAdd.globals).toEqual({ nums: '[1]' });
    expect(inAdd.ids!.xs).toBe(inAdd.global_ids!.nums);
    const end = rec.events.at(-1)!;
    expect(end.ids!.out).toBe(end.ids!.nums);
  });

  it('shows the module\'s variables inside a function (not its functions), as `global` changes them', () => {
    const rec = engine.record('counter = 0\n\ndef bump():\n    global counter\n    counter += 1\n\nbump()\nbump()\n', '', { objects: true, heap: true });
    const returns = rec.events.filter((e) => e.function === 'bump' && e.event === 'return');
    expect(returns.map((e) => e.globals)).toEqual([{ counter: '1' }, { counter: '2' }]);
    expect(returns[0]!.locals).toEqual({});
    // the module's own frame has its variables as locals, and no group of globals
    expect(rec.events.filter((e) => e.function === '<module>').every((e) => e.globals === undefined)).toBe(true);
  });

  it('names a closure\'s variables from the enclosing function', () => {
    const rec = engine.record(
      'def make_counter():\n    count = 0\n    def inc():\n        nonlocal count\n        count += 1\n        return count\n    return inc\n\nc = make_counter()\nc()\n',
      '',
      { objects: true, heap: true },
    );
    const inc = rec.codes.find((c) => c.name === 'inc')!;
    expect(inc.free).toEqual(['count']);
    expect(inc.enclosing).toBe('make_counter');
    const ret = rec.events.find((e) => e.function === 'inc' && e.event === 'return')!;
    expect(ret.locals).toEqual({ count: '1' });
    expect(rec.codes.find((c) => c.name === 'make_counter')!.free).toBeUndefined();
  });

  it('shows only the globals a function reads or writes, or shares an object with', () => {
    const rec = engine.record('big = list(range(5000))\nlimit = 3\nkept = []\n\ndef f(xs, x):\n    xs.append(x)\n    return x < limit\n\nf(kept, 1)\n', '', { objects: true, heap: true });
    const inF = rec.events.find((e) => e.function === 'f' && e.event === 'line')!;
    expect(inF.globals).toEqual({ limit: '3', kept: '[]' });
    expect(inF.ids!.xs).toBe(inF.global_ids!.kept);
  });

  it('shows a global that a local of the same name hides, with its own value (issue 46)', () => {
    const rec = engine.record('score = 10\n\ndef reset():\n    score = 0\n    return score\n\nreset()\n', '', { objects: true, heap: true });
    const inReset = rec.events.filter((e) => e.function === 'reset');
    // at the call (no local yet), after `score = 0` and at the return: the global is still 10
    expect(inReset.map((e) => [e.event, e.locals.score, e.globals?.score])).toEqual([
      ['call', undefined, '10'],
      ['line', undefined, '10'],
      ['line', '0', '10'],
      ['return', '0', '10'],
    ]);
    // a parameter hides one too
    const param = engine.record('n = 5\n\ndef f(n):\n    return n\n\nf(1)\n', '', { objects: true, heap: true });
    expect(param.events.find((e) => e.function === 'f' && e.event === 'line')!.globals).toEqual({ n: '5' });
  });

  it('records none of it without `objects` (training, the model\'s format)', () => {
    const rec = engine.record('a = [1]\nb = a\n\ndef f():\n    return a\n\nf()\n', '');
    expect(rec.events.some((e) => e.ids || e.globals || e.heap || e.heap_cut)).toBe(false);
  });

  it('walks no heap with `objects` alone (the CLI, DAP and MCP, which do not draw it)', () => {
    const source = 'grid = [[0] * 3] * 3\ngrid[0][1] = 5\n';
    const ids = engine.record(source, '', { objects: true });
    expect(ids.events.some((e) => e.ids)).toBe(true);
    expect(ids.events.some((e) => e.heap || e.heap_cut || e.heap_stopped)).toBe(false);
    expect(engine.record(source, '', { objects: true, heap: true }).events.some((e) => e.heap)).toBe(true);
  });
});

/** The boxes at event `i`, as the views fold them (core/heapGraph.ts). */
function graphAt(rec: Recording, i: number): Map<number, HeapBox> {
  const e = rec.events[i]!;
  return heapBoxesAt(rec, i, [...Object.values(e.ids ?? {}), ...Object.values(e.global_ids ?? {})]).boxes as Map<number, HeapBox>;
}

describe('the heap graph in the recording', () => {
  it('draws grid = [[0] * 3] * 3 as one inner list three rows refer to, sent again only when it changes', () => {
    const rec = engine.record('grid = [[0] * 3] * 3\ngrid[0][1] = 5\nrow = grid[1]\n', '', { objects: true, heap: true });
    const [first, second, third] = rec.events.filter((e) => e.ids?.grid !== undefined);
    const grid = first!.ids!.grid!;
    const inner = (first!.heap!.find((b) => b.id === grid) as { items: HeapCell[] }).items.map((c) => ('ref' in c ? c.ref : null));
    expect(inner).toEqual([inner[0], inner[0], inner[0]]);
    expect(first!.heap).toEqual([
      { id: grid, kind: 'list', type: 'list', items: [{ ref: inner[0] }, { ref: inner[0] }, { ref: inner[0] }] },
      { id: inner[0], kind: 'list', type: 'list', items: [{ v: '0' }, { v: '0' }, { v: '0' }] },
    ]);
    // after grid[0][1] = 5 only the inner list is sent: it is the one that changed
    expect(second!.heap).toEqual([{ id: inner[0], kind: 'list', type: 'list', items: [{ v: '0' }, { v: '5' }, { v: '0' }] }]);
    // `row = grid[1]` names the inner list: its number, no box sent again
    expect(third!.ids!.row).toBe(inner[0]);
    expect(third!.heap).toBeUndefined();
    expect([...graphAt(rec, rec.events.indexOf(third!)).keys()]).toEqual([grid, inner[0]]);
  });

  it('shows instances with Python\'s own repr, their attributes and one class whose list attribute is a box', () => {
    const rec = engine.record(
      [
        'class Pet:',
        '    tricks = []',
        '    def __init__(self, name):',
        '        self.name = name',
        '    def add(self, trick):',
        '        self.tricks.append(trick)',
        '',
        'class Card:',
        '    def __init__(self):',
        '        self.rank = "A"',
        '    def __repr__(self):',
        '        return "A" + "♠"',
        '',
        'class Broken:',
        '    def __repr__(self):',
        '        return self.missing',
        '',
        'rex = Pet("Rex")',
        'tom = Pet("Tom")',
        'rex.add("roll")',
        'card = Card()',
        'broken = Broken()',
        'pair = (rex, 1)',
        'plain = (1, 2)',
        'done = True',
        '',
      ].join('\n'),
      '',
      { objects: true, heap: true },
    );
    const i = rec.events.findIndex((e) => e.line === 25);
    const end = rec.events[i]!;
    const boxes = graphAt(rec, i);
    const box = (name: string) => boxes.get(end.ids![name]!)!;
    const rex = box('rex') as Extract<HeapBox, { kind: 'instance' }>;
    const tom = box('tom') as Extract<HeapBox, { kind: 'instance' }>;
    expect(rex).toMatchObject({ kind: 'instance', type: 'Pet', repr: '<__main__.Pet object at 0x…>', items: [['name', { v: "'Rex'" }]] });
    expect(tom.cls).toBe(rex.cls);
    const pet = boxes.get(rex.cls!)!;
    expect(pet).toMatchObject({ kind: 'class', type: 'Pet' });
    expect(pet.items).toEqual([
      ['tricks', { ref: expect.any(Number) }],
      ['add', { v: '<function Pet.add>' }],
    ]);
    const tricks = (pet.items[0] as [string, { ref: number }])[1].ref;
    expect(boxes.get(tricks)).toMatchObject({ kind: 'list', items: [{ v: "'roll'" }] });
    // the program's __repr__ is the repr; one that raises leaves Python's default
    expect(box('card')).toMatchObject({ kind: 'instance', type: 'Card', repr: 'A♠', items: [['rank', { v: "'A'" }]] });
    expect(box('broken')).toMatchObject({ kind: 'instance', repr: '<__main__.Broken object at 0x…>', items: [] });
    // a tuple that holds an object is one (a box of its own); a tuple of numbers stays a value
    expect(box('pair')).toEqual({ id: end.ids!.pair, kind: 'tuple', type: 'tuple', items: [{ ref: end.ids!.rex }, { v: '1' }] });
    expect(end.ids).not.toHaveProperty('plain');
    // the Variables panel's values keep the attribute form (the model's format)
    expect(end.locals.rex).toBe("Pet(name='Rex')");
  });

  it('draws a list that contains itself as one box with an arrow to itself', () => {
    const rec = engine.record('xs = [1]\nxs.append(xs)\nd = {"me": xs}\n', '', { objects: true, heap: true });
    const i = rec.events.length - 1;
    const e = rec.events[i]!;
    const xs = graphAt(rec, i).get(e.ids!.xs!)!;
    expect(xs.items).toEqual([{ v: '1' }, { ref: e.ids!.xs }]);
    expect(graphAt(rec, i).get(e.ids!.d!)!.items).toEqual([[{ v: "'me'" }, { ref: e.ids!.xs }]]);
  });

  it('keeps to its caps: 30 items a box, 60 boxes an event, long values cut', () => {
    const rec = engine.record('big = list(range(100))\nrows = [[[j] for j in range(30)] for i in range(3)]\ns = ["x" * 500]\nd = {i: i for i in range(40)}\nend = 1\n', '', { objects: true, heap: true });
    const i = rec.events.length - 1;
    const e = rec.events[i]!;
    const boxes = graphAt(rec, i);
    const big = boxes.get(e.ids!.big!)!;
    expect(big.items).toHaveLength(30);
    expect(big.more).toBe(70);
    expect(boxes.get(e.ids!.d!)).toMatchObject({ kind: 'dict', more: 10 });
    // the names' objects first, then rows' 3 lists, then 53 of their 90: the walk stops at 60
    // boxes, and says which it reached; an arrow to one past them leads to no box
    expect(e.heap_cut).toHaveLength(60);
    expect(boxes.size).toBe(60);
    expect(e.heap_cut!.slice(0, 4)).toEqual([e.ids!.big, e.ids!.rows, e.ids!.s, e.ids!.d]);
    const row = (k: number) => boxes.get((boxes.get(e.ids!.rows!)!.items[k] as { ref: number }).ref)!;
    const notShown = (k: number) => row(k).items.filter((c) => 'ref' in c && !boxes.has(c.ref)).length;
    expect([0, 1, 2].map(notShown)).toEqual([0, 7, 30]);
    const s = rec.events.find((x) => x.heap?.some((b) => b.id === x.ids?.s))!;
    const text = (s.heap!.find((b) => b.id === s.ids!.s)!.items[0] as { v: string }).v;
    expect(text.length).toBe(201);
    expect(text.endsWith('…')).toBe(true);
  });

  it('runs none of the program\'s code to draw it: no property, no __getattr__, no __iter__ of a subclass', () => {
    const rec = engine.record(
      [
        'class Loud(list):',
        '    def __iter__(self):',
        '        print("iter ran")',
        '        return iter([])',
        '',
        'class Spy:',
        '    def __init__(self):',
        '        self.x = 1',
        '    @property',
        '    def p(self):',
        '        print("property ran")',
        '    def __getattr__(self, name):',
        '        print("getattr ran")',
        '',
        'loud = Loud([1, 2])',
        'spy = Spy()',
        'end = 1',
        '',
      ].join('\n'),
      '',
      { objects: true, heap: true },
    );
    expect(rec.stdout).toBe('');
    const i = rec.events.length - 1;
    const e = rec.events[i]!;
    const boxes = graphAt(rec, i);
    expect(boxes.get(e.ids!.loud!)).toMatchObject({ kind: 'list', type: 'Loud', items: [{ v: '1' }, { v: '2' }] });
    const spy = boxes.get(e.ids!.spy!)!;
    expect(spy.items).toEqual([['x', { v: '1' }]]);
    // the class shows what its body defines, the property inline as Python writes it
    const cls = boxes.get((spy as Extract<HeapBox, { kind: 'instance' }>).cls!) as Extract<HeapBox, { kind: 'class' }>;
    expect(cls.items.map(([name]) => name)).toEqual(['p']);
  });

  it('reads __slots__ as the attribute form does, and a subclass\'s box points to its base class', () => {
    const rec = engine.record(
      ['class Point:', '    __slots__ = ("x", "y")', '    def __init__(self):', '        self.x = 1', '', 'class Pet:', '    legs = 4', '', 'class Dog(Pet):', '    sound = "woof"', '', 'p = Point()', 'rex = Dog()', 'end = 1', ''].join('\n'),
      '',
      { objects: true, heap: true },
    );
    const i = rec.events.length - 1;
    const e = rec.events[i]!;
    const boxes = graphAt(rec, i);
    expect(boxes.get(e.ids!.p!)!.items).toEqual([['x', { v: '1' }]]);
    const dog = boxes.get((boxes.get(e.ids!.rex!) as Extract<HeapBox, { kind: 'instance' }>).cls!) as Extract<HeapBox, { kind: 'class' }>;
    expect(dog).toMatchObject({ type: 'Dog', items: [['sound', { v: "'woof'" }]] });
    expect(boxes.get(dog.bases![0]!)).toMatchObject({ kind: 'class', type: 'Pet', items: [['legs', { v: '4' }]] });
  });

  it('folds into graphs whose lists write back as the locals\' own reprs, at every event forward and back', () => {
    const rec = engine.record(
      ['a = [[1], [2]]', 'b = {"k": a[0]}', 'for i in range(6):', '    a[i % 2].append(i)', '    b[str(i)] = [i] * 2', '    if i == 3:', '        a[0] = a[1]', 'end = 1', ''].join('\n'),
      '',
      { objects: true, heap: true },
    );
    const check = (i: number): void => {
      const e = rec.events[i]!;
      const boxes = graphAt(rec, i);
      for (const name of ['a', 'b']) {
        const id = e.ids?.[name];
        if (id === undefined) continue;
        expect(boxText(boxes, boxes.get(id)!), `${name} at event ${i}`).toBe(e.locals[name]);
      }
    };
    for (let i = 0; i < rec.events.length; i++) check(i);
    for (let i = rec.events.length - 1; i >= 0; i--) check(i);
    // most events send nothing new: a box goes again only when it changed
    const sent = rec.events.reduce((n, e) => n + (e.heap?.length ?? 0), 0);
    expect(sent).toBeLessThan(rec.events.length);
  });

  it('stays small on a long loop: a 2,000-event recording carries a few bytes of heap an event', () => {
    const rec = engine.record('grid = [[0] * 3 for _ in range(3)]\npets = {"rex": [1, 2]}\nfor i in range(2000):\n    grid[i % 3][i % 3] += 1\n', '', { objects: true, heap: true, maxEvents: 2000 });
    expect(rec.events).toHaveLength(2000);
    const bytes = JSON.stringify(rec.events.map((e) => [e.heap ?? null, e.heap_cut ?? null])).length;
    expect(bytes / rec.events.length).toBeLessThan(60);
  });
});

/** Runs `fn` with the engine's tracer changed by `change` (Python, run in a function of its own
 * with `t` the tracer module), put back as it was after. */
function withTracer<T>(change: string, fn: () => T): T {
  const py = (body: string): void => {
    engine.pyodide.runPython(`def _ndb_test(t):\n${body.replace(/^/gm, '    ')}\n\nimport ndb_tracer as _ndb_t\n_ndb_test(_ndb_t)\ndel _ndb_test, _ndb_t\n`);
  };
  py('t._ndb_saved = (t._Objects._heap, t.HEAP_TIME_SHARE)');
  py(change);
  try {
    return fn();
  } finally {
    py('t._Objects._heap, t.HEAP_TIME_SHARE = t._ndb_saved\ndel t._ndb_saved');
  }
}

/** A linked list of 100 nodes, the pointer moving along it `steps` times (None: for ever). */
function linkedList(steps: number | null): string {
  return [
    'class Node:',
    '    def __init__(self, v, nxt):',
    '        self.v = v',
    '        self.next = nxt',
    '',
    'head = None',
    'for i in range(100):',
    '    head = Node(i, head)',
    'node = head',
    steps === null ? 'while True:' : `for i in range(${steps}):`,
    '    node.v += 1',
    '    node = node.next or head',
    '',
  ].join('\n');
}

describe('the cost of the heap walk', () => {
  const programs = [
    linkedList(150),
    'grid = [[0] * 3 for _ in range(3)]\nalias = grid[1]\nfor i in range(60):\n    grid[i % 3][(i // 3) % 3] += 1\n    if i % 20 == 0:\n        grid[i % 3] = [i] * 3\n',
    'class Pet:\n    kind = "dog"\n    def __init__(self, i):\n        self.i = i\n        self.n = 0\n\npets = [Pet(i) for i in range(20)]\nd = {i: i for i in range(50)}\nfor k in range(40):\n    pets[k % 20].n += 1\n    d[k % 50] += 1\n    if k == 30:\n        Pet.kind = [k]\n        del pets[3].n\n',
    'a = list(range(300))\nb = ["x" * 40] * 40\nfor i in range(60):\n    a[i % 35] += 1000\n    b[i % 40] = b[(i + 1) % 40] + "y"\n    s = set(a[:i])\n    t = (a, i, "z")\n    if i % 25 == 0:\n        a.insert(0, i)\n',
  ];

  it('draws the same heap with its caches as a walk that makes every box afresh at every event', () => {
    // no bound on the walk's time in either run: the walk without its caches is the slow one
    const unbounded = 't.HEAP_TIME_SHARE = float("inf")';
    const cached = withTracer(unbounded, () => programs.map((source) => engine.record(source, '', { objects: true, heap: true })));
    const fresh = withTracer(
      [unbounded, 'saved = t._Objects._heap', 'def fresh(self, record, roots):', '    self.made.clear()', '    self.cells.clear()', '    return saved(self, record, roots)', 't._Objects._heap = fresh'].join('\n'),
      () => programs.map((source) => engine.record(source, '', { objects: true, heap: true })),
    );
    cached.forEach((rec, i) => {
      expect(rec.events.some((e) => e.heap)).toBe(true);
      expect(JSON.stringify(rec), `program ${i}`).toBe(JSON.stringify(fresh[i]));
    });
  });

  it('leaves the recording as it was when the walk stays within its share of the time limit', () => {
    const bounded = programs.map((source) => engine.record(source, '', { objects: true, heap: true, timeLimit: 30 }));
    const unbounded = withTracer('t.HEAP_TIME_SHARE = float("inf")', () => programs.map((source) => engine.record(source, '', { objects: true, heap: true, timeLimit: 30 })));
    bounded.forEach((rec, i) => {
      expect(rec.events.some((e) => e.heap_stopped)).toBe(false);
      expect(JSON.stringify(rec), `program ${i}`).toBe(JSON.stringify(unbounded[i]));
    });
  });

  it('stops drawing the heap past its share of the time limit, says where, and records the rest as before', () => {
    const rec = engine.record(linkedList(null), '', { objects: true, heap: true, timeLimit: 1, maxEvents: 100_000 });
    expect(rec.exit.status).toBe('timeout');
    const k = rec.events.findIndex((e) => e.heap_stopped);
    expect(k).toBeGreaterThan(0);
    expect(rec.events.filter((e) => e.heap_stopped)).toHaveLength(1);
    const before = rec.events.slice(0, k);
    const after = rec.events.slice(k);
    expect(after.length).toBeGreaterThan(10);
    expect(before.some((e) => e.heap)).toBe(true);
    expect(after.some((e) => e.heap || e.heap_cut)).toBe(false);
    // the names' objects are still numbered past the stop (where it comes depends on the machine:
    // while the list is built, or in the loop)
    const loop = rec.events.filter((e) => e.function === '<module>' && e.locals.node !== undefined);
    expect(loop.length).toBeGreaterThan(10);
    expect(new Set(loop.map((e) => e.ids?.head)).size).toBe(1);
    expect(after.filter((e) => e.locals.node !== undefined).every((e) => e.ids?.node !== undefined)).toBe(true);
    expect(after.filter((e) => e.function === '__init__').every((e) => e.ids?.self !== undefined)).toBe(true);
    // the views: the heap drawn up to there, "not drawn here" past it, never the last picture
    const roots = (e: TraceEvent): number[] => Object.values(e.ids ?? {});
    expect(heapBoxesAt(rec, k - 1, roots(rec.events[k - 1]!))).toMatchObject({ stopped: null });
    expect(heapBoxesAt(rec, k - 1, roots(rec.events[k - 1]!)).boxes.size).toBeGreaterThan(0);
    const last = rec.events.length - 1;
    expect(heapBoxesAt(rec, last, roots(rec.events[last]!))).toEqual({ boxes: new Map(), cut: false, stopped: k });
    expect(objectsAt(rec, rec.events[last]!).heap).toMatchObject({ stopped: k, cut: false });
  });
});
