// The recording made by the tracer (src/realEngine/python/tracer.py); docs/trace.md describes every field.
// The schema every other part of core reads: it imports nothing.

export type EventKind = 'call' | 'line' | 'return' | 'exception';

export interface TraceEvent {
  event: EventKind;
  line: number;
  function: string;
  /** Call-stack depth among the user's frames; the entry function (or module) is 0. */
  depth: number;
  /** Identity of the Python frame object: stable across the resumptions of a generator. */
  frame: number;
  /** The frame's f_back when that is a user frame, else -1. */
  parent: number;
  /** Index into Recording.codes. */
  code: number;
  locals: Record<string, string>;
  /** Length of the program's stdout when the event happened. */
  out: number;
  /** Length of the program's stderr (warnings, logging) so far; absent while there is none. */
  err?: number;
  /** repr of the returned value, or of the exception at exception events. */
  value?: string;
  exc_type?: string;
  exc_tb_none?: boolean;
  /** A return event of a frame that an exception is leaving. */
  raising?: boolean;
  /** A return event of a generator (or coroutine) suspended at a yield (an await), not ended:
   * Python's words for it. pdb stops at it as at any return. */
  yield?: boolean;
  /** A call event of a generator (or coroutine) frame resumed after a yield (an await). */
  resume?: boolean;
  /** What-if: assignments made in the frame at this stop (its `locals` are after them). */
  edits?: EditMark[];
  /** At a line event of a breakpoint with a condition: whether it held (true when it raised). */
  hit?: boolean;
  hit_error?: string;
  /** The recording's watch expressions evaluated in the frame, in their order. */
  watch?: WatchValue[];
  /** A run asked to evaluate one expression at one stop (RecordOptions.evaluate): its answer, on
   * that event only. */
  evaluated?: WatchValue;
  /** len() of the locals whose repr was cut at the cap (str, bytes and builtin containers only). */
  sizes?: Record<string, number>;
  /** len() of `value` when its repr was cut, as for `sizes`. */
  value_size?: number;
  /** Recorded with `objects` (the app's views, never the model's text): the object each local
   * refers to, numbered in the order first seen; two names with one number are one object.
   * Immutable builtins (numbers, strings, tuples) and definitions have none. */
  ids?: Record<string, number>;
  /** Recorded with `objects`, in a function's frame: the module's variables it reads or writes,
   * or shares an object with (not functions, classes or modules), as reprs, and their objects'
   * numbers. */
  globals?: Record<string, string>;
  global_ids?: Record<string, number>;
  /** Recorded with `objects`: the boxes of the heap graph reachable from `ids` and `global_ids`
   * whose description changed since the recording last sent them (core/heapGraph.ts folds them
   * into each event's graph). */
  heap?: HeapBox[];
  /** Recorded with `objects`, where the walk of the heap stopped at its cap (or failed): the
   * numbers of the boxes it reached, the only ones the event's graph shows. */
  heap_cut?: number[];
  /** Recorded with `objects`, on the first event where the tracer no longer walked the heap: the
   * walk had taken its share of the run's time limit (docs/trace.md). This event and every later
   * one have no boxes: the views say the heap is not drawn there, never an older picture. */
  heap_stopped?: true;
}

/** An item of a heap box: a value written inline (`{v: '5'}`: numbers, strings, None, tuples of
 * values, functions) or an arrow to another box (`{ref: 3}`). */
export type HeapCell = { v: string } | { ref: number };

interface HeapBoxBase {
  /** The object's number, as in `ids`. */
  id: number;
  /** Its class's name: `list`, `dict`, `Pet`, `defaultdict`. */
  type: string;
  /** Items left out past the tracer's cap of items in a box. */
  more?: number;
}

