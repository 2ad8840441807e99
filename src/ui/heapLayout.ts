// The heap as Python Tutor draws it, laid out in pixels: the stop's names in a column, each with
// its value inline or an arrow; each object once, as a box to the right (a list, tuple or set as a
// row of cells under their indices, a dict, an instance or a class as key | value rows under a
// title), the boxes an object refers to to its right, an arrow from each cell that refers to an
// object to that object's box, however many arrive there. Pure: the sizes come from a monospace
// character's advance, so the same heap is always laid out the same way, and a test can check
// where every arrow ends without a browser.

import { boxItems, boxTitle, type BoxItem } from '../core/heapGraph';
import type { Heap, HeapName } from '../core/objects';
import { visibleText } from '../core/terminalText';
import type { HeapBox, HeapCell } from '../core/trace';

/** Sizes in pixels (the text is 12 px monospace). */
export const HEAP_PX = {
  /** The advance of one character. */
  char: 7.25,
  /** A name's row, a key | value row, a sequence's cells. */
  row: 24,
  /** A box's title above it. */
  title: 17,
  /** A list's (a tuple's) indices above its cells. */
  index: 13,
  /** Text's padding inside a cell. */
  pad: 5,
  /** A cell that holds an arrow. */
  ref: 26,
  /** The widest cell of a sequence, key, value, name and an instance's repr line. */
  cell: 150,
  key: 120,
  value: 150,
  name: 170,
  /** A name's value written inline (`<class '__main__.Pet'>` is cut, whole in its tooltip). */
  nameValue: 120,
  repr: 300,
  /** Between the column of names and the first boxes, and between columns of boxes: the
   * arrows' room. */
  gap: 44,
  /** Between two boxes of a column. */
  space: 14,
  /** Above the first row: the headings. */
  top: 18,
  /** How far above a box an arrow that comes back over it (a cycle) rises, room allowing. */
  lift: 26,
  margin: 6,
} as const;

/** A rectangle of the drawing with its text. */
export interface HeapPart {
  kind: 'name' | 'value' | 'key' | 'cell' | 'index' | 'repr' | 'more' | 'empty';
  x: number;
  y: number;
  w: number;
  h: number;
  /** The text drawn, cut with `…` to fit (empty for a cell that holds an arrow). */
  text: string;
  /** The whole text, for a tooltip. */
  full: string;
  /** A name of the module's variables (tagged `(global)` apart from its text). */
  global?: boolean;
  /** The object an arrow from this cell's centre leads to. */
  ref?: number;
  /** That object is not shown (the recording's walk of the heap stopped at its cap). */
  missing?: boolean;
}

export interface LaidBox {
  id: number;
  box: HeapBox;
  /** `list`, `dict`, `Pet instance`, `Pet class`. */
  title: string;
  /** How the program reaches it first (`grid[0]`), or `#3`. */
  path: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** Where the cells begin, below the title (and a list's indices). */
  body: number;
  /** Where arrows into it end. */
  anchor: { x: number; y: number };
  parts: HeapPart[];
  /** Its column: 0 for the objects the names refer to, 1 for theirs, … */
  column: number;
}

export interface HeapArrow {
  /** What refers: `grid`, `grid[0]`, `rex.tricks`. */
  from: string;
  to: number;
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The SVG path, ending at the box (its left side, or its top for a box at the left). */
  d: string;
  /** In words, for screen readers: "grid[0] refers to object #2, a list". */
  label: string;
}

export interface HeapLayout {
  width: number;
  height: number;
  /** The column of names: its width, and each name's row (a `name` part and a `value` part). */
  names: { w: number; parts: HeapPart[] };
  /** Where the objects' column begins (its heading). */
  objectsX: number;
  boxes: LaidBox[];
  arrows: HeapArrow[];
}

const P = HEAP_PX;
const GLOBAL_TAG = ' (global)';

function textWidth(text: string, most: number, least = 0): number {
  return Math.max(least, Math.min(most, Math.ceil(text.length * P.char + 2 * P.pad)));
}

/** The text cut with `…` to fit `w` pixels of a cell. */
export function fitText(text: string, w: number): string {
  const room = Math.max(1, Math.floor((w - 2 * P.pad) / P.char));
  return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`;
}

/** A cell's inline text; a function by its own name (`<function Pet.speak>` in the box of `Pet`
 * is `<function speak>`, the whole repr in its tooltip). */
function cellText(cell: HeapCell): string {
  if ('ref' in cell) return '';
  const fn = /^<function (?:[\w<>]+\.)+(\w+)>$/.exec(cell.v);
  return visibleText(fn ? `<function ${fn[1]}>` : cell.v);
}

function cellWidth(cell: HeapCell, most: number): number {
  return 'ref' in cell ? P.ref : textWidth(cellText(cell), most, P.ref);
}

/** A box's parts relative to its top left, its size and the anchor's height. */
interface Shape {
  w: number;
  h: number;
  body: number;
  anchorY: number;
  /** Parts at (x, y) relative to the box; the refs' paths beside them. */
  parts: HeapPart[];
  paths: Map<HeapPart, string>;
}

function part(kind: HeapPart['kind'], x: number, y: number, w: number, h: number, full: string, extra: Partial<HeapPart> = {}): HeapPart {
  return { kind, x, y, w, h, text: fitText(full, w), full, ...extra };
}

function cellPart(kind: 'cell' | 'value' | 'key', cell: HeapCell, x: number, y: number, w: number, shown: ReadonlySet<number>): HeapPart {
  if ('ref' in cell) {
    const missing = !shown.has(cell.ref);
    return { kind, x, y, w, h: P.row, text: missing ? '…' : '', full: missing ? `object #${cell.ref}, not shown` : `object #${cell.ref}`, ref: cell.ref, ...(missing ? { missing } : {}) };
  }
  return { ...part(kind, x, y, w, P.row, cellText(cell)), full: visibleText(cell.v) };
}

