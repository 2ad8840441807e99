// Where the heap view draws its arrows: names in one column, objects in the next, one row each,
// rows of a fixed height so that an arrow's ends are known without measuring the page.

import type { Heap, HeapObject } from '../core/objects';

export const HEAP_ROW_PX = 26;
export const HEAP_GAP_PX = 44;

export interface HeapArrow {
  /** The name's row and the object's row. */
  from: number;
  to: number;
  /** An SVG path from the names' column to the objects' (the gap is `HEAP_GAP_PX` wide). */
  d: string;
}

export interface HeapLayout {
  rows: number;
  /** The objects' column, row by row: each object on the row of the first name that refers to
   * it (so that arrow is straight), null where a row has none. */
  slots: (HeapObject | null)[];
  arrows: HeapArrow[];
}

export function heapLayout(heap: Heap): HeapLayout {
  const objectRow = new Map<number, number>();
  heap.refs.forEach((r, i) => {
    if (!objectRow.has(r.object)) objectRow.set(r.object, i);
  });
  const slots: (HeapObject | null)[] = heap.refs.map(() => null);
  for (const o of heap.objects) {
    const row = objectRow.get(o.id);
    if (row !== undefined) slots[row] = o;
  }
  const mid = (row: number): number => (row + 0.5) * HEAP_ROW_PX;
  const end = HEAP_GAP_PX - 2;
  const arrows = heap.refs.map((r, from) => {
    const to = objectRow.get(r.object) ?? from;
    const [y1, y2] = [mid(from), mid(to)];
    const c = HEAP_GAP_PX / 2;
    return { from, to, d: `M 2 ${y1} C ${c} ${y1}, ${c} ${y2}, ${end} ${y2}` };
  });
  return { rows: heap.refs.length, slots, arrows };
}

/** The kind of object a repr shows, for the object's label: `list`, `dict`, `set`, `Node`… */
export function objectKind(value: string): string {
  const v = value.trimStart();
  if (v.startsWith('[')) return 'list';
  if (v.startsWith('{')) return v === '{}' || hasTopLevelColon(v) ? 'dict' : 'set';
  const m = /^<?([A-Za-z_][\w.]*)/.exec(v);
  return m ? (m[1]!.split('.').pop() ?? 'object') : 'object';
}

/** Whether a `{…}` repr has a `:` outside its strings and nested brackets: a dict, not a set. */
function hasTopLevelColon(v: string): boolean {
  let depth = 0;
  let quote = '';
  for (let i = 0; i < v.length; i++) {
    const ch = v[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === ':' && depth === 1) return true;
  }
  return false;
}
