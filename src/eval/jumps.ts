// `ndb eval jumps`: whether a jump is better predicted at once or composed of short steps (issue
// 32 item 6; issue 45 item 5: per action, in the app's own use). A jump skips every event up to
// its stop, and the model writes that state in one go; composed, the model takes single steps from
// its own predictions until the jump's stop condition holds (neuralEngine/composeJump.ts). Both
// start from the same history, so the one difference is the way there. Each jump is scored both
// ways, beside the trivial answer (trivialStep.ts), and so is the policy "compose only when the
// direct answer's confidence is below τ", for several τ.
//
// The jumps asked:
// - step out (`--action step_return`): every step out of the trajectories (from a stop that is not
//   already a return or the end), from a fresh session at the real stop (a single real state);
// - step over and continue (`--action step_over|continue`), as a class uses them: each program of
//   the file (its first item's source and call) is run from its first stop by pressing one button
//   again and again, the model following the real history (Compare mode); see `classBreakpoints`
//   for where a class puts breakpoints for Continue, and `crossesCall` for the step overs scored.
//   The step overs of the trajectories that cross a call are scored too (`source: trajectories`).

import { randomUUID } from 'node:crypto';
import type { Action } from '../core/actions';
import { compareStates } from '../core/compare';
import { RecordingSession } from '../core/recordingSession';
import type { ParseResult } from '../core/format';
import type { Position, ProgramShape, Recording } from '../core/trace';
import type { DebugState } from '../core/state';
import { composeJump, composedConfidence, type ComposedKind } from '../neuralEngine/composeJump';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import type { CruxItem, EvalItem, OnProgress } from './items';
import { recordCall, returnsExpected } from './cruxeval';
import { recordItem, replayItem } from './replay';
import { trivialNext } from './trivialStep';

/** The direct answer is the jump predicted at once, whatever the app composes (COMPOSED_ACTIONS). */
const AT_ONCE = { compose: [] } as const;

/** The thresholds the policy is scored at: below τ the composed answer is taken. */
export const JUMP_THRESHOLDS = [0.2, 0.35, 0.5, 0.65, 0.8, 0.95] as const;

/** How many times a class presses the button in one program, at most. */
export const CLASS_PRESSES = 40;

/** One jump, answered both ways. */
export interface JumpCase {
  direct: boolean;
  /** The direct answer's whole-state confidence (0 when unreadable). */
  confidence: number;
  /** The composed answer (its last state when the cap came first). */
  composed: boolean;
  /** Steps the composed answer took, and whether its stop condition held within the cap. */
  steps: number;
  reached: boolean;
  /** The composed answer's steps' whole-state confidences: their product and their smallest. */
  product?: number;
  min?: number;
  /** The trivial answer (trivialStep.ts), where the set has one. */
  trivial?: boolean;
}

export interface JumpReport {
  n: number;
  /** Jumps left out: step outs from a generator's frame (a step out never stops at its yield,
   * where steps over would), or CruxEval items whose f never returned. */
  skipped: number;
  direct: number;
  composed: number;
  /** The composed answer where it reached its stop within the cap, else the direct one: what the
   * app would show if it composed. */
  composed_or_direct: number;
  /** The share answered right when the composed answer (or the direct one, where composing did not
   * reach a stop) is taken below τ, and how often it was composed. */
  policy: { threshold: number; right: number; composed_share: number }[];
  /** The jumps where only one way was right: the composed answer (or the direct one, where
   * composing did not reach a stop), or the direct one: what a paired test (McNemar) reads. */
  discordant: { composed_only: number; direct_only: number };
  /** `composed_or_direct` had the cap been smaller (the steps are the same up to it). */
  by_cap: { cap: number; right: number }[];
  steps_mean: number;
  reached: number;
  max_steps: number;
  /** The trivial answer on the same jumps. */
  trivial?: number;
  /** Where composing reached a stop: how right it was, and how each way of combining the steps'
   * confidences says it was (mean, and Brier score: lower is better). */
  composed_confidence?: { n: number; right: number; product_mean: number; product_brier: number; min_mean: number; min_brier: number };
}

/** Both answers for `kind` from the session `fresh` makes (each call a new one at the stop). */
async function answerBoth(
  fresh: () => NeuralSession,
  kind: ComposedKind,
  startEvent: string,
  breakpoints: readonly number[],
  maxSteps: number,
  right: (state: ParseResult) => Promise<boolean> | boolean,
  trivial?: ParseResult,
): Promise<JumpCase> {
  const direct = await fresh().predict({ kind });
  const composed = await composeJump(fresh(), kind, breakpoints, maxSteps, startEvent);
  return {
    direct: await right(direct.state),
    confidence: direct.confidence?.state ?? 0,
    composed: await right(composed.state),
    steps: composed.steps,
    reached: composed.reached,
    product: composedConfidence(composed.confidences, 'product'),
    min: composedConfidence(composed.confidences, 'min'),
    ...(trivial ? { trivial: await right(trivial) } : {}),
  };
}

