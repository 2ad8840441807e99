// A jump composed of short steps (issue 32 item 6, issue 45 item 5): instead of writing the state a
// Step out, Step over or Continue reaches in one go, the model takes single steps from its own
// predictions, each taken as the history of a fork of the session, until the jump's stop condition
// holds on what it wrote (or a cap). `ndb eval jumps` scores it against the direct answer per
// action; the neural session composes an action only where that measurement says it wins.
//
// The steps and the stop conditions (pdb's, docs/trace.md), read off the predicted states:
// - step out: step over line by line until a return, a line on a breakpoint or the end;
// - step over (from a line): step into at the starting frame's depth, step over inside a frame it
//   entered (its nested calls are skipped as a step over skips them); the depth is followed from
//   the predicted events (a call goes one deeper, the stop after a return one shallower); it stops
//   at a line, return or exception of the starting frame, a line on a breakpoint, or the end;
// - continue: step into until a line on a breakpoint (in any frame) or the end.

import type { Action } from '../core/actions';
import type { ParseResult } from '../core/format';
import type { NeuralSession, Prediction } from './neuralSession';

export type ComposedKind = 'step_return' | 'step_over' | 'continue';

export const COMPOSED_KINDS: readonly ComposedKind[] = ['step_return', 'step_over', 'continue'];

export interface Composed {
  /** The state the composition ends at (its last prediction's, reached or not). */
  state: ParseResult;
  /** Predictions made. */
  steps: number;
  /** Whether the stop condition held within the cap (an unreadable step ends it unreached). */
  reached: boolean;
  /** Each step's whole-state confidence, in order (0 for an unreadable one). */
  confidences: number[];
  /** The last prediction (null when none was made). */
  last: Prediction | null;
}

const STEP_INTO: Action = { kind: 'step_into' };
const STEP_OVER: Action = { kind: 'step_over' };

/** Composes `kind` on `session` (a fork: each step is accepted into its history), from a stop whose
 * event is `startEvent`, stopping at `breakpoints`; at most `maxSteps` predictions. */
export async function composeJump(
  session: NeuralSession,
  kind: ComposedKind,
  breakpoints: readonly number[],
  maxSteps: number,
  startEvent: string = 'line',
): Promise<Composed> {
  let state: ParseResult = { unparseable: 'no step taken' };
  let last: Prediction | null = null;
  const confidences: number[] = [];
  let depth = 0;
  let previous = startEvent;
  for (let steps = 1; steps <= maxSteps; steps++) {
    const action = kind === 'step_return' ? STEP_OVER : kind === 'continue' ? STEP_INTO : depth === 0 ? STEP_INTO : STEP_OVER;
    const p = await session.predict(action);
    last = p;
    state = p.state;
    confidences.push(p.confidence?.state ?? 0);
    if ('unparseable' in state) return { state, steps, reached: false, confidences, last };
    if (state.event === 'exit') return { state, steps, reached: true, confidences, last };
    if (state.event === 'entry') return { state, steps, reached: false, confidences, last };
    const atBreakpoint = state.event === 'line' && breakpoints.includes(state.line);
    // the stop after a return is in the caller; a call is one frame deeper than where it was made
    const base = previous === 'return' ? depth - 1 : depth;
    depth = state.event === 'call' ? base + 1 : base;
    previous = state.event;
    if (atBreakpoint) return { state, steps, reached: true, confidences, last };
    if (kind === 'step_return' && state.event === 'return') return { state, steps, reached: true, confidences, last };
    if (kind === 'step_over' && depth <= 0 && state.event !== 'call') return { state, steps, reached: true, confidences, last };
    session.acceptPredicted(p);
  }
  return { state, steps: maxSteps, reached: false, confidences, last };
}

/** The confidence of a composed answer from its steps' whole-state confidences: their product (the
 * chance that every step is right, were they independent) or their smallest. */
export function composedConfidence(confidences: readonly number[], how: 'product' | 'min'): number {
  if (confidences.length === 0) return 0;
  return how === 'product' ? confidences.reduce((a, b) => a * b, 1) : Math.min(...confidences);
}
