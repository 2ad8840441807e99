// How well the model's confidence matches how often it is right, over an evaluation: each
// prediction's confidence (and raw score) beside whether the state and each field was right.
// `ndb eval trajectories` reports it; `ndb eval calibrate` fits the calibration on its samples.

import { capValue, type ParseResult } from '../core/format';
import type { StateComparison } from '../core/compare';
import { calibrated, fitPlatt, logOdds, reliability, type Calibration, type ConfidenceKind, type Platt, type Reliability } from '../core/confidence';
import type { DebugState } from '../core/state';
import type { Prediction } from '../neuralEngine/neuralSession';
import { own } from '../core/names';

const IDENTITY: Platt = { a: 1, b: 0 };

const KINDS: readonly ConfidenceKind[] = ['state', 'position', 'local', 'value'];

interface Sample {
  /** The raw score (null: the state was unreadable or ended by the decoder). */
  x: number | null;
  confidence: number;
  right: boolean;
}

export type ConfidenceReport = Record<ConfidenceKind, Reliability>;

export class ConfidenceTally {
  readonly samples: Record<ConfidenceKind, Sample[]> = { state: [], position: [], local: [], value: [] };

  add(prediction: Prediction, real: DebugState, comparison: StateComparison): void {
    const c = prediction.confidence;
    if (!c) return;
    const s = prediction.scores;
    const f = comparison.fields;
    this.samples.state.push({ x: s?.state ?? null, confidence: c.state, right: comparison.match });
    this.samples.position.push({ x: s?.position ?? null, confidence: c.position, right: Boolean(f.event) && f.line !== false });
    if (!s) return;
    if (s.value !== undefined && c.value !== undefined && f.value !== undefined) this.samples.value.push({ x: s.value, confidence: c.value, right: f.value });
    const predicted = localsOf(prediction.state);
    const realLocals = 'locals' in real && real.event !== 'return' ? real.locals : {};
    for (const [name, x] of Object.entries(s.locals)) {
      const want = own(realLocals, name);
      this.samples.local.push({ x, confidence: own(c.locals, name) ?? 0, right: want !== undefined && capValue(want) === own(predicted, name) });
    }
  }

  report(): ConfidenceReport {
    const out = {} as ConfidenceReport;
    for (const kind of KINDS) {
      const list = this.samples[kind];
      out[kind] = reliability(
        list.map((s) => s.confidence),
        list.map((s) => s.right),
      );
    }
    return out;
  }

  /** Platt scaling per kind, fitted on the samples that have a raw score, kept only where it
   * brings the confidences closer to the accuracy (a lower expected calibration error) than the
   * model's own probabilities; else a = 1, b = 0 (no change). The fit minimises the log loss,
   * which can widen the gaps a reliability diagram shows: on phase 10 it did for the locals. */
  fit(fittedOn: string[]): Calibration {
    const n: Partial<Record<ConfidenceKind, number>> = {};
    const platt = (kind: ConfidenceKind): Platt => {
      const scored = this.samples[kind].filter((s): s is Sample & { x: number } => s.x !== null);
      n[kind] = scored.length;
      const right = scored.map((s) => s.right);
      const fitted = fitPlatt(
        scored.map((s) => logOdds(s.x)),
        right,
      );
      const ece = (p: Platt) => reliability(scored.map((s) => calibrated(s.x, p)), right).ece;
      return ece(fitted) < ece(IDENTITY) ? fitted : IDENTITY;
    };
    return { state: platt('state'), position: platt('position'), local: platt('local'), value: platt('value'), fitted_on: fittedOn, n };
  }

  merge(other: ConfidenceTally): void {
    for (const kind of KINDS) this.samples[kind].push(...other.samples[kind]);
  }
}

function localsOf(state: ParseResult): Record<string, string> {
  if ('unparseable' in state || state.event === 'entry' || state.event === 'exit') return {};
  return state.locals ?? {};
}