export function jumpReport(cases: readonly JumpCase[], maxSteps: number, skipped = 0): JumpReport {
  const n = cases.length;
  const share = (k: number) => (n ? k / n : 0);
  const fallback = (c: JumpCase) => (c.reached ? c.composed : c.direct);
  const reached = cases.filter((c) => c.reached && c.product !== undefined);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const brier = (how: 'product' | 'min') => mean(reached.map((c) => (c[how]! - (c.composed ? 1 : 0)) ** 2));
  return {
    n,
    skipped,
    direct: share(cases.filter((c) => c.direct).length),
    composed: share(cases.filter((c) => c.composed).length),
    composed_or_direct: share(cases.filter(fallback).length),
    policy: JUMP_THRESHOLDS.map((threshold) => ({
      threshold,
      right: share(cases.filter((c) => (c.confidence < threshold ? fallback(c) : c.direct)).length),
      composed_share: share(cases.filter((c) => c.confidence < threshold).length),
    })),
    discordant: { composed_only: cases.filter((c) => fallback(c) && !c.direct).length, direct_only: cases.filter((c) => c.direct && !fallback(c)).length },
    by_cap: [2, 4, 8, 16].filter((cap) => cap < maxSteps).map((cap) => ({ cap, right: share(cases.filter((c) => (c.reached && c.steps <= cap ? c.composed : c.direct)).length) })),
    steps_mean: n ? cases.reduce((a, c) => a + c.steps, 0) / n : 0,
    reached: share(cases.filter((c) => c.reached).length),
    max_steps: maxSteps,
    ...(n > 0 && cases.every((c) => c.trivial !== undefined) ? { trivial: share(cases.filter((c) => c.trivial).length) } : {}),
    ...(reached.length > 0
      ? {
          composed_confidence: {
            n: reached.length,
            right: reached.filter((c) => c.composed).length / reached.length,
            product_mean: mean(reached.map((c) => c.product!)),
            product_brier: brier('product'),
            min_mean: mean(reached.map((c) => c.min!)),
            min_brier: brier('min'),
          },
        }
      : {}),
  };
}

/** Whether a step over from `at` skips a call of the program's own code: the stop is a line event
 * and the next event is a call, one frame deeper, of code in the program's main file. */
export function crossesCall(rec: Recording, at: Position): boolean {
  const here = rec.events[at];
  const next = rec.events[at + 1];
  if (!here || !next || here.event !== 'line' || next.event !== 'call' || next.depth <= here.depth) return false;
  return (rec.codes[next.code]?.file ?? 0) === 0;
}

const HEADER = /^(\s*)(?:async\s+)?(?:def|for|while)\b.*:\s*(?:#.*)?$/;
const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** Where a class puts breakpoints for Continue: the first line of every function's body and of
 * every loop's body (`def`, `for`, `while` headers on one line that end in `:`; the first line
 * after the header, indented deeper, that holds code). Deterministic, from the source and the
 * program's shape (without a shape, the first non-blank, non-comment line). */