/** One object of the heap graph (docs/trace.md, `heap`). */
export type HeapBox =
  | (HeapBoxBase & { kind: 'list' | 'tuple' | 'set' | 'frozenset'; items: HeapCell[] })
  | (HeapBoxBase & { kind: 'dict'; items: [HeapCell, HeapCell][] })
  /** An instance: Python's own repr (the program's `__repr__`, or `<__main__.Pet object at 0x…>`),
   * its attributes, and its class's box where the class is the program's. */
  | (HeapBoxBase & { kind: 'instance'; repr: string; items: [string, HeapCell][]; cls?: number })
  /** A class of the program: what its body defines (functions inline), and its bases that are
   * the program's classes. */
  | (HeapBoxBase & { kind: 'class'; items: [string, HeapCell][]; bases?: number[] });

export interface EditMark {
  name: string;
  expr: string;
  /** repr of the assigned value. */
  value: string;
}

export type WatchValue = { value: string } | { error: string };

/** Facts about a program known without running it (the tracer compiles the source:
 * docs/trace.md, `program`). */
export interface ProgramShape {
  /** Lines that hold code, in every code object (where line, return and exception events are). */
  lines: readonly number[];
  /** Lines a call event can be at: 0 for the module, each function's and class body's first line,
   * and every line of a generator or coroutine (a resumed one calls at its yield). */
  calls: readonly number[];
  /** Each code object's frame (recordings since issue 45): its first line (0 for the module), the
   * lines of its code, and the names its locals can have (null: any name, where the code makes
   * names its bytecode does not spell, as `from m import *` or `globals()[…]` do). */
  frames?: readonly FrameShape[];
}

export interface FrameShape {
  first: number;
  lines: readonly number[];
  names: readonly string[] | null;
}

export interface CodeInfo {
  name: string;
  /** `co_qualname` where it differs from `name` (a method `Frozen.rate`, a nested function
   * `outer.<locals>.inner`): what the faces' stack views show (core/state.ts, frameEvents). */
  qualname?: string;
  firstline: number;
  lines: number[];
  generator: boolean;
  /** Recorded with `objects`: the variables of an enclosing function this one uses (`nonlocal`
   * or read), and that function's name. */
  free?: string[];
  enclosing?: string;
  /** Index into Recording.files of the file the code is in (absent: the main file, 0). */
  file?: number;
}

export type ExitStatus =
  | 'normal'
  | 'exception'
  | 'budget'
  | 'timeout'
  | 'syntax_error'
  | 'call_error'
  | 'error'
  /** A what-if edit could not be made (the expression raised, or the name is not a local). */
  | 'edit_error';

export interface ExitInfo {
  status: ExitStatus;
  /** The program ended by raising SystemExit (`sys.exit(…)`, `exit()`, `raise SystemExit`): status
   * `normal`, and the exit code Python would end with (None: 0, an int: itself, anything else: 1,
   * its text written to stderr). Absent when the program ran to its end. */
  exit_code?: number;
  message?: string;
  value?: string;
  line?: number;
  column?: number;
  exc_type?: string;
}

export interface Recording {
  source: string;
  call: string;
  events: TraceEvent[];
  codes: CodeInfo[];
  /** What a stop can be, known from the compiled source (absent when it did not compile, and in
   * recordings made before it existed). */
  program?: ProgramShape;
  stdout: string;
  stdout_truncated?: boolean;
  /** With `stdout_truncated`: how many characters the program really wrote. */
  stdout_total?: number;
  /** What the program wrote to stderr (warnings, logging); absent when nothing. */
  stderr?: string;
  exit: ExitInfo;
  /** A program of several files: the main file's name, then the other modules recorded, each
   * relative to the project's folder (a code's `file` indexes it). Absent: one file, `main.py`. */
  files?: string[];
  /** The other files' sources by name, as they were handed in (added by the host that asked for
   * the run, not written by the tracer). */
  sources?: Record<string, string>;
  /** The first input() past the end of the run's input (runs given an input only): `at`, the
   * index of the next event (the exception in the frame that called input()), and its prompt. */
  input_wanted?: InputWanted;
}

export interface InputWanted {
  at: number;
  prompt: string;
}

/** A place in a recording: -1 before the first event ("entry"), events.length after the last ("exit"). */
export type Position = number;

export const ENTRY: Position = -1;

export function exitPosition(rec: Recording): Position {
  return rec.events.length;
}
