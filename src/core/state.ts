// The debugger state shown to users and printed by the CLI: one stop of the debugger.

import { hasOwnName, own } from './names';
import { eventFile, filesOf, sourceOfFile } from './location';
import { sourceLines } from './sourceLines';
import { tracebackOf as tracebackEntries } from './traceback';
import type { EditMark, ExitStatus, Position, Recording, TraceEvent } from './trace';

export interface EventState {
  event: TraceEvent['event'];
  /** The file the stop is in, relative to the program's folder (a program of several files). */
  file?: string;
  line: number;
  function: string;
  depth: number;
  locals: Record<string, string>;
  value?: string;
  /** The return event of a frame left by an exception. */
  raising?: boolean;
  /** A return that is a yield (an await): the generator is suspended, not ended (trace.md). */
  yielded?: boolean;
  /** A call that resumes a generator (a coroutine) after its yield (its await). */
  resumed?: boolean;
  stdout: string;
  /** What-if: the edits made at this stop (`locals` holds the values after them). */
  edits?: EditMark[];
  /** len() of the locals the tracer cut (trace.md, "Values"). */
  sizes?: Record<string, number>;
  /** len() of `value` when the tracer cut it. */
  valueSize?: number;
  /** The output had reached its cap (trace.md) by this stop: `stdout` is cut. */
  stdout_truncated?: true;
  /** A breakpoint condition on this line raised (bdb stops there): its error. */
  condition_error?: string;
}

export interface EntryState {
  event: 'entry';
}

export interface ExitState {
  event: 'exit';
  status: ExitStatus;
  /** The program ended through SystemExit (`sys.exit(N)`): its exit code (trace.ts, ExitInfo). */
  exit_code?: number;
  message?: string;
  value?: string;
  stdout: string;
  /** An uncaught exception: the frames it passed through, outermost first, each at the line it
   * left from (the last is where it was raised). */
  traceback?: TracebackFrame[];
  /** A traceback longer than TRACEBACK_LONG (a runaway recursion) keeps its first and last
   * TRACEBACK_ENDS frames: how many frames it had in all, and how many are left out between. */
  traceback_total?: number;
  traceback_omitted?: number;
  /** The output was cut at its cap: `stdout` holds the first part of `stdout_total` characters. */
  stdout_truncated?: true;
  stdout_total?: number;
}

export interface TracebackFrame {
  function: string;
  /** The frame's file, relative to the program's folder. */
  file: string;
  line: number;
  /** The line's text, trimmed (absent where the line is not in the program's source). */
  source?: string;
}

/** The frames an uncaught exception went through, outermost first, each with its source line
 * (none when the program did not end by one). */
export function tracebackOf(rec: Recording): TracebackFrame[] {
  const files = filesOf(rec);
  const lines = new Map<number, string[]>();
  return tracebackEntriesOf(rec).map(({ function: fn, line, file }) => {
    if (!lines.has(file)) lines.set(file, sourceLines(sourceOfFile(rec, file) ?? ''));
    const source = lines.get(file)![line - 1]?.trim();
    return { function: fn, file: files[file] ?? files[0]!, line, ...(source ? { source } : {}) };
  });
}

/** The traceback's entries; for a RecursionError whose unwinding went unrecorded (the tracer
 * itself ran out of stack, and CPython drops a tracer that raises), the stack at the last event. */
function tracebackEntriesOf(rec: Recording): Array<{ function: string; line: number; file: number }> {
  const entries = tracebackEntries(rec);
  if (entries.length > 0 || rec.exit.status !== 'exception' || rec.exit.exc_type !== 'RecursionError' || rec.events.length === 0) return entries;
  return frameEvents(rec, rec.events.length - 1)
    .reverse()
    .map((f) => {
      const e = rec.events[f.event]!;
      // Python's traceback names a frame by its code's name (`rate`, not `Frozen.rate`)
      return { function: e.function, line: e.line, file: rec.codes[e.code]?.file ?? 0 };
    });
}

/** One frame of the call stack at a stop, innermost first (frameEvents). */
export interface FrameAt {
  /** The code's qualified name (`Frozen.rate`, `outer.<locals>.inner`; qualnameOf). */
  function: string;
  file: string;
  /** The frame's line as a face shows it (shownLine: the module's start at its first line). */
  line: number;
  depth: number;
  /** The frame's latest event at or before the stop: where its line and locals are. */
  event: number;
}

/** The call stack at a position, innermost frame first: none before the program starts and none
 * once it has ended (the exit is no frame's; frameEvents(rec, rec.events.length - 1) is the
 * stack the last event was in). */
export function frameEvents(rec: Recording, pos: Position): FrameAt[] {
  const stack: FrameAt[] = [];
  if (pos < 0 || pos >= rec.events.length) return stack;
  for (let j = 0; j <= pos; j++) {
    const e = rec.events[j]!;
    if (e.depth < 0) continue;
    stack.length = Math.min(stack.length, e.depth);
    stack[e.depth] = { function: qualnameOf(rec, e), file: eventFile(rec, e), line: shownLine(rec, e), depth: e.depth, event: j };
  }
  return stack.filter((f) => f !== undefined).reverse();
}

