// The traceback of a run that ended with an uncaught exception, read from its recording: the user
// frames the exception left, outermost first, each at the line it was raised through (as Python's
// "Traceback (most recent call last)" lists them).

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
