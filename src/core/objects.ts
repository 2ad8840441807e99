// What the views show of objects, read from a recording made with `objects` (trace.md): which
// shown names refer to one object (two names, one list: a lesson on aliasing), the module's
// variables beside a function's own, and the variables a closure shares with its enclosing
// function. Never part of the model's text: the model's format does not carry identity.

import type { Recording, TraceEvent } from './trace';

export interface ObjectsView {
  /** Each local that refers to the same object as other shown names: those names, in order
   * (locals first, then globals written `NAME (global)`). */
  sameAs: Record<string, string[]>;
  /** The module's variables in a function's frame (null at the module level, or unrecorded). */
  globals: Record<string, string> | null;
  /** As `sameAs`, for the globals. */
  globalSameAs: Record<string, string[]>;
  /** The locals that live in an enclosing function, and its name (null: none). */
  closure: { names: string[]; enclosing: string } | null;
  /** The names that refer to numbered objects, and those objects, each once (the heap view). */
  heap: Heap;
}

/** A name that refers to a numbered object: a local, or a global written `NAME (global)`. */
export interface HeapRef {
  shown: string;
  object: number;
}

/** One object, however many names refer to it: its number in the run (as in `ids`), its repr
 * and the names that refer to it, in the order of `refs`. */
export interface HeapObject {
  id: number;
  value: string;
  names: string[];
}

export interface Heap {
  refs: HeapRef[];
  objects: HeapObject[];
}

export const NO_OBJECTS: ObjectsView = { sameAs: {}, globals: null, globalSameAs: {}, closure: null, heap: { refs: [], objects: [] } };

/** The objects view of one event (the current stop, or a caller's latest event). */
export function objectsAt(rec: Recording, e: TraceEvent): ObjectsView {
  const named: { name: string; shown: string; id: number; global: boolean; value: string }[] = [];
  for (const [name, id] of Object.entries(e.ids ?? {}))
    if (name in e.locals) named.push({ name, shown: name, id, global: false, value: e.locals[name] ?? '' });
  for (const [name, id] of Object.entries(e.global_ids ?? {}))
    named.push({ name, shown: `${name} (global)`, id, global: true, value: e.globals?.[name] ?? '' });
  const sameAs: Record<string, string[]> = {};
  const globalSameAs: Record<string, string[]> = {};
  for (const n of named) {
    const others = named.filter((o) => o.id === n.id && o !== n).map((o) => (n.global && o.global ? o.name : o.shown));
    if (others.length > 0) (n.global ? globalSameAs : sameAs)[n.name] = others;
  }
  const code = rec.codes[e.code];
  const free = (code?.free ?? []).filter((name) => name in e.locals);
  return {
    sameAs,
    globals: e.globals ?? null,
    globalSameAs,
    closure: free.length > 0 ? { names: free, enclosing: code?.enclosing ?? '' } : null,
    heap: heapOf(named),
  };
}

/** Objects in the order their first name is shown: arrows from a column of names then cross as
 * little as they can. */
function heapOf(named: readonly { shown: string; id: number; value: string }[]): Heap {
  const objects = new Map<number, HeapObject>();
  for (const n of named) {
    const o = objects.get(n.id);
    if (o) o.names.push(n.shown);
    else objects.set(n.id, { id: n.id, value: n.value, names: [n.shown] });
  }
  return { refs: named.map((n) => ({ shown: n.shown, object: n.id })), objects: [...objects.values()] };
}

/** "same object as a", "same object as a, b". */
export function sameObjectText(names: readonly string[]): string {
  return `same object as ${names.join(', ')}`;
}
