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

/** What a composition reads of a prediction (neuralSession.ts's Prediction is one). */
export interface StepPrediction {
  state: ParseResult;
  confidence?: { state: number };
  ms?: number;
}

/** What a composition steps on: a fork of a NeuralSession (structural, so that the session can
 * compose with this file without the two importing each other). */
export interface StepSession<P extends StepPrediction> {
  predict(action: Action): Promise<P>;
  acceptPredicted(prediction: P): void;
}

export type ComposedKind = 'step_return' | 'step_over' | 'continue';

export const COMPOSED_KINDS: readonly ComposedKind[] = ['step_return', 'step_over', 'continue'];

export interface Composed<P extends StepPrediction = StepPrediction> {
  /** The state the composition ends at (its last prediction's, reached or not). */
  state: ParseResult;
  /** Predictions made. */
  steps: number;
  /** Whether the stop condition held within the cap (an unreadable step ends it unreached). */
  reached: boolean;
  /** Each step's whole-state confidence, in order (0 for an unreadable one). */
  confidences: number[];
  /** The last prediction (null when none was made). */
  last: P | null;
  /** The steps' milliseconds together. */
  ms: number;
}

const STEP_INTO: Action = { kind: 'step_into' };
const STEP_OVER: Action = { kind: 'step_over' };

/** Composes `kind` on `session` (a fork: each step is accepted into its history), from a stop whose
 * event is `startEvent`, stopping at `breakpoints`; at most `maxSteps` predictions, and (with
 * `budgetMs`) no further step once the steps together took longer than that. */
export async function composeJump<P extends StepPrediction>(
  session: StepSession<P>,
  kind: ComposedKind,
  breakpoints: readonly number[],
  maxSteps: number,
  startEvent: string = 'line',
  budgetMs: number | null = null,
): Promise<Composed<P>> {
  let state: ParseResult = { unparseable: 'no step taken' };
  let last: P | null = null;
  const confidences: number[] = [];
  let ms = 0;
  let depth = 0;
  let previous = startEvent;
  for (let steps = 1; steps <= maxSteps; steps++) {
    const action = kind === 'step_return' ? STEP_OVER : kind === 'continue' ? STEP_INTO : depth === 0 ? STEP_INTO : STEP_OVER;
    const p = await session.predict(action);
    last = p;
    state = p.state;
    ms += p.ms ?? 0;
    confidences.push(p.confidence?.state ?? 0);
    if ('unparseable' in state) return { state, steps, reached: false, confidences, last, ms };
    if (state.event === 'exit') return { state, steps, reached: true, confidences, last, ms };
    if (state.event === 'entry') return { state, steps, reached: false, confidences, last, ms };
    const atBreakpoint = state.event === 'line' && breakpoints.includes(state.line);
    // the stop after a return is in the caller; a call is one frame deeper than where it was made
    const base = previous === 'return' ? depth - 1 : depth;
    depth = state.event === 'call' ? base + 1 : base;
    previous = state.event;
    if (atBreakpoint) return { state, steps, reached: true, confidences, last, ms };
    if (kind === 'step_return' && state.event === 'return') return { state, steps, reached: true, confidences, last, ms };
    if (kind === 'step_over' && depth <= 0 && state.event !== 'call') return { state, steps, reached: true, confidences, last, ms };
    if (budgetMs !== null && ms > budgetMs) return { state, steps, reached: false, confidences, last, ms };
    session.acceptPredicted(p);
  }
  return { state, steps: maxSteps, reached: false, confidences, last, ms };
}

/** The confidence of a composed answer from its steps' whole-state confidences: their product (the
 * chance that every step is right, were they independent) or their smallest. */
export function composedConfidence(confidences: readonly number[], how: 'product' | 'min'): number {
  if (confidences.length === 0) return 0;
  return how === 'product' ? confidences.reduce((a, b) => a * b, 1) : Math.min(...confidences);
}
