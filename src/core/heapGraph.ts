// The heap graph of a stop, read from a recording made with `objects` (docs/trace.md, `heap`): the
// boxes reachable from the stop's names, each object once, as Python Tutor draws them. The tracer
// sends a box only at the events where it changed, so a box at event i is the one sent last at or
// before i: a pure function of the recording and the index, the same stepping forward or back.
// Where the tracer stopped walking the heap for the run's time (`heap_stopped`), that event and
// the later ones have none: "not drawn here", never the last picture drawn. A what-if edit makes a
// recording of its own from the program's start (core/whatIf.ts), whose boxes are its own. Never
// part of the model's text.

import { isExpandable, parseRepr, reprChildren, TRUNCATION_MARK } from './objectRepr';
import type { HeapBox, HeapCell, Recording } from './trace';

/** The boxes each object was sent as, and at which events (in order). */
interface History {
  at: number[];
  boxes: HeapBox[];
}

interface Histories {
  length: number;
  byId: Map<number, History>;
  /** The event where the tracer stopped walking the heap (`heap_stopped`; null: it never did). */
  stopped: number | null;
}

const histories = new WeakMap<Recording, Histories>();

function historiesOf(rec: Recording): Histories {
  const known = histories.get(rec);
  if (known && known.length === rec.events.length) return known;
  const byId = new Map<number, History>();
  let stopped: number | null = null;
  rec.events.forEach((e, i) => {
    if (e.heap_stopped && stopped === null) stopped = i;
    for (const box of e.heap ?? []) {
      let h = byId.get(box.id);
      if (!h) byId.set(box.id, (h = { at: [], boxes: [] }));
      h.at.push(i);
      h.boxes.push(box);
    }
  });
  const made = { length: rec.events.length, byId, stopped };
  histories.set(rec, made);
  return made;
}

/** The event where the tracer stopped drawing the heap, for the run's time (docs/trace.md,
 * `heap_stopped`): from there on no event has a heap. Null: the whole recording has one. */
function heapStoppedAt(rec: Recording): number | null {
  return historiesOf(rec).stopped;
}

/** Object `id`'s box as it was at event `index` (null: not sent yet, or not drawn there). */
export function boxAt(rec: Recording, index: number, id: number): HeapBox | null {
  const { byId, stopped } = historiesOf(rec);
  if (stopped !== null && index >= stopped) return null;
  const h = byId.get(id);
  if (!h) return null;
  let lo = 0;
  let hi = h.at.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (h.at[mid]! <= index) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? null : h.boxes[found]!;
}

/** The objects a box's items refer to, in item order (a dict's key before its value), then an
 * instance's class or a class's bases. */
export function boxRefs(box: HeapBox): number[] {
  const out: number[] = [];
  const add = (c: HeapCell): void => {
    if ('ref' in c) out.push(c.ref);
  };
  switch (box.kind) {
    case 'dict':
      for (const [k, v] of box.items) {
        add(k);
        add(v);
      }
      break;
    case 'instance':
      for (const [, v] of box.items) add(v);
      if (box.cls !== undefined) out.push(box.cls);
      break;
    case 'class':
      for (const [, v] of box.items) add(v);
      out.push(...(box.bases ?? []));
      break;
    default:
      for (const c of box.items) add(c);
  }
  return out;
}

export interface HeapBoxes {
  /** The boxes shown at the event, in the order a walk from its names reaches them. */
  boxes: ReadonlyMap<number, HeapBox>;
  /** The tracer's walk stopped at its cap there: some arrows lead to objects not shown. */
  cut: boolean;
  /** The heap is not drawn at this event: the tracer stopped walking it at event `stopped` (an
   * index), where it had taken its share of the run's time limit. No boxes then, never the last
   * ones drawn: they would be a stale picture. Null: drawn. */
  stopped: number | null;
}

