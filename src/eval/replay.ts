// An evaluation item replayed the way the app's Compare mode goes: the real engine records the
// program in an interpreter of its own; then each action is first predicted from the real history
// so far, and only then taken by the real session, whose state the prediction is scored against. A
// what-if edit (`set:`) is given to both engines, never predicted.

import { randomUUID } from 'node:crypto';
import { parseStep, type Action } from '../core/actions';
import { RecordingSession, type Rerun } from '../core/recordingSession';
import type { Recording } from '../core/trace';
import { EditError, type Edit } from '../core/whatIf';
import type { PythonHost } from '../realEngine/pythonHost';
import type { EvalItem } from './items';
import { EVAL_LIMITS } from '../core/limits';

/** An item recorded, its real session at the item's start, and how to record it again with edits. */
export interface ItemStart {
  rec: Recording;
  breakpoints: readonly number[];
  real: RecordingSession;
  rerun: Rerun;
}

export async function recordItem(shared: PythonHost, item: EvalItem): Promise<ItemStart> {
  // One program, one interpreter: what an item's program leaves behind never reaches the next.
  const engine = shared.forOwner(`eval item ${randomUUID()}`);
  const options = { maxEvents: item.max_events ?? EVAL_LIMITS.maxEvents, timeLimit: EVAL_LIMITS.timeLimit };
  const rec = await engine.record(item.source, item.call, options);
  const breakpoints = item.breakpoints ?? [];
  const real = new RecordingSession(rec, breakpoints);
  if (item.start !== undefined && item.start !== null) real.jump(item.start);
  const rerun = (edits: readonly Edit[]) => engine.record(item.source, item.call, { ...options, edits });
  return { rec, breakpoints, real, rerun };
}

/** What an evaluation does at each step of an item; `P` is what it predicted. */
export interface StepScorer<P> {
  /** Before the real session moves: the predictions for `action`. */
  predict(action: Action): Promise<P>;
  /** After it moved: `real.state` is the truth for `predicted`. */
  moved(action: Action, real: RecordingSession, predicted: P): void;
  /** A what-if edit was made at the real stop: the engines go on from the edited state. */
  edited(real: RecordingSession): void;
}

/** Replays the item's actions from `start`. False when an edit was refused (a run that differs
 * before the edit, say): the rest of the item cannot be scored and is left out. */
export async function replayItem<P>(start: ItemStart, actions: readonly string[], scorer: StepScorer<P>): Promise<boolean> {
  const { real, rerun } = start;
  for (const step of actions.map(parseStep)) {
    if (step.kind === 'set') {
      try {
        await real.edit(step.name, step.expr, rerun);
      } catch (err) {
        if (!(err instanceof EditError)) throw err;
        return false;
      }
      scorer.edited(real);
      continue;
    }
    const predicted = await scorer.predict(step);
    real.apply(step);
    scorer.moved(step, real, predicted);
  }
  return true;
}
