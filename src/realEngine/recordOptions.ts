// How a run is asked for: the options of one recording, and the same options as the tracer reads
// them (tracer.py's record(), by its keyword names).

import type { Edit } from '../core/whatIf';

export interface RecordOptions {
  /** The event budget; the program is stopped past it (default 10,000). */
  maxEvents?: number;
  /** Longest repr kept for a value, in characters. */
  maxRepr?: number;
  /** Wall-clock limit in seconds, checked by the tracer between events. */
  timeLimit?: number;
  /** What-if: assignments made in the live frame at given events (core/whatIf.ts). */
  edits?: readonly Edit[];
  /** Breakpoint conditions (line → Python expression), evaluated in the frame. */
  conditions?: Readonly<Record<number, string>>;
  /** Watch expressions, evaluated in the frame at every event. */
  watch?: readonly string[];
  /** One expression evaluated once, at one event (a debugger's `p expr` at a stop): its answer is
   * that event's `evaluated`. */
  evaluate?: EvaluateAt;
  /** Other modules of the program (name → source), importable while it runs: written into
   * Python's own memory, never read from the host by the engine. */
  modules?: Readonly<Record<string, string>>;
  /** A project's other files (relative path → text): its modules (`.py`, recorded like the main
   * file, each event naming its file) and its data files, written into Python's memory as
   * read-only copies for the run, the program's working directory (session/projectFiles.ts). */
  files?: Readonly<Record<string, string>>;
  /** Data files that are not UTF-8 text (relative path → base64). */
  blobs?: Readonly<Record<string, string>>;
  /** The main file's name relative to its project (`sys.argv[0]`, `files[0]` of the recording). */
  mainFile?: string;
  /** The program's arguments (`sys.argv[1:]`). */
  argv?: readonly string[];
  /** The program's input: `input()` reads it one line per call, echoed into the output, and
   * raises EOFError past its end. Absent: `input()` is refused with a message. */
  stdin?: string;
  /** Each event also says which names refer to one object (`ids`), and a function's events the
   * module's variables (`globals`): for the views, never the model's text. */
  objects?: boolean;
  /** With `objects`: the heap's boxes too (`heap`, trace.md), which only the app draws; the walk
   * costs up to a quarter of the run's time limit, so the other faces leave it out. */
  heap?: boolean;
}

/** An expression to evaluate at event `at`, in the frame numbered `frame` there (the event's own
 * frame or a caller's on the stack; absent: the event's frame). */
export interface EvaluateAt {
  at: number;
  expr: string;
  frame?: number;
  /** `expr` is a statement, run there (pdb's `!stmt`); the answer is what it printed. */
  statement?: boolean;
}

/** The options as tracer.py's `record` takes them, and the program's other modules, which the
 * engine writes for the run (answers.py). */
export interface TracerOptions {
  max_events?: number;
  max_repr?: number;
  time_limit?: number;
  edits?: readonly Edit[];
  conditions?: Readonly<Record<number, string>>;
  watch?: readonly string[];
  evaluate?: EvaluateAt;
  stdin?: string;
  modules?: Readonly<Record<string, string>>;
  objects?: boolean;
  heap?: boolean;
  files?: Readonly<Record<string, string>>;
  blobs?: Readonly<Record<string, string>>;
  main_file?: string;
  argv?: readonly string[];
}

export function tracerOptions(options: RecordOptions): TracerOptions {
  const py: TracerOptions = {};
  if (options.maxEvents !== undefined) py.max_events = options.maxEvents;
  if (options.maxRepr !== undefined) py.max_repr = options.maxRepr;
  if (options.timeLimit !== undefined) py.time_limit = options.timeLimit;
  if (options.edits?.length) py.edits = options.edits;
  if (options.conditions && Object.keys(options.conditions).length > 0) py.conditions = options.conditions;
  if (options.watch?.length) py.watch = options.watch;
  if (options.evaluate) py.evaluate = options.evaluate;
  if (options.stdin !== undefined) py.stdin = options.stdin;
  if (options.modules && Object.keys(options.modules).length > 0) py.modules = options.modules;
  if (options.objects) py.objects = true;
  if (options.objects && options.heap) py.heap = true;
  if (options.files && Object.keys(options.files).length > 0) py.files = options.files;
  if (options.blobs && Object.keys(options.blobs).length > 0) py.blobs = options.blobs;
  if (options.mainFile !== undefined) py.main_file = options.mainFile;
  if (options.argv?.length) py.argv = options.argv;
  return py;
}