/** The boxes at event `index` reachable from `roots` (the numbers of its names' objects). */
export function heapBoxesAt(rec: Recording, index: number, roots: readonly number[]): HeapBoxes {
  const e = rec.events[index];
  const boxes = new Map<number, HeapBox>();
  if (!e) return { boxes, cut: false, stopped: null };
  const stopped = heapStoppedAt(rec);
  if (stopped !== null && index >= stopped) return { boxes, cut: false, stopped };
  // Where the walk was cut, only the boxes it reached are current: others may be older ones.
  const reached = e.heap_cut ? new Set(e.heap_cut) : null;
  const queue = [...roots];
  const seen = new Set<number>();
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (reached && !reached.has(id)) continue;
    const box = boxAt(rec, index, id);
    if (!box) continue;
    boxes.set(id, box);
    for (const ref of boxRefs(box)) if (!seen.has(ref)) queue.push(ref);
  }
  return { boxes, cut: reached !== null, stopped: null };
}

// ---------------------------------------------------------------------------------------------
// Paths: how the program would name an object ("grid[0]", "rex.tricks", "Pet.tricks")

/** One item of a box with the expression that names it from the box's own path. */
export interface BoxItem {
  /** The item's label in a view: `[0]`, `'key'`, `name`. */
  label: string;
  /** How the program reaches it: `grid[0]`, `d['key']`, `rex.name`, `Pet.tricks`. */
  path: string;
  cell: HeapCell;
  /** A class's attribute seen from one of its instances. */
  group?: 'class';
}

const SEQUENCES = new Set(['list', 'tuple']);

/** The box's items, each with its path from `path` (the box's own), then an instance's class
 * (`type(x)`) or a class's bases; a dict's values by their keys (`dictKeys` gives its keys). */
export function boxItems(box: HeapBox, path: string): BoxItem[] {
  switch (box.kind) {
    case 'dict':
      return box.items.map(([k, v]) => {
        const key = 'v' in k ? k.v : '…';
        return { label: key, path: `${path}[${key}]`, cell: v };
      });
    case 'instance': {
      const items: BoxItem[] = box.items.map(([name, cell]) => ({ label: name, path: `${path}.${name}`, cell }));
      if (box.cls !== undefined) items.push({ label: '__class__', path: `type(${path})`, cell: { ref: box.cls } });
      return items;
    }
    case 'class': {
      const items: BoxItem[] = box.items.map(([name, cell]) => ({ label: name, path: `${box.type}.${name}`, cell }));
      (box.bases ?? []).forEach((b, i) => items.push({ label: (box.bases ?? []).length === 1 ? '__base__' : `__bases__[${i}]`, path: `${box.type}.__bases__[${i}]`, cell: { ref: b } }));
      return items;
    }
    default:
      return box.items.map((cell, i) => (SEQUENCES.has(box.kind) ? { label: `[${i}]`, path: `${path}[${i}]`, cell } : { label: `{${i}}`, path: `list(${path})[${i}]`, cell }));
  }
}

/** The first path that reaches each object, walking from the names (in their order) breadth
 * first, each box's items in their order: "same object as grid[0]" names it by this. A class is
 * named by its own name. */
export function firstPaths(names: readonly { name: string; object: number | null }[], boxes: ReadonlyMap<number, HeapBox>): Map<number, string> {
  const paths = new Map<number, string>();
  const queue: number[] = [];
  const reach = (id: number, path: string): void => {
    if (paths.has(id)) return;
    const box = boxes.get(id);
    paths.set(id, box?.kind === 'class' ? box.type : path);
    queue.push(id);
  };
  for (const n of names) if (n.object !== null) reach(n.object, n.name);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    const box = boxes.get(id);
    if (!box) continue;
    const path = paths.get(id)!;
    // a dict's key that is an object (a tuple of lists, an instance) comes before its value
    if (box.kind === 'dict') box.items.forEach(([k], i) => 'ref' in k && reach(k.ref, `list(${path})[${i}]`));
    for (const item of boxItems(box, path)) if ('ref' in item.cell) reach(item.cell.ref, item.path);
  }
  return paths;
}

// ---------------------------------------------------------------------------------------------
// Variables' unfold: a value's parts, with what the heap knows of them

