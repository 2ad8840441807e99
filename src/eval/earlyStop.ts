// `ndb eval early-stop`: what stopping an unreadable state early saves, and proof that it changes
// nothing else. Two engines share one ONNX session, each with its own KV cache: one with the early
// stop, one without. Both predict every state of the same trajectories (one-step predictions, the
// real state enters both histories), interleaved state by state with the order alternating, so
// that the machine's noise (2 cores, a training run beside) falls on both alike.

import * as ort from 'onnxruntime-node';
import { formatStep } from '../core/actions';
import { compareStates, reachedBy } from '../core/compare';
import { EvalStats, type EvalReport } from '../core/evalStats';
import { CausalLM, type TensorFactory } from '../neuralEngine/causalLm';
import { NeuralSession, type Prediction } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import { StatePredictor } from '../neuralEngine/predictor';
import type { PythonHost } from '../realEngine/pythonHost';
import { nameTable } from '../core/names';
import { quantile } from '../util/quantile';
import type { EvalItem, OnProgress } from './items';
import { recordItem, replayItem } from './replay';

export interface TimingSummary {
  n: number;
  ms_median: number;
  /** The 95th percentile: the slowest 5 % take at least this long. */
  ms_p95: number;
  /** The mean of the slowest 5 %. */
  ms_slowest_5pct_mean: number;
  ms_mean: number;
  new_tokens_mean: number;
  /** States that ran to the token cap. */
  length_stops: number;
}

export interface EarlyStopVariant extends TimingSummary {
  exact_match: number;
  unparseable: number;
  report: EvalReport;
}

export interface EarlyStopReport {
  set: string;
  model: string;
  dtype: string;
  items: number;
  states: number;
  before: EarlyStopVariant;
  after: EarlyStopVariant;
  /** after / before. */
  ratio: { ms_median: number; ms_p95: number; ms_slowest_5pct_mean: number; ms_mean: number; new_tokens_mean: number };
  /** States the early stop cut, and why. */
  stopped_early: number;
  reasons: Record<string, number>;
  /** States readable without the early stop, and how many came out the same text and state with it. */
  readable_before: number;
  readable_identical: number;
  /** Of those, the ones that ended at a terminator (not cut by the token cap), and how many of
   * them came out the same: the early stop must leave every one of them as it was. */
  finished_readable_before: number;
  finished_readable_identical: number;
  /** Readable before, cut after: states whose text broke a cap of the format (a value longer than
   * any the format writes, more locals than the program has names), so never right. */
  readable_cut: number;
  /** Of those, the ones that had run to the token cap: readable only because the cap cut a runaway
   * payload (a return value, say) at an arbitrary point. */
  readable_cut_unfinished: number;
  /** Why the readable ones that had ended at a terminator were cut. */
  finished_readable_cut_reasons: Record<string, number>;
  /** A few of those, to see what was cut. */
  readable_cut_examples: Array<{ id: unknown; action: string; text: string; refused: string; finished: boolean; match_before: boolean }>;
}