export function classBreakpoints(source: string, shape: ProgramShape | null | undefined): number[] {
  const lines = source.split('\n');
  const code = shape ? new Set(shape.lines) : null;
  const found = new Set<number>();
  for (const [i, text] of lines.entries()) {
    const m = HEADER.exec(text);
    if (!m) continue;
    const indent = m[1]!.length;
    for (let j = i + 1; j < lines.length; j++) {
      const body = lines[j]!;
      if (body.trim() === '' || body.trim().startsWith('#')) continue;
      if (indentOf(body) <= indent) break;
      if (code === null || code.has(j + 1)) {
        found.add(j + 1);
        break;
      }
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** Every step out of the trajectories (from a stop that is not already a return or the end), and
 * with `stepOvers` every step over that crosses a call of the program. */
export async function evalJumpsTrajectories(
  model: LoadedModel,
  engine: PythonHost,
  items: readonly EvalItem[],
  maxSteps: number,
  onProgress?: OnProgress,
  kind: 'step_return' | 'step_over' = 'step_return',
): Promise<JumpReport> {
  const cases: JumpCase[] = [];
  let skipped = 0;
  for (const [i, item] of items.entries()) {
    const start = await recordItem(engine, item);
    // the jumps of the replay: where each started, and the real state it reached
    const asked: { rec: Recording; at: Position; event: string; truth: DebugState | null; trivial: ParseResult }[] = [];
    let open: (typeof asked)[number] | null = null;
    await replayItem<null>(start, item.actions, {
      async predict(step) {
        const before = start.real.state;
        const rec = start.real.recording;
        const at = start.real.position;
        open = null;
        if (step.kind !== kind) return null;
        if (kind === 'step_return' && before.event !== 'return' && before.event !== 'exit' && before.event !== 'entry') {
          if (rec.codes[rec.events[at]?.code ?? -1]?.generator) skipped++;
          else open = { rec, at, event: before.event, truth: null, trivial: trivialNext(rec, at, step, start.breakpoints) };
        }
        if (kind === 'step_over' && crossesCall(rec, at)) open = { rec, at, event: 'line', truth: null, trivial: trivialNext(rec, at, step, start.breakpoints) };
        if (open) asked.push(open);
        return null;
      },
      moved(_step, real) {
        if (open) open.truth = real.state;
      },
      edited() {},
    });
    for (const a of asked) {
      const truth = a.truth;
      if (!truth) continue;
      const fresh = () => new NeuralSession(model.predictor, a.rec, a.at, start.breakpoints, AT_ONCE);
      cases.push(await answerBoth(fresh, kind, a.event, start.breakpoints, maxSteps, (s) => compareStates(truth, s, 'forward').match, a.trivial));
    }
    onProgress?.(i + 1, items.length);
  }
  return jumpReport(cases, maxSteps, skipped);
}

/** Each program of `items` once (its first item's source and call), in order. */
export function programsOf(items: readonly EvalItem[]): EvalItem[] {
  const seen = new Set<string>();
  const programs: EvalItem[] = [];
  for (const item of items) {
    const key = `${item.source}\u0000${item.call}`;
    if (seen.has(key)) continue;
    seen.add(key);
    programs.push(item);
  }
  return programs;
}

/** Step over or Continue as a class uses them: each program run from its first stop by pressing
 * the button up to CLASS_PRESSES times, the model following the real history. Continue: every
 * press, with `classBreakpoints`; step over: the presses that skip a call of the program. */
export async function evalJumpsClass(
  model: LoadedModel,
  engine: PythonHost,
  items: readonly EvalItem[],
  kind: 'step_over' | 'continue',
  maxSteps: number,
  onProgress?: OnProgress,
): Promise<JumpReport & { programs: number; presses: number; breakpoints?: Record<string, number[]> }> {
  const cases: JumpCase[] = [];
  const programs = programsOf(items);
  const placed: Record<string, number[]> = {};
  let presses = 0;
  for (const [i, program] of programs.entries()) {
    const { rec } = await recordItem(engine, { ...program, start: null, actions: [], breakpoints: [] });
    const breakpoints = kind === 'continue' ? classBreakpoints(program.source, rec.program) : [];
    placed[String(program.id ?? i)] = breakpoints;
    const real = new RecordingSession(rec, breakpoints);
    const follower = new NeuralSession(model.predictor, rec, real.position, breakpoints, AT_ONCE);
    const action: Action = { kind };
    for (let press = 0; press < CLASS_PRESSES && real.state.event !== 'exit'; press++) {
      const at = real.position;
      const before = real.state;
      const scored = kind === 'continue' || crossesCall(rec, at);
      const trivial = trivialNext(rec, at, action, breakpoints);
      real.apply(action);
      presses++;
      if (scored) {
        const truth = real.state;
        cases.push(await answerBoth(() => follower.fork(), kind, before.event, breakpoints, maxSteps, (s) => compareStates(truth, s, 'forward').match, trivial));
      }
      follower.acceptReal(action, real.position);
    }
    onProgress?.(i + 1, programs.length);
  }
  return { ...jumpReport(cases, maxSteps), programs: programs.length, presses, ...(kind === 'continue' ? { breakpoints: placed } : {}) };
}

/** CruxEval's output question: a step out from the call of f, right when its value is the output. */
export async function evalJumpsCrux(model: LoadedModel, engine: PythonHost, items: readonly CruxItem[], maxSteps: number, onProgress?: OnProgress): Promise<JumpReport> {
  const cases: JumpCase[] = [];
  let skipped = 0;
  for (const [i, item] of items.entries()) {
    const own = engine.forOwner(`eval item ${randomUUID()}`);
    const call = await recordCall(own, item);
    if (call) {
      cases.push(await answerBoth(() => new NeuralSession(model.predictor, call.rec, 0, [], AT_ONCE), 'step_return', 'call', [], maxSteps, (s) => returnsExpected(own, item, s)));
    } else skipped++;
    onProgress?.(i + 1, items.length);
  }
  return jumpReport(cases, maxSteps, skipped);
}
