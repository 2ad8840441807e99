// `ndb eval trajectories`: next-state exact match over held-out trajectories (one-step predictions
// from the real history), for each decoder on the same items in the same run. An edit (`set:`) is
// given to both engines, as in the app; the states after it are also counted apart (`after_edit`).

import { compareStates, reachedBy } from '../core/compare';
import { EvalStats } from '../core/evalStats';
import { NeuralSession, type DecoderKind, type Prediction } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import { quantile } from '../util/quantile';
import { ConfidenceTally, type ConfidenceReport } from './confidenceTally';
import type { EvalItem, OnProgress } from './items';
import { recordItem, replayItem } from './replay';

export type TrajectoryReport = ReturnType<EvalStats['report']> & {
  decoder: DecoderKind;
  items: number;
  edits_refused: number;
  ms_per_state: number;
  ms_per_state_median: number;
  ms_per_state_p95: number;
  stopped_early: number;
  /** The constrained decoder's confidence against how often it was right, per kind. */
  confidence?: ConfidenceReport;
};

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

  constructor(readonly decoder: DecoderKind) {}

  report(items: number, refused: number): TrajectoryReport {
    const report = this.stats.report();
    const sorted = [...this.ms].sort((a, b) => a - b);
    return {
      decoder: this.decoder,
      ...report,
      items,
      edits_refused: refused,
      ms_per_state: report.n ? sorted.reduce((a, b) => a + b, 0) / report.n : 0,
      ms_per_state_median: quantile(sorted, 0.5),
      ms_per_state_p95: quantile(sorted, 0.95),
      stopped_early: this.stoppedEarly,
      ...(this.confidence.samples.state.length > 0 ? { confidence: this.confidence.report() } : {}),
    };
  }
}

export async function evalTrajectories(
  model: LoadedModel,
  engine: PythonHost,
  items: readonly EvalItem[],
  decoders: readonly DecoderKind[] = ['constrained'],
  onProgress?: OnProgress,
): Promise<TrajectoryEvaluation> {
  const tallies = decoders.map((d) => new DecoderTally(d));
  let refused = 0;
  for (const [i, item] of items.entries()) {
    const start = await recordItem(engine, item);
    const sessions = decoders.map((decoder) => new NeuralSession(model.predictor, start.rec, start.real.position, start.breakpoints, { decoder }));
    let edited = false;
    const whole = await replayItem<Prediction[]>(start, item.actions, {
      async predict(step) {
        const predictions = [];
        for (const session of sessions) predictions.push(await session.predict(step));
        return predictions;
      },
      moved(step, real, predictions) {
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
  return { reports: tallies.map((t) => t.report(items.length, refused)), confidence: tallies.map((t) => t.confidence) };
}
