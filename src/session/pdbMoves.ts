// Stops the prompt needs that are no debugger move: the post-mortem stop of an uncaught exception,
// a function's first line. Read from the recording as CPython's bdb would have stopped
// (src/core/navigator.ts holds the actions themselves and pdb's until, session/moves.ts every
// face's moves and why they stop, until and a frame's call included).

import { tracebackOf } from '../core/traceback';
import type { Position, Recording } from '../core/trace';

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
