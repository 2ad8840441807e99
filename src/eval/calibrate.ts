// `ndb eval calibrate`: fits the confidence calibration (Platt scaling per kind: whole state,
// event and line, each local, the value) on evaluation sets of our own (the generator's and the
// corpus's held-out sets; never the gallery or CruxEval), and reports the expected calibration
// error before and after. The model folder's config.json keeps it (`ndb_calibration`, per dtype),
// where the app, the CLI, DAP and MCP read it.

import { calibrated, type Calibration, type ConfidenceKind } from '../core/confidence';
import type { HfConfig, ModelDtype } from '../neuralEngine/modelConfig';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import { ConfidenceTally, type ConfidenceReport } from './confidenceTally';
import type { EvalItem, OnProgress } from './items';
import { evalTrajectories } from './trajectories';

export interface CalibrationResult {
  dtype: string;
  calibration: Calibration;
  /** The confidence the model gave before (its current calibration, or its own probabilities). */
  before: Summary;
  /** With the fitted calibration, on the same samples (fitted on them: see the gallery for
   * states it never saw). */
  after: Summary;
  /** The config.json it was written into, if it was. */
  written?: string;
}

type Summary = Record<ConfidenceKind, { n: number; ece: number; sure_share: number; sure_accuracy: number }>;

function summary(report: ConfidenceReport): Summary {
  const out = {} as Summary;
  for (const [kind, r] of Object.entries(report) as [ConfidenceKind, ConfidenceReport[ConfidenceKind]][]) {
    out[kind] = { n: r.n, ece: r.ece, sure_share: r.sure.share, sure_accuracy: r.sure.accuracy };
  }
  return out;
}

/** The tally's samples with confidences from `calibration`. */
function recalibrated(tally: ConfidenceTally, calibration: Calibration): ConfidenceTally {
  const out = new ConfidenceTally();
  for (const kind of Object.keys(tally.samples) as ConfidenceKind[]) {
    out.samples[kind] = tally.samples[kind].map((s) => ({ ...s, confidence: s.x === null ? 0 : calibrated(s.x, calibration[kind]) }));
  }
  return out;
}

/** One evaluation set, and whom to tell how far it is. */
export interface EvalSet {
  items: readonly EvalItem[];
  onProgress?: OnProgress;
}

/** Fits one calibration on the constrained decoder's predictions over all `sets`, pooled;
 * `labels` name the sets in it. The sets are taken one at a time, so a caller may read each file
 * only when its turn comes. */
export async function calibrate(model: LoadedModel, engine: PythonHost, sets: Iterable<EvalSet>, labels: readonly string[]): Promise<CalibrationResult> {
  const pooled = new ConfidenceTally();
  for (const { items, onProgress } of sets) {
    const { confidence } = await evalTrajectories(model, engine, items, ['constrained'], onProgress);
    pooled.merge(confidence[0]!);
  }
  const calibration = pooled.fit([...labels]);
  return {
    dtype: model.dtype,
    calibration,
    before: summary(pooled.report()),
    after: summary(recalibrated(pooled, calibration).report()),
  };
}

/** A model's config with `calibration` kept for `dtype`, beside the other dtypes' own. */
export function withCalibration(config: HfConfig, dtype: ModelDtype, calibration: Calibration): HfConfig {
  return { ...config, ndb_calibration: { ...config.ndb_calibration, [dtype]: calibration } };
}
