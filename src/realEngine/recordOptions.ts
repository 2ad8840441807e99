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
  /** Other modules of the program (name → source), importable while it runs: written into
   * Python's own memory, never read from the host by the engine. */
  modules?: Readonly<Record<string, string>>;
  /** The program's input: `input()` reads it one line per call, echoed into the output, and
   * raises EOFError past its end. Absent: `input()` is refused with a message. */
  stdin?: string;
  /** Each event also says which names refer to one object (`ids`), and a function's events the
   * module's variables (`globals`): for the views, never the model's text. */
  objects?: boolean;
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
  stdin?: string;
  modules?: Readonly<Record<string, string>>;
  objects?: boolean;
}

export function tracerOptions(options: RecordOptions): TracerOptions {
  const py: TracerOptions = {};
  if (options.maxEvents !== undefined) py.max_events = options.maxEvents;
  if (options.maxRepr !== undefined) py.max_repr = options.maxRepr;
  if (options.timeLimit !== undefined) py.time_limit = options.timeLimit;
  if (options.edits?.length) py.edits = options.edits;
  if (options.conditions && Object.keys(options.conditions).length > 0) py.conditions = options.conditions;
  if (options.watch?.length) py.watch = options.watch;
  if (options.stdin !== undefined) py.stdin = options.stdin;
  if (options.modules && Object.keys(options.modules).length > 0) py.modules = options.modules;
  if (options.objects) py.objects = true;
  return py;
}
