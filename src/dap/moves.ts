// The moves of a DAP session over the recording, and why each one stopped: the session's one
// answer (session/moves.ts), as every face has it; a DAP request names which move.

import type { Action } from '../core/actions';
import type { LiveSession } from '../session/liveSession';
import type { StopReason } from '../session/moves';
import type { FrameView } from './frames';

export type { StopReason };

/** Moves by a debugger action (the model predicts it first when it is on). */
export async function move(live: LiveSession, action: Action): Promise<StopReason> {
  return (await live.move(action)).reason;
}

/** Back to the previous breakpoint hit, or to the start when there is none. */
export async function reverseContinue(live: LiveSession): Promise<StopReason> {
  return (await live.move({ kind: 'inv_continue' })).reason;
}

/** Back to the call of a frame ("with which arguments?"). For the current frame this is
 * inv_step_call, which the model predicts too; an outer frame's call is a jump. */
export async function backToCall(live: LiveSession, frames: readonly FrameView[], frameId: number): Promise<StopReason> {
  const target = frames.find((f) => f.id === frameId);
  if (!target) throw new RangeError(`there is no frame ${frameId} at this stop`);
  return (await live.move(target === frames[0] ? { kind: 'inv_step_call' } : { kind: 'call_of', event: target.event })).reason;
}