export function timingSummary(ms: readonly number[], tokens: readonly number[], lengthStops: number): TimingSummary {
  const sorted = [...ms].sort((a, b) => a - b);
  const tail = sorted.slice(sorted.length - Math.max(1, Math.ceil(sorted.length * 0.05)));
  const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  return {
    n: ms.length,
    ms_median: round(quantile(sorted, 0.5)),
    ms_p95: round(quantile(sorted, 0.95)),
    ms_slowest_5pct_mean: round(ms.length ? mean(tail) : 0),
    ms_mean: round(mean(ms)),
    new_tokens_mean: round(mean(tokens)),
    length_stops: lengthStops,
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

function secondPredictor(model: LoadedModel): StatePredictor {
  const lm = new CausalLM(ort.Tensor as unknown as TensorFactory, model.session, model.predictor.lm.shape);
  return new StatePredictor(lm, model.predictor.tokenizer, model.predictor.maxNewTokens);
}

function reasonKey(reason: string): string {
  // "a name longer than any in the program (7)" and "more than 12 locals" group by kind
  return reason.replace(/\([0-9]+[^)]*\)/g, '(N)').replace(/[0-9]+/g, 'N');
}

type Variant = 'before' | 'after';

export async function evalEarlyStop(model: LoadedModel, engine: PythonHost, items: readonly EvalItem[], set: string, onProgress?: OnProgress): Promise<EarlyStopReport> {
  const predictors = { before: secondPredictor(model), after: model.predictor };
  const stats = { before: new EvalStats(), after: new EvalStats() };
  const ms = { before: [] as number[], after: [] as number[] };
  const tokens = { before: [] as number[], after: [] as number[] };
  const lengthStops = { before: 0, after: 0 };
  // keyed by the decoder's reasons, which quote a program's names: no prototype to meet
  const reasons: Record<string, number> = nameTable();
  let stoppedEarly = 0;
  let readableBefore = 0;
  let readableIdentical = 0;
  let readableCut = 0;
  let finishedBefore = 0;
  let finishedIdentical = 0;
  let readableCutUnfinished = 0;
  const finishedCutReasons: Record<string, number> = nameTable();
  const cutExamples: EarlyStopReport['readable_cut_examples'] = [];
  let turn = 0;
  for (const [i, item] of items.entries()) {
    const start = await recordItem(engine, item);
    const sessions = {
      before: new NeuralSession(predictors.before, start.rec, start.real.position, start.breakpoints, { earlyStop: false, compose: [] }),
      after: new NeuralSession(predictors.after, start.rec, start.real.position, start.breakpoints, { earlyStop: true, compose: [] }),
    };
    // A refused edit leaves the rest of the item out, for both alike.
    await replayItem<{ order: readonly Variant[]; got: Record<Variant, Prediction> }>(start, item.actions, {
      async predict(step) {
        const order = turn++ % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
        const got: Partial<Record<Variant, Prediction>> = {};
        for (const v of order) got[v] = await sessions[v].predict(step);
        return { order, got: got as Record<Variant, Prediction> };
      },
      moved(step, real, { order, got }) {
        const matchBefore = compareStates(real.state, got.before.state, reachedBy(step)).match;
        for (const v of order) {
          const p = got[v];
          stats[v].add(step, compareStates(real.state, p.state, reachedBy(step)));
          ms[v].push(p.ms);
          tokens[v].push(p.newTokens);
          if (p.stoppedBy === 'length') lengthStops[v]++;
          sessions[v].acceptReal(step, real.position);
        }
        const { before, after } = got;
        if (after.stoppedBy === 'invalid') {
          stoppedEarly++;
          const key = reasonKey(after.refused ?? '');
          reasons[key] = (reasons[key] ?? 0) + 1;
        }
        if (!('unparseable' in before.state)) {
          readableBefore++;
          const identical = after.text === before.text && JSON.stringify(after.state) === JSON.stringify(before.state);
          if (identical) readableIdentical++;
          if (before.stoppedBy !== 'length') {
            finishedBefore++;
            if (identical) finishedIdentical++;
          }
          if (after.stoppedBy === 'invalid') {
            readableCut++;
            const finished = before.stoppedBy !== 'length';
            if (!finished) readableCutUnfinished++;
            else {
              const key = reasonKey(after.refused ?? '');
              finishedCutReasons[key] = (finishedCutReasons[key] ?? 0) + 1;
            }
            if (cutExamples.length < 8 && (finished || cutExamples.length < 3)) {
              cutExamples.push({ id: item.id, action: formatStep(step), text: before.text.slice(0, 400), refused: after.refused ?? '', finished, match_before: matchBefore });
            }
          }
        }
      },
      edited(real) {
        sessions.before.acceptEdit(real.recording, real.position);
        sessions.after.acceptEdit(real.recording, real.position);
      },
    });
    onProgress?.(i + 1, items.length);
  }
  const variant = (v: Variant): EarlyStopVariant => {
    const report = stats[v].report();
    return { ...timingSummary(ms[v], tokens[v], lengthStops[v]), exact_match: report.exact_match, unparseable: report.unparseable, report };
  };
  const b = variant('before');
  const a = variant('after');
  const ratio = (x: number, y: number) => (y ? Math.round((x / y) * 1000) / 1000 : 0);
  return {
    set,
    model: model.dir,
    dtype: model.dtype,
    items: items.length,
    states: b.n,
    before: b,
    after: a,
    ratio: {
      ms_median: ratio(a.ms_median, b.ms_median),
      ms_p95: ratio(a.ms_p95, b.ms_p95),
      ms_slowest_5pct_mean: ratio(a.ms_slowest_5pct_mean, b.ms_slowest_5pct_mean),
      ms_mean: ratio(a.ms_mean, b.ms_mean),
      new_tokens_mean: ratio(a.new_tokens_mean, b.new_tokens_mean),
    },
    stopped_early: stoppedEarly,
    reasons,
    readable_before: readableBefore,
    readable_identical: readableIdentical,
    finished_readable_before: finishedBefore,
    finished_readable_identical: finishedIdentical,
    readable_cut: readableCut,
    readable_cut_unfinished: readableCutUnfinished,
    finished_readable_cut_reasons: finishedCutReasons,
    readable_cut_examples: cutExamples,
  };
}
