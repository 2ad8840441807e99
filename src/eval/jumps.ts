// `ndb eval jumps`: whether a step out is better predicted at once or composed of short steps
// (issue 32, item 6). A step out skips every event up to the function's return, and the model
// writes that state in one go; composed, the model steps over line by line from its own
// predictions until it writes a return. Both start from the same single real state (a fresh
// session at the stop), so the one difference is the way there. Each step out is scored both ways,
// and so is the policy "compose only when the direct answer's confidence is below τ", for several τ.

import { randomUUID } from 'node:crypto';
import type { Action } from '../core/actions';
import { compareStates } from '../core/compare';
import type { ParseResult } from '../core/format';
import type { Position, Recording } from '../core/trace';
import type { DebugState } from '../core/state';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import type { CruxItem, EvalItem, OnProgress } from './items';
import { recordCall, returnsExpected } from './cruxeval';
import { recordItem, replayItem } from './replay';

/** The thresholds the policy is scored at: below τ the composed answer is taken. */
export const JUMP_THRESHOLDS = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95] as const;

const STEP_OUT: Action = { kind: 'step_return' };
const STEP_OVER: Action = { kind: 'step_over' };

/** One step out, answered both ways. */
export interface JumpCase {
  direct: boolean;
  /** The direct answer's whole-state confidence (0 when unreadable). */
  confidence: number;
  composed: boolean;
  /** Steps over the composed answer took, and whether it wrote a return within the cap. */
  steps: number;
  reached: boolean;
}

export interface JumpReport {
  n: number;
  /** Step outs left out: from a generator's frame (a step out never stops at its yield, where
   * steps over would), or CruxEval items whose f never returned. */
  skipped: number;
  direct: number;
  composed: number;
  /** The share answered right when the composed answer is taken below τ (and how often it was). */
  policy: { threshold: number; right: number; composed_share: number }[];
  steps_mean: number;
  reached: number;
  max_steps: number;
}

/** The composed answer: steps over from the session's newest state, each prediction taken as the
 * history, until the model writes where a step out stops: a return (the function's own: a step
 * over goes deeper only to a breakpoint), a line with a breakpoint (a step out stops there too) or
 * the program's end; or `maxSteps` steps. */
export async function composeStepOut(
  session: NeuralSession,
  breakpoints: readonly number[],
  maxSteps: number,
): Promise<{ state: ParseResult; steps: number; reached: boolean }> {
  let state: ParseResult = { unparseable: 'no step taken' };
  for (let steps = 1; steps <= maxSteps; steps++) {
    const p = await session.predict(STEP_OVER);
    state = p.state;
    if ('unparseable' in state) return { state, steps, reached: false };
    const atBreakpoint = state.event === 'line' && breakpoints.includes(state.line);
    if (state.event === 'return' || state.event === 'exit' || atBreakpoint) return { state, steps, reached: true };
    session.acceptPredicted(p);
  }
  return { state, steps: maxSteps, reached: false };
}

/** Both answers for a step out from `position` of `rec`, each scored by `right`. */
async function answerBoth(
  model: LoadedModel,
  rec: Recording,
  position: Position,
  breakpoints: readonly number[],
  maxSteps: number,
  right: (state: ParseResult) => Promise<boolean>,
): Promise<JumpCase> {
  const direct = await new NeuralSession(model.predictor, rec, position, breakpoints).predict(STEP_OUT);
  const composed = await composeStepOut(new NeuralSession(model.predictor, rec, position, breakpoints), breakpoints, maxSteps);
  return {
    direct: await right(direct.state),
    confidence: direct.confidence?.state ?? 0,
    composed: await right(composed.state),
    steps: composed.steps,
    reached: composed.reached,
  };
}

export function jumpReport(cases: readonly JumpCase[], maxSteps: number, skipped = 0): JumpReport {
  const n = cases.length;
  const share = (k: number) => (n ? k / n : 0);
  return {
    n,
    skipped,
    direct: share(cases.filter((c) => c.direct).length),
    composed: share(cases.filter((c) => c.composed).length),
    policy: JUMP_THRESHOLDS.map((threshold) => ({
      threshold,
      right: share(cases.filter((c) => (c.confidence < threshold ? c.composed : c.direct)).length),
      composed_share: share(cases.filter((c) => c.confidence < threshold).length),
    })),
    steps_mean: n ? cases.reduce((a, c) => a + c.steps, 0) / n : 0,
    reached: share(cases.filter((c) => c.reached).length),
    max_steps: maxSteps,
  };
}

/** Every step out of the trajectories (from a stop that is not already a return or the end). */
export async function evalJumpsTrajectories(model: LoadedModel, engine: PythonHost, items: readonly EvalItem[], maxSteps: number, onProgress?: OnProgress): Promise<JumpReport> {
  const cases: JumpCase[] = [];
  let skipped = 0;
  for (const [i, item] of items.entries()) {
    const start = await recordItem(engine, item);
    // the step outs of the replay: where each started, and the real state it reached
    const asked: { rec: Recording; at: Position; truth: DebugState | null }[] = [];
    let open: (typeof asked)[number] | null = null;
    await replayItem<null>(start, item.actions, {
      async predict(step) {
        const before = start.real.state;
        open = null;
        if (step.kind === 'step_return' && before.event !== 'return' && before.event !== 'exit' && before.event !== 'entry') {
          const rec = start.real.recording;
          const at = start.real.position;
          if (rec.codes[rec.events[at]?.code ?? -1]?.generator) skipped++;
          else {
            open = { rec, at, truth: null };
            asked.push(open);
          }
        }
        return null;
      },
      moved(_step, real) {
        if (open) open.truth = real.state;
      },
      edited() {},
    });
    for (const a of asked) {
      const truth = a.truth;
      if (truth) cases.push(await answerBoth(model, a.rec, a.at, start.breakpoints, maxSteps, async (s) => compareStates(truth, s, 'forward').match));
    }
    onProgress?.(i + 1, items.length);
  }
  return jumpReport(cases, maxSteps, skipped);
}

/** CruxEval's output question: a step out from the call of f, right when its value is the output. */
export async function evalJumpsCrux(model: LoadedModel, engine: PythonHost, items: readonly CruxItem[], maxSteps: number, onProgress?: OnProgress): Promise<JumpReport> {
  const cases: JumpCase[] = [];
  let skipped = 0;
  for (const [i, item] of items.entries()) {
    const own = engine.forOwner(`eval item ${randomUUID()}`);
    const call = await recordCall(own, item);
    if (call) {
      cases.push(await answerBoth(model, call.rec, 0, [], maxSteps, (s) => returnsExpected(own, item, s)));
    } else skipped++;
    onProgress?.(i + 1, items.length);
  }
  return jumpReport(cases, maxSteps, skipped);
}
