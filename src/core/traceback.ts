// The traceback of a run that ended with an uncaught exception, read from its recording: the user
// frames the exception left, outermost first, each at the line it was raised through (as Python's
// "Traceback (most recent call last)" lists them).
// A RecursionError can end a run with no exception event at all: the tracer's own call is the one
// that runs out of stack, and CPython drops a tracer that raises. Its traceback is then the stack
// at the last recorded event, and that event is where it was raised (the call made there failed).

import { fileIndexOf } from './location';
import type { Position, Recording } from './trace';

export interface TracebackEntry {
  function: string;
  line: number;
  /** Index into the recording's files (0: the main file). */
  file: number;
  /** The exception event in that frame: where the debugger shows it. */
  position: Position;
}

export function tracebackOf(rec: Recording): TracebackEntry[] {
  if (rec.exit.status !== 'exception') return [];
  const recorded = recordedTraceback(rec);
  return recorded.length > 0 || !unrecordedRecursion(rec) ? recorded : stackAtLastEvent(rec);
}

/** Where a RecursionError that went unrecorded was raised: the last recorded event (the deepest
 * call had reached it; the call it made there ran out of stack). Null when the run did not end so,
 * or when its exception was recorded. */
export function unrecordedRaise(rec: Recording): Position | null {
  return unrecordedRecursion(rec) && recordedTraceback(rec).length === 0 ? rec.events.length - 1 : null;
}

function unrecordedRecursion(rec: Recording): boolean {
  return rec.exit.status === 'exception' && rec.exit.exc_type === 'RecursionError' && rec.events.length > 0;
}

/** The frames live at the last event, outermost first, each at its latest event. */
function stackAtLastEvent(rec: Recording): TracebackEntry[] {
  const stack: TracebackEntry[] = [];
  rec.events.forEach((e, j) => {
    if (e.depth < 0) return;
    stack.length = Math.min(stack.length, e.depth);
    stack[e.depth] = { function: e.function, line: e.line, file: fileIndexOf(rec, e), position: j };
  });
  return stack.filter((f) => f !== undefined);
}

/** The traceback from the exception events the run recorded. */
function recordedTraceback(rec: Recording): TracebackEntry[] {
  const events = rec.events;
  const out: TracebackEntry[] = [];
  // The outermost frame's last exception event; then, while the event just before it is the
  // raising return of a frame it called, that frame's exception event, and so on inwards.
  let j = events.length - 1;
  while (j >= 0 && !(events[j]!.event === 'exception' && events[j]!.depth === 0)) j--;
  while (j >= 0) {
    const e = events[j]!;
    out.push({ function: e.function, line: e.line, file: fileIndexOf(rec, e), position: j });
    const prev = events[j - 1];
    if (!prev || prev.event !== 'return' || !prev.raising || prev.depth !== e.depth + 1) break;
    let k = j - 2;
    while (k >= 0 && !(events[k]!.frame === prev.frame && events[k]!.event === 'exception')) k--;
    j = k;
  }
  return out;
}