/** One row of an unfolded value. */
export interface UnfoldRow {
  /** `[0]`, `'key'`, `name`. */
  name: string;
  value: string;
  /** The object the part is, where the heap shows it (its own unfold then reads its box). */
  box: number | null;
  /** How the program reaches the part: `grid[0]`. */
  path: string;
  /** "same object as grid[0]": the part is an object reached before by another path. */
  same: string | null;
  /** An attribute of the instance's class (`tricks`, shared by every instance). */
  group?: 'class';
}

export interface Unfold {
  /** An instance's own repr (`<__main__.Pet object at 0x…>`, or its class's `__repr__`). */
  header: string | null;
  /** The class whose attributes the rows of group `class` are. */
  className: string | null;
  rows: UnfoldRow[];
}

/** What a class body defines besides its data: shown in its box, not in an instance's unfold. */
const METHOD = /^<(function|staticmethod|classmethod|property|built-in) /;

const TEXT_MATCHES: Record<string, readonly HeapBox['kind'][]> = {
  list: ['list'],
  tuple: ['tuple'],
  set: ['set'],
  frozenset: ['frozenset'],
  dict: ['dict'],
  object: ['instance'],
};

/** The rows an unfolded value shows: its parts read from its repr (objectRepr.ts), or, where the
 * repr has none to read (a class's own `__repr__`, `Name(...)` past the attribute form's depth),
 * from its box; each part that is an object says so when another path reached it first, and an
 * instance's class's attributes follow its own. `box`: the value's object where the heap shows it. */
export function unfoldRows(text: string, heap: { boxes: ReadonlyMap<number, HeapBox>; paths: ReadonlyMap<number, string> } | null, boxId: number | null, path: string, limit = 200): Unfold {
  const box = boxId !== null ? (heap?.boxes.get(boxId) ?? null) : null;
  const parsed = parseRepr(text);
  const fromText = reprChildren(text, limit);
  const items = box ? boxItems(box, path).filter((it) => it.label !== '__class__') : [];
  const same = (cell: HeapCell | null, at: string): string | null => {
    if (!heap || !cell || !('ref' in cell)) return null;
    const first = heap.paths.get(cell.ref);
    return first !== undefined && first !== at ? `same object as ${first}` : null;
  };
  const shownBox = (cell: HeapCell | null): number | null => (heap && cell && 'ref' in cell && heap.boxes.has(cell.ref) ? cell.ref : null);
  let rows: UnfoldRow[];
  if (fromText) {
    const matches = box !== null && (TEXT_MATCHES[parsed.kind] ?? []).includes(box.kind);
    rows = fromText.map((r, i) => {
      const item = !matches || r.name === TRUNCATION_MARK ? undefined : box!.kind === 'instance' ? items.find((it) => it.label === r.name) : items[i];
      const at = item?.path ?? childPath(path, parsed.kind, r.name, i);
      const cell = item?.cell ?? null;
      return { name: r.name, value: r.value, box: shownBox(cell), path: at, same: same(cell, at) };
    });
  } else if (box) {
    rows = items.map((it) => ({ name: it.label, value: cellText(heap!.boxes, it.cell), box: shownBox(it.cell), path: it.path, same: same(it.cell, it.path) }));
    if (box.more) rows.push({ name: TRUNCATION_MARK, value: `${box.more} more`, box: null, path, same: null });
  } else rows = [];
  let className: string | null = null;
  if (box?.kind === 'instance' && box.cls !== undefined) {
    const cls = heap!.boxes.get(box.cls);
    if (cls?.kind === 'class') {
      className = cls.type;
      for (const it of boxItems(cls, cls.type)) {
        // its data, not its methods (the heap's box of the class shows those)
        if (it.label.startsWith('__') || ('v' in it.cell && METHOD.test(it.cell.v))) continue;
        rows.push({ name: it.label, value: cellText(heap!.boxes, it.cell), box: shownBox(it.cell), path: it.path, same: same(it.cell, it.path), group: 'class' });
      }
    }
  }
  return { header: box?.kind === 'instance' ? box.repr : null, className, rows };
}

