// `ndb eval trajectories`: next-state exact match over held-out trajectories (one-step predictions
// from the real history), for each decoder on the same items in the same run. An edit (`set:`) is
// given to both engines, as in the app; the states after it are also counted apart (`after_edit`).
// Beside each report, the trivial answer ("the debugger moves one line, nothing changes":
// trivialStep.ts) scored on the same states.

import { compareStates, reachedBy } from '../core/compare';
import { EvalStats } from '../core/evalStats';
import { NeuralSession, type DecoderKind, type Prediction } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import { quantile } from '../util/quantile';
import { ConfidenceTally, type ConfidenceReport } from './confidenceTally';
import type { EvalItem, OnProgress } from './items';
import { recordItem, replayItem } from './replay';
import { trivialNext } from './trivialStep';
import type { ParseResult } from '../core/format';

export type TrajectoryReport = ReturnType<EvalStats['report']> & {
  decoder: DecoderKind;
  /** Constrained decoding: whether local names were held to the stop's frame (off only to
   * measure what that gains: `--frame-names both`). */
  frame_names?: boolean;
  items: number;
  edits_refused: number;
  ms_per_state: number;
  ms_per_state_median: number;
  ms_per_state_p95: number;
  stopped_early: number;
  /** The constrained decoder's confidence against how often it was right, per kind. */
  confidence?: ConfidenceReport;
  /** The trivial answer (trivialStep.ts) on the same states. */
  trivial: TrivialReport;
};

export interface TrivialReport {
  n: number;
  exact_match: number;
  event_line: number;
  per_action: Record<string, { n: number; exact_match: number }>;
}

/** A decoder as the evaluation runs it: its kind, and (constrained) whether local names are held to
 * the stop's frame (default true). */
export interface DecoderVariant {
  decoder: DecoderKind;
  frameNames?: boolean;
}

function variantOf(d: DecoderKind | DecoderVariant): DecoderVariant {
  return typeof d === 'string' ? { decoder: d } : d;
}

export function trivialReport(stats: EvalStats): TrivialReport {
  const r = stats.report();
  return { n: r.n, exact_match: r.exact_match, event_line: r.event_line.accuracy, per_action: r.per_action };
}

/** Each decoder's report, and its confidence samples (what `eval calibrate` fits on). */
export interface TrajectoryEvaluation {
  reports: TrajectoryReport[];
  confidence: ConfidenceTally[];
}

/** One decoder's tally over a set. */
class DecoderTally {
  readonly stats = new EvalStats();
  readonly confidence = new ConfidenceTally();
  readonly ms: number[] = [];
  stoppedEarly = 0;

  constructor(readonly variant: DecoderVariant) {}

  report(items: number, refused: number, trivial: TrivialReport): TrajectoryReport {
    const report = this.stats.report();
    const sorted = [...this.ms].sort((a, b) => a - b);
    const { decoder, frameNames } = this.variant;
    return {
      decoder,
      ...(decoder === 'constrained' ? { frame_names: frameNames ?? true } : {}),
      ...report,
      items,
      edits_refused: refused,
      ms_per_state: report.n ? sorted.reduce((a, b) => a + b, 0) / report.n : 0,
      ms_per_state_median: quantile(sorted, 0.5),
      ms_per_state_p95: quantile(sorted, 0.95),
      stopped_early: this.stoppedEarly,
      ...(this.confidence.samples.state.length > 0 ? { confidence: this.confidence.report() } : {}),
      trivial,
    };
  }
}

export async function evalTrajectories(
  model: LoadedModel,
  engine: PythonHost,
  items: readonly EvalItem[],
  decoders: readonly (DecoderKind | DecoderVariant)[] = ['constrained'],
  onProgress?: OnProgress,
): Promise<TrajectoryEvaluation> {
  const variants = decoders.map(variantOf);
  const tallies = variants.map((v) => new DecoderTally(v));
  const trivial = new EvalStats();
  let refused = 0;
  for (const [i, item] of items.entries()) {
    const start = await recordItem(engine, item);
    const sessions = variants.map(
      ({ decoder, frameNames }) => new NeuralSession(model.predictor, start.rec, start.real.position, start.breakpoints, { decoder, ...(frameNames === undefined ? {} : { frameNames }) }),
    );
    let edited = false;
    let guess: ParseResult = { unparseable: 'none' };
    const whole = await replayItem<Prediction[]>(start, item.actions, {
      async predict(step) {
        // the trivial answer from the same stop, before the real session moves
        guess = trivialNext(start.real.recording, start.real.position, step, start.breakpoints);
        const predictions = [];
        for (const session of sessions) predictions.push(await session.predict(step));
        return predictions;
      },
      moved(step, real, predictions) {
        trivial.add(step, compareStates(real.state, guess, reachedBy(step)), edited);
        for (const [d, prediction] of predictions.entries()) {
          const tally = tallies[d]!;
          tally.ms.push(prediction.ms);
          if (prediction.stoppedBy === 'invalid') tally.stoppedEarly++;
          const comparison = compareStates(real.state, prediction.state, reachedBy(step));
          tally.stats.add(step, comparison, edited);
          tally.confidence.add(prediction, real.state, comparison);
          sessions[d]!.acceptReal(step, real.position);
        }
      },
      edited(real) {
        for (const session of sessions) session.acceptEdit(real.recording, real.position);
        edited = true;
      },
    });
    if (!whole) refused++;
    onProgress?.(i + 1, items.length);
  }
  const floor = trivialReport(trivial);
  return { reports: tallies.map((t) => t.report(items.length, refused, floor)), confidence: tallies.map((t) => t.confidence) };
}
