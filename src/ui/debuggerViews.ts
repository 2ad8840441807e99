// What the panels and the editor show of a recording at a position, as pure functions of it (the
// debugger store derives them: debugger.svelte.ts): the frames, the watch rows, the line a run
// failed at, a caller's frame picked in the Call stack, the line to highlight.

import { eventState, stackAt, type DebugState, type EventState, type StackFrame } from '../core/state';
import type { Position, Recording, WatchValue } from '../core/trace';
import type { TracebackEntry } from '../core/traceback';
import type { CutOff } from './runEnd';

/** A watch row: the real value at the current stop (null at the entry and the exit). */
export interface WatchRow {
  expr: string;
  real: WatchValue | null;
}

/** A line the editor marks as the reason a run failed: a syntax error, or the line an uncaught
 * exception (or a failed import) was raised at. */
export interface ErrorMarker {
  line: number;
  column: number;
  message: string;
  kind: 'syntax' | 'exception';
}

/** A caller's frame shown in place of the current one (the Call stack was clicked). */
export interface FrameView {
  frame: number;
  function: string;
  line: number;
  locals: Record<string, string>;
}

/** At the exit of a run that was cut off: the last state it reached (its frame and locals), which
 * the panels show; null elsewhere. */
export function lastReachedAt(rec: Recording, pos: Position, cutOff: CutOff | null): EventState | null {
  const last = cutOff?.last;
  if (!last || pos < rec.events.length) return null;
  return eventState(rec, last);
}

/** The frames at the stop: none once the program has ended (it finished, or an exception ended
 * it); the frames it was in when a limit cut it off. */
export function framesShown(rec: Recording, pos: Position, cutOff: CutOff | null): StackFrame[] {
  if (pos >= rec.events.length) return cutOff ? stackAt(rec, rec.events.length - 1) : [];
  return stackAt(rec, pos);
}

/** The watch rows at a stop: each expression's value recorded there (`recorded`: the expressions
 * the recording was made with), its syntax error, or nothing where there is no value. */
export function watchRowsAt(
  rec: Recording | null,
  pos: Position,
  watches: ReadonlyArray<{ expr: string; error?: string | null }>,
  recorded: readonly string[],
): WatchRow[] {
  const e = rec && pos >= 0 && pos < rec.events.length ? rec.events[pos]! : null;
  return watches.map((w) => {
    if (w.error) return { expr: w.expr, real: { error: w.error } };
    const i = recorded.indexOf(w.expr);
    const value = e && i >= 0 ? (e.watch?.[i] ?? null) : null;
    // At a call (the module's start included) nothing has run in the frame yet: a name it will
    // define is not an error there, only not yet a value.
    if (value && 'error' in value && e?.event === 'call' && value.error.startsWith('NameError')) return { expr: w.expr, real: null };
    return { expr: w.expr, real: value };
  });
}

/** The line a run failed at, from how it ended and its traceback (null: it did not fail). An
 * uncaught exception is marked once the debugger at `pos` has reached the stop where it was raised
 * (or the end): before that, the mark would tell a pupil how the run ends (issue 46). A syntax
 * error or a failed start has no stops before it: it is marked at once. */
export function errorMarkerOf(rec: Recording, traceback: readonly TracebackEntry[], pos: Position = rec.events.length): ErrorMarker | null {
  const exit = rec.exit;
  if (exit.status === 'syntax_error') return { line: exit.line ?? 1, column: exit.column ?? 1, message: exit.message ?? 'SyntaxError', kind: 'syntax' };
  const message = exit.message ?? exit.exc_type ?? 'exception';
  if (exit.status === 'error' && exit.line !== undefined) return { line: exit.line, column: 1, message, kind: 'exception' };
  if (exit.status !== 'exception') return null;
  const raisedAt = traceback[traceback.length - 1];
  // A RecursionError can stop the tracer itself before it records the exception: the line the
  // deepest call had reached is where it was raised.
  const last = rec.events.length - 1;
  const at = raisedAt ?? (last >= 0 && rec.events[last]!.line > 0 ? { line: rec.events[last]!.line, position: last } : null);
  if (!at || pos < at.position) return null;
  return { line: at.line, column: 1, message, kind: 'exception' };
}

/** The frame picked in the Call stack, when it is not the current one: its line and its locals
 * as they were when it last ran (at its call of the frame above it). */
export function frameViewOf(rec: Recording, pos: Position, frames: readonly StackFrame[], picked: number | null): FrameView | null {
  if (picked === null) return null;
  const at = frames.findIndex((f) => f.frame === picked);
  if (at < 0 || at === frames.length - 1) return null;
  for (let j = Math.min(pos, rec.events.length - 1); j >= 0; j--) {
    const e = rec.events[j]!;
    if (e.frame === picked) return { frame: picked, function: e.function, line: frames[at]!.line, locals: e.locals };
  }
  return null;
}

/** The line the editor highlights, with the kind of stop. */
export function currentLineOf(s: DebugState | null): { line: number; kind: 'line' | 'return' | 'exception' } | null {
  if (!s || s.event === 'entry' || s.event === 'exit' || s.line < 1) return null;
  return { line: s.line, kind: s.event === 'exception' || s.raising ? 'exception' : s.event === 'return' ? 'return' : 'line' };
}
