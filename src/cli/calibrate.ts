// `ndb eval calibrate`: fits the confidence calibration (Platt scaling per kind: whole state,
// event and line, each local, the value) on evaluation sets of our own (the generator's and the
// corpus's held-out sets; never the gallery or CruxEval), reports the expected calibration error
// before and after, and with --write keeps it in the model folder's config.json
// (`ndb_calibration`, per dtype), where the app, the CLI, DAP and MCP read it.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { calibrated, type Calibration, type ConfidenceKind } from '../core/confidence';
import type { HfConfig } from '../neuralEngine/modelConfig';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import { ConfidenceTally, type ConfidenceReport } from './confidenceTally';
import { evalTrajectoryTallies } from './neural';

export interface CalibrationResult {
  dtype: string;
  calibration: Calibration;
  /** The confidence the model gave before (its current calibration, or its own probabilities). */
  before: Summary;
  /** With the fitted calibration, on the same samples (fitted on them: see the gallery for
   * states it never saw). */
  after: Summary;
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

export async function calibrate(files: readonly string[], labels: readonly string[], model: LoadedModel, limit: number | undefined, write: boolean): Promise<CalibrationResult> {
  const pooled = new ConfidenceTally();
  for (const file of files) {
    const { confidence } = await evalTrajectoryTallies(file, model, limit, ['constrained']);
    pooled.merge(confidence[0]!);
  }
  const calibration = pooled.fit([...labels]);
  const result: CalibrationResult = {
    dtype: model.dtype,
    calibration,
    before: summary(pooled.report()),
    after: summary(recalibrated(pooled, calibration).report()),
  };
  if (write) {
    const path = join(model.dir, 'config.json');
    const config = JSON.parse(readFileSync(path, 'utf8')) as HfConfig;
    config.ndb_calibration = { ...config.ndb_calibration, [model.dtype]: calibration };
    writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
    result.written = path;
  }
  return result;
}