/** The name a face shows for an event's frame: its code's qualified name (`Frozen.rate`) where the
 * recording has one (Python 3.11+'s `co_qualname`), else the code's name, which the events keep
 * (the model is trained on them). */
export function qualnameOf(rec: Recording, e: TraceEvent): string {
  return rec.codes[e.code]?.qualname ?? e.function;
}

/** The line a face shows for an event. CPython puts a module's call event (and the return of a
 * module with no code) at line 0, before its first line; the recording and the model's format
 * keep that 0 (docs/format.md §3), but a person (and pdb, whose first stop is there) reads the
 * module's first line of code. Every other event is at its own line. */
export function shownLine(rec: Recording, e: TraceEvent): number {
  if (e.line > 0) return e.line;
  const code = rec.codes[e.code];
  return Math.max(1, code?.lines[0] ?? code?.firstline ?? 1);
}

/** A state as the faces show it (MCP's states, `ndb debug --json`): the event's line as
 * shownLine gives it and its frame's qualified name. The state the model is compared with
 * (stateAt) keeps the recording's own. */
export function shownState(rec: Recording, pos: Position, state: DebugState): DebugState {
  const e = rec.events[pos];
  if (!e || state.event === 'entry' || state.event === 'exit') return state;
  const line = shownLine(rec, e);
  const fn = qualnameOf(rec, e);
  return line === state.line && fn === state.function ? state : { ...state, line, function: fn };
}

export type DebugState = EntryState | EventState | ExitState;

/** Past this many frames a traceback is cut to its ends (a RecursionError's is ~1,000 deep). */
export const TRACEBACK_LONG = 20;
export const TRACEBACK_ENDS = 5;

export function stateAt(rec: Recording, pos: Position): DebugState {
  if (pos < 0) return { event: 'entry' };
  if (pos >= rec.events.length) {
    const code = rec.exit.exit_code;
    const exit: ExitState = { event: 'exit', status: rec.exit.status, ...(code !== undefined ? { exit_code: code } : {}), stdout: rec.stdout };
    if (rec.exit.message !== undefined) exit.message = rec.exit.message;
    if (rec.exit.value !== undefined) exit.value = rec.exit.value;
    const traceback = tracebackOf(rec);
    if (traceback.length > TRACEBACK_LONG) {
      exit.traceback = [...traceback.slice(0, TRACEBACK_ENDS), ...traceback.slice(-TRACEBACK_ENDS)];
      exit.traceback_total = traceback.length;
      exit.traceback_omitted = traceback.length - 2 * TRACEBACK_ENDS;
    } else if (traceback.length > 0) exit.traceback = traceback;
    if (rec.stdout_truncated) {
      exit.stdout_truncated = true;
      if (rec.stdout_total !== undefined) exit.stdout_total = rec.stdout_total;
    }
    return exit;
  }
  return eventState(rec, rec.events[pos]!);
}

export function eventState(rec: Recording, e: TraceEvent): EventState {
  const state: EventState = {
    event: e.event,
    line: e.line,
    function: e.function,
    depth: e.depth,
    locals: e.locals,
    stdout: rec.stdout.slice(0, e.out),
  };
  if (rec.files) state.file = eventFile(rec, e);
  if (e.value !== undefined) state.value = e.value;
  if (e.raising) state.raising = true;
  if (e.yield) state.yielded = true;
  if (e.resume) state.resumed = true;
  if (e.edits?.length) state.edits = e.edits;
  if (e.sizes) state.sizes = e.sizes;
  if (e.value_size !== undefined) state.valueSize = e.value_size;
  if (rec.stdout_truncated && e.out >= rec.stdout.length) state.stdout_truncated = true;
  if (e.hit_error !== undefined) state.condition_error = e.hit_error;
  return state;
}

export interface StackFrame {
  function: string;
  file: string;
  line: number;
  frame: number;
}

/** The call stack at a position, outermost frame first; each frame at its current line. */
export function stackAt(rec: Recording, pos: Position): StackFrame[] {
  return frameEvents(rec, pos)
    .reverse()
    .map((f) => ({ function: f.function, file: f.file, line: f.line, frame: rec.events[f.event]!.frame }));
}

/** Names whose value differs from the previous stop in the same frame (new names included). */
export function changedLocals(rec: Recording, pos: Position, previous: Position): Set<string> {
  const changed = new Set<string>();
  if (pos < 0 || pos >= rec.events.length) return changed;
  const cur = rec.events[pos]!;
  const prev = previous >= 0 && previous < rec.events.length ? rec.events[previous]! : undefined;
  if (!prev || prev.frame !== cur.frame) return changed;
  for (const [name, value] of Object.entries(cur.locals)) {
    if (!hasOwnName(prev.locals, name) || own(prev.locals, name) !== value) changed.add(name);
  }
  return changed;
}