function childPath(path: string, kind: string, name: string, i: number): string {
  if (kind === 'object') return `${path}.${name}`;
  if (kind === 'dict') return `${path}[${name}]`;
  if (kind === 'set' || kind === 'frozenset') return `list(${path})[${i}]`;
  return `${path}[${i}]`;
}

/** Whether a value unfolds: its repr has parts, or its box has (an instance always: its repr and
 * its class). */
export function unfolds(text: string, box: HeapBox | null | undefined): boolean {
  if (isExpandable(text)) return true;
  if (!box) return false;
  return box.kind === 'instance' || box.items.length > 0 || (box.more ?? 0) > 0;
}

// ---------------------------------------------------------------------------------------------
// A box as text (a class attribute's value in Variables' unfold)

/** How deep `boxText` writes boxes inside boxes before `…`. */
const TEXT_DEPTH = 4;
/** The default repr Python gives an instance whose class has no `__repr__` of its own. */
const DEFAULT_REPR = /^<[\w.]+ object at 0x…>$/;

/** A cell as text: its inline value, or its box written as Python would (`…` for an object the
 * view does not have). */
export function cellText(boxes: ReadonlyMap<number, HeapBox>, cell: HeapCell, depth = 0, active: Set<number> = new Set()): string {
  if ('v' in cell) return cell.v;
  const box = boxes.get(cell.ref);
  return box ? boxText(boxes, box, depth, active) : '…';
}

/** A box written as its repr would be: a list `[0, 5, 0]`, a dict, an instance in the attribute
 * form the Variables panel shows (`Pet(name='Rex')`) unless its class has a `__repr__` of its
 * own, a class `<class 'Pet'>`; a box inside itself as Python writes it (`[...]`). */
export function boxText(boxes: ReadonlyMap<number, HeapBox>, box: HeapBox, depth = 0, active: Set<number> = new Set()): string {
  if (box.kind === 'class') return `<class '${box.type}'>`;
  if (active.has(box.id)) return box.kind === 'list' ? '[...]' : box.kind === 'dict' ? '{...}' : box.kind === 'tuple' ? '(...)' : box.kind === 'instance' ? `${box.type}(...)` : '...';
  if (box.kind === 'instance' && !DEFAULT_REPR.test(box.repr)) return box.repr;
  if (depth >= TEXT_DEPTH) return box.kind === 'instance' ? `${box.type}(...)` : '…';
  active.add(box.id);
  try {
    const more = box.more ? [`…`] : [];
    const sub = (c: HeapCell): string => cellText(boxes, c, depth + 1, active);
    switch (box.kind) {
      case 'instance':
        return `${box.type}(${[...box.items.map(([n, c]) => `${n}=${sub(c)}`), ...more].join(', ')})`;
      case 'dict':
        return `{${[...box.items.map(([k, v]) => `${sub(k)}: ${sub(v)}`), ...more].join(', ')}}`;
      case 'list':
        return `[${[...box.items.map(sub), ...more].join(', ')}]`;
      case 'tuple':
        return box.items.length === 1 && !box.more ? `(${sub(box.items[0]!)},)` : `(${[...box.items.map(sub), ...more].join(', ')})`;
      case 'set':
        return box.items.length === 0 && !box.more ? 'set()' : `{${[...box.items.map(sub), ...more].join(', ')}}`;
      case 'frozenset':
        return box.items.length === 0 && !box.more ? 'frozenset()' : `frozenset({${[...box.items.map(sub), ...more].join(', ')}})`;
    }
  } finally {
    active.delete(box.id);
  }
}

/** A box's title, as Python Tutor heads it: `list`, `dict`, `Pet instance`, `Pet class`; a
 * subclass of a builtin container by its own name (`defaultdict`, `Point`). */
export function boxTitle(box: HeapBox): string {
  if (box.kind === 'instance') return `${box.type} instance`;
  if (box.kind === 'class') return `${box.type} class`;
  return box.type;
}