function sequenceShape(box: Extract<HeapBox, { kind: 'list' | 'tuple' | 'set' | 'frozenset' }>, path: string, shown: ReadonlySet<number>): Shape {
  const indexed = box.kind === 'list' || box.kind === 'tuple';
  const body = P.title + (indexed ? P.index : 0);
  const parts: HeapPart[] = [];
  const paths = new Map<HeapPart, string>();
  const items = boxItems(box, path);
  let x = 0;
  items.forEach((item, i) => {
    const w = cellWidth(item.cell, P.cell);
    if (indexed) parts.push(part('index', x, P.title, w, P.index, String(i)));
    const p = cellPart('cell', item.cell, x, body, w, shown);
    parts.push(p);
    paths.set(p, item.path);
    x += w;
  });
  if (box.more) {
    const more = `+${box.more} more`;
    const w = textWidth(more, P.cell);
    parts.push(part('more', x, body, w, P.row, more));
    x += w;
  }
  if (items.length === 0 && !box.more) {
    const w = textWidth('empty', P.cell);
    parts.push(part('empty', x, body, w, P.row, 'empty'));
    x += w;
  }
  const w = Math.max(x, textWidth(boxTitle(box), P.repr) - P.pad);
  return { w, h: body + P.row, body, anchorY: body + P.row / 2, parts, paths };
}

function keyedShape(box: Extract<HeapBox, { kind: 'dict' | 'instance' | 'class' }>, path: string, shown: ReadonlySet<number>): Shape {
  const rows: { key: HeapCell | string; value: HeapCell; path: string }[] = [];
  if (box.kind === 'dict') {
    box.items.forEach(([k, v]) => rows.push({ key: k, value: v, path: `${path}[${'v' in k ? k.v : '…'}]` }));
  } else {
    for (const item of boxItems(box, path) as BoxItem[]) rows.push({ key: item.label, value: item.cell, path: item.path });
  }
  const keyText = (k: HeapCell | string): string => (typeof k === 'string' ? visibleText(k) : cellText(k));
  const keyW = Math.max(P.ref, ...rows.map((r) => (typeof r.key === 'string' ? textWidth(keyText(r.key), P.key) : cellWidth(r.key, P.key))));
  const valueW = Math.max(P.ref, ...rows.map((r) => cellWidth(r.value, P.value)));
  const repr = box.kind === 'instance' ? visibleText(box.repr) : null;
  const more = box.more ? `+${box.more} more` : null;
  const empty = rows.length === 0 && !more ? 'empty' : null;
  const w = Math.max(keyW + valueW, repr !== null ? textWidth(repr, P.repr) : 0, textWidth(boxTitle(box), P.repr) - P.pad, more ? textWidth(more, P.repr) : 0);
  const parts: HeapPart[] = [];
  const paths = new Map<HeapPart, string>();
  let y = P.title;
  if (repr !== null) {
    parts.push(part('repr', 0, y, w, P.row, repr));
    y += P.row;
  }
  const first = y;
  // the value column takes what the keys leave
  const vw = w - keyW;
  for (const r of rows) {
    if (typeof r.key === 'string') parts.push(part('key', 0, y, keyW, P.row, keyText(r.key)));
    else {
      const k = cellPart('key', r.key, 0, y, keyW, shown);
      parts.push(k);
      if ('ref' in r.key) paths.set(k, `list(${path})`);
    }
    const v = cellPart('value', r.value, keyW, y, vw, shown);
    parts.push(v);
    paths.set(v, r.path);
    y += P.row;
  }
  if (more) {
    parts.push(part('more', 0, y, w, P.row, more));
    y += P.row;
  }
  if (empty) {
    parts.push(part('empty', 0, y, w, P.row, empty));
    y += P.row;
  }
  return { w, h: y, body: P.title, anchorY: (repr !== null ? P.title : first) + P.row / 2, parts, paths };
}

