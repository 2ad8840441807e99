// What the views show of objects, read from a recording made with `objects` (trace.md): which
// shown names refer to one object (two names, one list: a lesson on aliasing), the module's
// variables beside a function's own, and the variables a closure shares with its enclosing
// function. Never part of the model's text: the model's format does not carry identity.
// A local and a global are told apart by a field, never by the name's text: a program can name a
// local `g (global)` (through `f_locals` or `globals()`), and it is shown as that name.

import { firstPaths, heapBoxesAt } from './heapGraph';
import { hasOwnName, own } from './names';
import type { HeapBox, Recording, TraceEvent } from './trace';

/** A name as the views show it: a local of the frame, or one of the module's variables. */
export interface ShownName {
  name: string;
  global: boolean;
}

export interface ObjectsView {
  /** Each local that refers to the same object as other shown names: those names, in order
   * (locals first, then globals). */
  sameAs: ReadonlyMap<string, readonly ShownName[]>;
  /** The module's variables in a function's frame (null at the module level, or unrecorded). A
   * group of its own, never mixed with the locals. */
  globals: Readonly<Record<string, string>> | null;
  /** As `sameAs`, for the globals. */
  globalSameAs: ReadonlyMap<string, readonly ShownName[]>;
  /** The locals that live in an enclosing function, and its name (null: none). */
  closure: { names: string[]; enclosing: string } | null;
  /** Every shown name and the objects they reach, each once (the heap view). */
  heap: Heap;
}

/** A name that refers to a numbered object: a local, or a global. */
export interface HeapRef extends ShownName {
  object: number;
}

/** A name as the heap's column of names shows it: its object's number (null: a value written
 * inline, a number or a string) and its value's repr. */
export interface HeapName extends ShownName {
  object: number | null;
  value: string;
}

/** The heap of a stop as Python Tutor draws it (core/heapGraph.ts): every shown name, locals
 * first, and the boxes reachable from them, each object once. */
export interface Heap {
  names: HeapName[];
  /** The names that refer to numbered objects. */
  refs: HeapRef[];
  /** The boxes, by object number, in the order a walk from the names reaches them. */
  boxes: ReadonlyMap<number, HeapBox>;
  /** How the program first reaches each object from the names ("grid[0]"): what "same object
   * as …" says of an item. */
  paths: ReadonlyMap<number, string>;
  /** The tracer's walk stopped at its cap: some arrows lead to objects not shown. */
  cut: boolean;
  /** The heap is not drawn here: the tracer stopped walking it at this event (an index), where
   * drawing it further would have cost the run its time limit (heapGraph.ts). Null: drawn. */
  stopped: number | null;
}

export const NO_HEAP: Heap = { names: [], refs: [], boxes: new Map(), paths: new Map(), cut: false, stopped: null };

export const NO_OBJECTS: ObjectsView = { sameAs: new Map(), globals: null, globalSameAs: new Map(), closure: null, heap: NO_HEAP };

/** The objects view of one event (the current stop, or a caller's latest event). */
export function objectsAt(rec: Recording, e: TraceEvent): ObjectsView {
  const named: { name: string; id: number; global: boolean; value: string }[] = [];
  for (const [name, id] of Object.entries(e.ids ?? {}))
    if (hasOwnName(e.locals, name)) named.push({ name, id, global: false, value: own(e.locals, name) ?? '' });
  for (const [name, id] of Object.entries(e.global_ids ?? {})) named.push({ name, id, global: true, value: own(e.globals, name) ?? '' });
  const sameAs = new Map<string, ShownName[]>();
  const globalSameAs = new Map<string, ShownName[]>();
  for (const n of named) {
    const others = named.filter((o) => o.id === n.id && o !== n).map((o) => ({ name: o.name, global: o.global }));
    if (others.length > 0) (n.global ? globalSameAs : sameAs).set(n.name, others);
  }
  const code = rec.codes[e.code];
  const free = (code?.free ?? []).filter((name) => hasOwnName(e.locals, name));
  return {
    sameAs,
    globals: e.globals ?? null,
    globalSameAs,
    closure: free.length > 0 ? { names: free, enclosing: code?.enclosing ?? '' } : null,
    heap: heapOf(rec, e, named),
  };
}

/** Every shown name (locals in their order, then the globals) and the boxes reachable from them. */
function heapOf(rec: Recording, e: TraceEvent, named: readonly { name: string; global: boolean; id: number }[]): Heap {
  const object = (name: string, global: boolean): number | null => named.find((n) => n.name === name && n.global === global)?.id ?? null;
  const names: HeapName[] = [
    ...Object.entries(e.locals).map(([name, value]) => ({ name, global: false, object: object(name, false), value })),
    ...Object.entries(e.globals ?? {}).map(([name, value]) => ({ name, global: true, object: object(name, true), value })),
  ];
  const refs = named.map((n) => ({ name: n.name, global: n.global, object: n.id }));
  const { boxes, cut, stopped } = heapBoxesAt(rec, rec.events.indexOf(e), refs.map((r) => r.object));
  return { names, refs, boxes, paths: firstPaths(names, boxes), cut, stopped };
}

/** The module's variables shown beside a function's locals that a local of the same name hides
 * there: inside the function the name is its local, and the global keeps its own value. */
export function hiddenGlobals(view: ObjectsView, locals: Readonly<Record<string, string>>): Set<string> {
  return new Set(Object.keys(view.globals ?? {}).filter((name) => hasOwnName(locals, name)));
}

/** A shown name in words: `a`, or `nums (global)` for a global where `tagGlobals` (a local's
 * note; the Globals group writes its own names bare). For titles and screen readers: the panels
 * draw the tag apart from the name. */
export function shownNameText(n: ShownName, tagGlobals = true): string {
  return n.global && tagGlobals ? `${n.name} (global)` : n.name;
}

/** "same object as a", "same object as a, nums (global)". */
export function sameObjectText(names: readonly ShownName[], tagGlobals = true): string {
  return `same object as ${names.map((n) => shownNameText(n, tagGlobals)).join(', ')}`;
}

/** A key for a keyed list of shown names that two shown names never share: a local and a global
 * of one name (or a local named like a global's label) get different keys. */
export function shownNameKey(n: ShownName): string {
  return `${n.global ? 'g' : 'l'}:${n.name}`;
}
