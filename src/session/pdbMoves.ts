// Stops the prompt needs that are no single debugger action: pdb's `until`, the post-mortem stop
// of an uncaught exception, a function's first line. Read from the recording as CPython's bdb
// would have stopped (src/core/navigator.ts holds the actions themselves, session/moves.ts every
// face's moves and why they stop, a frame's call included).

import type { Navigator } from '../core/navigator';
import { tracebackOf } from '../core/traceback';
import type { Position, Recording } from '../core/trace';

/** Where pdb's `until` stops from `pos`: the first line (or exception) of this frame at
 * `target` or past it, this frame's return, or a breakpoint stop anywhere (with `breaks`);
 * the end when none comes. bdb ignores a generator's yields while it waits (they are returns
 * that end nothing). At a return stop `until` is `step` into the caller: the caller's job. */
export function untilStop(rec: Recording, nav: Navigator, pos: Position, target: number, breaks = true): Position {
  const events = rec.events;
  const here = events[pos];
  if (!here) return events.length;
  for (let j = pos + 1; j < events.length; j++) {
    const e = events[j]!;
    if (e.frame === here.frame) {
      if ((e.event === 'line' || e.event === 'exception') && e.line >= target) return j;
      if (e.event === 'return' && !e.yield) return j;
    }
    if (breaks && nav.breaksAt(j)) return j;
  }
  return events.length;
}

/** After an uncaught exception: the stop where it was raised (pdb's post mortem shows it). */
export function postMortemPosition(rec: Recording): Position | null {
  const frames = tracebackOf(rec);
  return frames.length > 0 ? frames[frames.length - 1]!.position : null;
}

const HEADER = /^\s*(?:@|(?:async\s+)?def\s|class\s)/;

/** `b NAME`: the first line of function NAME's body that runs (pdb stops there), or null. */
export function functionFirstLine(rec: Recording, source: readonly string[], name: string): number | null {
  for (const code of rec.codes) {
    if (code.name !== name) continue;
    const body = [...code.lines].sort((a, b) => a - b).find((l) => l > code.firstline && !HEADER.test(source[l - 1] ?? ''));
    if (body !== undefined) return body;
  }
  return null;
}

/** The function a line of a predicted state is in (the model predicts lines, not frames): the
 * innermost code object that holds the line; a call stop is at the `def` line of its function. */
export function functionAtLine(rec: Recording, line: number, isCall: boolean): string {
  let best: { name: string; firstline: number } | null = null;
  for (const code of rec.codes) {
    if (!code.lines.includes(line)) continue;
    const inside = code.name === '<module>' || code.firstline < line || (isCall && code.firstline === line);
    if (inside && (!best || code.firstline > best.firstline || best.name === '<module>')) best = code;
  }
  return best?.name ?? '<module>';
}
