// The moves of a DAP session over the recording, and why each one stopped: a step that ends on
// a breakpoint only because of it is a breakpoint stop, as a debugger front end shows it.

import type { Action } from '../core/actions';
import type { LiveSession } from '../session/liveSession';
import type { FrameView } from './frames';

export type StopReason = 'entry' | 'breakpoint' | 'step' | 'restart' | 'exception';

/** Moves by a debugger action (the model predicts it first when it is on). */
export async function move(live: LiveSession, action: Action): Promise<StopReason> {
  let naturalStop: number | null = null;
  if (live.engine !== 'neural' && action.kind !== 'continue') {
    // Where the step would end without breakpoints tells a step from a breakpoint stop.
    const probe = live.real.fork();
    probe.navigator.breakpoints.clear();
    naturalStop = probe.apply(action);
  }
  await live.act(action);
  // where an exception filter stops is an exception stop, however the move got there
  if (live.onExceptionStop) return 'exception';
  if (live.engine === 'neural') return 'step';
  const pos = live.position;
  return live.real.navigator.breaksAt(pos) && (action.kind === 'continue' || naturalStop !== pos) ? 'breakpoint' : 'step';
}

/** Back to the previous breakpoint hit, or to the start when there is none. */
export async function reverseContinue(live: LiveSession): Promise<StopReason> {
  const hit = await live.reverseContinue();
  if (live.onExceptionStop) return 'exception';
  return hit ? 'breakpoint' : 'entry';
}

/** Back to the call of a frame ("with which arguments?"). For the current frame this is
 * inv_step_call, which the model predicts too; an outer frame's call is a jump. */
export async function backToCall(live: LiveSession, frames: readonly FrameView[], frameId: number): Promise<StopReason> {
  const target = frames.find((f) => f.id === frameId);
  if (!target) throw new RangeError(`there is no frame ${frameId} at this stop`);
  if (target === frames[0]) {
    await live.act({ kind: 'inv_step_call' });
    return live.onExceptionStop ? 'exception' : 'restart';
  }
  const events = live.recording.events;
  const frame = events[target.event]!.frame;
  let pos = target.event;
  while (pos > 0 && !(events[pos]!.frame === frame && events[pos]!.event === 'call')) pos--;
  await live.jump(pos);
  return live.onExceptionStop ? 'exception' : 'restart';
}