function shapeOf(box: HeapBox, path: string, shown: ReadonlySet<number>): Shape {
  return box.kind === 'dict' || box.kind === 'instance' || box.kind === 'class' ? keyedShape(box, path, shown) : sequenceShape(box, path, shown);
}

function nameText(n: HeapName): string {
  return visibleText(n.name);
}

/** Lays out the heap: the names, then the objects in columns, children to the right. */
export function heapLayout(heap: Heap): HeapLayout {
  const shown = new Set(heap.boxes.keys());
  const names = heap.names;
  const nameW = Math.max(40, ...names.map((n) => textWidth(nameText(n) + (n.global ? GLOBAL_TAG : ''), P.name)));
  const hasBox = (n: HeapName): boolean => n.object !== null && shown.has(n.object);
  const valueW = Math.max(P.ref, ...names.map((n) => (hasBox(n) ? P.ref : textWidth(visibleText(n.value), P.nameValue))));
  const namesW = nameW + valueW;
  const pathOf = (id: number): string => heap.paths.get(id) ?? `#${id}`;
  const shapes = new Map<number, Shape>();
  for (const [id, box] of heap.boxes) shapes.set(id, shapeOf(box, pathOf(id), shown));

  // The tree the boxes are placed by: each box under the first that reaches it, breadth first.
  const column = new Map<number, number>();
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  const queue: number[] = [];
  for (const n of names) {
    if (hasBox(n) && !column.has(n.object!)) {
      column.set(n.object!, 0);
      roots.push(n.object!);
      queue.push(n.object!);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    const kids: number[] = [];
    for (const p of shapes.get(id)!.parts) {
      if (p.ref !== undefined && shown.has(p.ref) && !column.has(p.ref)) {
        column.set(p.ref, column.get(id)! + 1);
        kids.push(p.ref);
        queue.push(p.ref);
      }
    }
    children.set(id, kids);
  }
  // Boxes no name reaches through shown boxes (none, as the recording walks): a column of their own.
  for (const id of shapes.keys()) {
    if (!column.has(id)) {
      column.set(id, 0);
      roots.push(id);
      children.set(id, []);
    }
  }

  const columns = Math.max(0, ...column.values()) + 1;
  const colW = Array.from({ length: columns }, () => 0);
  for (const [id, c] of column) colW[c] = Math.max(colW[c]!, shapes.get(id)!.w);
  const colX: number[] = [];
  let x = namesW + P.gap;
  for (let c = 0; c < columns; c++) {
    colX.push(x);
    x += colW[c]! + P.gap;
  }
  // An arrow to a box at its left (a cycle, an object met again) comes over the box's top.
  const backward = (fromX: number, to: number): boolean => colX[column.get(to)!]! <= fromX + 8;
  const top = P.top;

  // The column of names, starting low enough that the first name's box stands level with it.
  const nameParts: HeapPart[] = [];
  const sources: { part: HeapPart; from: string }[] = [];
  const firstBox = names.find(hasBox);
  const namesTop = top + Math.max(0, firstBox ? shapes.get(firstBox.object!)!.anchorY - P.row / 2 : 0);
  names.forEach((n, i) => {
    const y = namesTop + i * P.row;
    nameParts.push({ ...part('name', 0, y, nameW, P.row, nameText(n)), text: fitText(nameText(n), nameW - (n.global ? GLOBAL_TAG.length * P.char : 0)), ...(n.global ? { global: true } : {}) });
    const value: HeapPart = hasBox(n) ? { kind: 'value', x: nameW, y, w: valueW, h: P.row, text: '', full: `object #${n.object}`, ref: n.object! } : part('value', nameW, y, valueW, P.row, visibleText(n.value));
    nameParts.push(value);
    if (value.ref !== undefined) sources.push({ part: value, from: n.name });
  });

  // Each box as high as the cell that first refers to it allows (a list's items' boxes below the
  // list, so that the arrows from its cells are told apart), below the boxes above it in its
  // column, in the order of a walk down the tree (a box's subtree before the next box).
  const nextY = Array.from({ length: columns }, (): number => top);
  const laid = new Map<number, LaidBox>();
  const place = (id: number, wantY: number): void => {
    const shape = shapes.get(id)!;
    const c = column.get(id)!;
    const y = Math.max(nextY[c]!, Math.round(wantY - shape.anchorY));
    nextY[c] = y + shape.h + P.space;
    const bx = colX[c]!;
    const box: LaidBox = {
      id,
      box: heap.boxes.get(id)!,
      title: boxTitle(heap.boxes.get(id)!),
      path: pathOf(id),
      x: bx,
      y,
      w: shape.w,
      h: shape.h,
      body: y + shape.body,
      anchor: { x: bx, y: y + shape.anchorY },
      parts: shape.parts.map((p) => ({ ...p, x: p.x + bx, y: p.y + y })),
      column: c,
    };
    laid.set(id, box);
    const below = isSequence(box.box);
    for (const kid of children.get(id) ?? []) {
      const from = box.parts.find((p) => p.ref === kid)!;
      place(kid, below ? box.y + box.h + P.space + shapes.get(kid)!.anchorY : from.y + from.h / 2);
    }
  };
  for (const id of roots) {
    const from = nameParts.find((p) => p.ref === id);
    place(id, from ? from.y + from.h / 2 : top);
  }

  // The arrows: from every cell that refers to a shown object, in the order drawn.
  const arrows: HeapArrow[] = [];
  const arrow = (p: HeapPart, from: string, down: boolean): void => {
    const target = p.ref !== undefined ? laid.get(p.ref) : undefined;
    if (!target) return;
    const x1 = p.x + p.w / 2;
    const y1 = p.y + p.h / 2;
    let x2: number;
    let y2: number;
    let d: string;
    if (!backward(x1, target.id)) {
      // to its left side, level with its first row; from a list's cell, first down out of it
      x2 = target.anchor.x;
      y2 = target.anchor.y;
      const c = Math.max(12, Math.min(60, (x2 - x1) / 2));
      d = down
        ? `M ${x1} ${y1} C ${x1} ${y1 + Math.max(P.row, (y2 - y1) * 0.8)}, ${x2 - c} ${y2}, ${x2} ${y2}`
        : `M ${x1} ${y1} C ${x1 + c} ${y1}, ${x2 - c} ${y2}, ${x2} ${y2}`;
    } else {
      // a box at the left (a cycle, an object seen again): over the top, into its title
      x2 = target.x + Math.min(14, target.w / 2);
      y2 = target.y + 2;
      const lift = Math.max(2, Math.min(y1, y2) - P.lift + 4);
      d = `M ${x1} ${y1} C ${x1 + 24} ${lift}, ${x2} ${lift}, ${x2} ${y2}`;
    }
    arrows.push({ from, to: target.id, x1, y1, x2, y2, d, label: `${from} refers to object #${target.id}, ${article(target.title)}` });
  };
  for (const s of sources) arrow(s.part, s.from, false);
  for (const box of laid.values()) {
    const shape = shapes.get(box.id)!;
    const down = isSequence(box.box);
    box.parts.forEach((p, i) => {
      if (p.ref !== undefined) arrow(p, shape.paths.get(shape.parts[i]!) ?? box.path, down);
    });
  }

  const boxes = [...laid.values()];
  const width = Math.ceil(Math.max(namesW, ...boxes.map((b) => b.x + b.w)) + P.margin);
  const height = Math.ceil(Math.max(namesTop + names.length * P.row, ...boxes.map((b) => b.y + b.h)) + P.margin);
  return { width, height, names: { w: namesW, parts: nameParts }, objectsX: colX[0] ?? namesW + P.gap, boxes, arrows };
}

function isSequence(box: HeapBox): boolean {
  return box.kind === 'list' || box.kind === 'tuple' || box.kind === 'set' || box.kind === 'frozenset';
}

function article(title: string): string {
  return `${/^[aeiou]/i.test(title) ? 'an' : 'a'} ${title}`;
}
