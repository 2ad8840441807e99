// Stops where an exception is raised, as debuggers offer them beside breakpoints (DAP's exception
// breakpoints; pdb has none): `raised` stops at every exception where it is raised (not again in
// each caller it passes through), `uncaught` only where the exception that ends the program was
// raised. Each face sets the mode; the moves below are the one place it acts, for every face.

import type { Action, Until } from '../core/actions';
import type { RecordingSession } from '../core/recordingSession';
import { tracebackOf, unrecordedRaise } from '../core/traceback';
import type { Position, Recording } from '../core/trace';

export type ExceptionMode = 'raised' | 'uncaught' | 'none';

export const EXCEPTION_MODES: readonly ExceptionMode[] = ['raised', 'uncaught', 'none'];

/** Python's own signals of iteration ending, raised without a traceback inside generators: no
 * program raises them, so no debugger stops there. */
const INTERNAL = new Set(['StopIteration', 'StopAsyncIteration', 'GeneratorExit']);

/** `sys.exit()`: how a program ends on purpose (its recording ends `normal` with an exit code),
 * neither an error to stop at where it is raised nor an uncaught exception. */
const PROGRAM_EXIT = 'SystemExit';

/** The positions where the mode stops, in order. An exception event right after a raising return
 * of the frame it called is the same exception passing through, not a new raise. A RecursionError
 * that stopped the tracer itself has no exception event: it stops at the last recorded event, where
 * the deepest call made the call that ran out of stack (core/traceback.ts). */
export function exceptionStops(rec: Recording, mode: ExceptionMode): Position[] {
  if (mode === 'none') return [];
  if (mode === 'uncaught') {
    const tb = tracebackOf(rec);
    return tb.length > 0 ? [tb[tb.length - 1]!.position] : [];
  }
  const out: Position[] = [];
  rec.events.forEach((e, j) => {
    if (e.event !== 'exception') return;
    if (e.exc_tb_none && INTERNAL.has(e.exc_type ?? '')) return;
    if (e.exc_type === PROGRAM_EXIT) return;
    const prev = rec.events[j - 1];
    if (prev && prev.event === 'return' && prev.raising && prev.parent === e.frame) return;
    out.push(j);
  });
  const recursion = unrecordedRaise(rec);
  if (recursion !== null) out.push(recursion);
  return out;
}

/** A forward move with exception stops: where the action (or pdb's until) would stop, unless an
 * exception stop comes first (step_into already stops at every event). Returns whether it stopped
 * at one. */
export function moveWithExceptions(session: RecordingSession, action: Action | Until, mode: ExceptionMode): boolean {
  const from = session.position;
  const go = (s: RecordingSession): Position => (action.kind === 'until' ? s.until(action.target) : s.apply(action));
  const forward = action.kind === 'step_over' || action.kind === 'step_return' || action.kind === 'continue' || action.kind === 'breakpoint' || action.kind === 'until';
  if (mode === 'none' || !forward) {
    go(session);
    return false;
  }
  const natural = go(session.fork());
  const stop = exceptionStops(session.recording, mode).find((p) => p > from && p < natural);
  if (stop === undefined) {
    go(session);
    return false;
  }
  session.jump(stop);
  return true;
}
