// Every move of a debugging session, and why it stopped where it did: the one answer for every
// face (the app, the prompt, `ndb debug --actions` and `--batch`, DAP, MCP), through LiveSession.
// A move is one of the model's actions, reverse continue, back to the call of an outer frame, or
// pdb's `until`; where an exception stop comes first (exceptionStops.ts), the move stops there.

import { INV_CONTINUE, type Action, type Move, type Until } from '../core/actions';
import type { RecordingSession } from '../core/recordingSession';
import { callEventOf } from '../core/navigator';
import type { Position } from '../core/trace';
import { exceptionStops, moveWithExceptions, type ExceptionMode } from './exceptionStops';

/** Why a move stopped where it did (DAP's stopped reasons): `step` where the action itself
 * stops; `breakpoint` on a user breakpoint that stopped it (reverse continue: a breakpoint stop it
 * went back to); `exception` where the exception mode stops; `entry` at the first event, reverse
 * continue having found no breakpoint stop behind; `restart` back at the call of a frame. */
export type StopReason = 'step' | 'breakpoint' | 'exception' | 'entry' | 'restart';

/** Back to the call of the frame that event `event` belongs to: an outer frame's call is no model
 * action (the current frame's is inv_step_call). */
export interface CallOf {
  kind: 'call_of';
  event: Position;
}

/** A move of a session. */
export type SessionMove = Move | CallOf | Until;

export interface MoveStop {
  reason: StopReason;
  /** A forward move stopped on a user breakpoint because of it (it would have stopped elsewhere
   * without it; continue stops only there): a hit, where pdb deletes a tbreak. */
  breakpointHit: boolean;
  /** It stopped where an exception is raised, before its action's own stop. */
  byException: boolean;
}

/** Whether a move is one of the model's actions (the others are jumps over the recording). */
function isModelAction(move: SessionMove): move is Action {
  return move.kind !== INV_CONTINUE.kind && move.kind !== 'call_of' && move.kind !== 'until';
}

/** The model's action that `move` is from where `session` stands, or null (a jump the model starts
 * again after): an action is itself; until is step_over where both stop at the same place (the
 * next line, a return into the caller, a breakpoint in a call), as it was before it was a move. */
export function followedAction(session: RecordingSession, move: SessionMove): Action | null {
  if (isModelAction(move)) return move;
  if (move.kind !== 'until') return null;
  const until = session.fork();
  const over = session.fork();
  return until.until(move.target) === over.apply({ kind: 'step_over' }) ? { kind: 'step_over' } : null;
}

/** Where reverse continue goes: the previous stop on a breakpoint (hit), else the first event;
 * never forward (from before the first event, the app's entry, it stays). */
export function reverseContinueTarget(session: RecordingSession): { pos: number; hit: boolean } {
  const hit = session.navigator.previousBreakHit();
  const start = session.recording.events.length > 0 ? 0 : -1;
  return { pos: hit ?? Math.min(start, session.position), hit: hit !== null };
}

/** Moves `session` (the real one, or a fork of it to ask where a move would stop) and says why it
 * stopped there, with exception stops in `exceptions`. */
export function makeMove(session: RecordingSession, move: SessionMove, exceptions: ExceptionMode): MoveStop {
  // Where the move would stop without breakpoints tells a step from a breakpoint stop (continue
  // stops nowhere else).
  let natural: Position | null = null;
  if ((isModelAction(move) && move.kind !== 'continue') || move.kind === 'until') {
    const probe = session.fork();
    probe.navigator.breakpoints.clear();
    natural = move.kind === 'until' ? probe.until(move.target) : probe.apply(move);
  }
  const { byException, hit } = travel(session, move, exceptions);
  const pos = session.position;
  const atException = byException || (exceptions !== 'none' && exceptionStops(session.recording, exceptions).includes(pos));
  if (move.kind === INV_CONTINUE.kind || move.kind === 'call_of') {
    const reason: StopReason = atException ? 'exception' : move.kind === 'call_of' ? 'restart' : hit ? 'breakpoint' : 'entry';
    return { reason, breakpointHit: false, byException };
  }
  const breakpointHit = session.navigator.breaksAt(pos) && natural !== pos;
  const reason: StopReason = atException ? 'exception' : breakpointHit ? 'breakpoint' : move.kind === 'inv_step_call' ? 'restart' : 'step';
  return { reason, breakpointHit, byException };
}

/** Only where `move` goes (what a button that would not move is disabled by): whether an exception
 * stop came first, and for reverse continue whether it found a breakpoint stop. */
export function travel(session: RecordingSession, move: SessionMove, exceptions: ExceptionMode): { byException: boolean; hit: boolean } {
  if (move.kind === INV_CONTINUE.kind) {
    const { pos, hit } = reverseContinueTarget(session);
    session.jump(pos);
    return { byException: false, hit };
  }
  if (move.kind === 'call_of') {
    session.jump(Math.max(0, callEventOf(session.recording.events, move.event)));
    return { byException: false, hit: false };
  }
  // an action, or until: forward as the other forward moves go, exception stops first
  return { byException: moveWithExceptions(session, move, exceptions), hit: false };
}
