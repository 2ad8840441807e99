// The neural engine in the CLI: `debug --engine neural|both`, `eval trajectories`, `eval cruxeval`.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseStep, type Action, type Step } from '../core/actions';
import { DebugSession, type Rerun } from '../core/debugSession';
import type { Edit } from '../core/whatIf';
import { compareStates, type StateComparison } from '../core/compare';
import { EvalStats } from '../core/evalStats';
import type { ParseResult } from '../core/format';
import type { DebugState } from '../core/state';
import type { Recording } from '../core/trace';
import { NeuralSession, type DecoderKind } from '../neuralEngine/neuralSession';
import { cliState, NeuralFollower, predictedState } from '../session/neuralFollower';
import type { ModelDtype } from '../neuralEngine/modelConfig';
import { defaultModelDir, loadNodeModel, type LoadedModel } from '../neuralEngine/nodeModel';

export { defaultModelDir };
import { loadPythonHost, type PythonHost } from '../realEngine/pythonHost';
import { stringOption, UsageError, type ParsedArgs } from './args';
import type { InputBaselines, OutputBaselines } from '../core/baselines';
import { cruxBaselines, returnsOutput, type CruxItem } from './cruxBaselines';
import { quantile } from '../util/quantile';
import { ConfidenceTally, type ConfidenceReport } from './confidenceTally';
import { Progress } from './progress';
import { applyEdit, ProgramError } from '../session/programSession';

const DTYPES: readonly ModelDtype[] = ['fp32', 'int8', 'q8', 'q4', 'fp16'];

export async function modelFromArgs(args: ParsedArgs): Promise<LoadedModel> {
  const dtype = (stringOption(args, 'dtype') ?? 'fp32') as ModelDtype;
  if (!DTYPES.includes(dtype)) throw new UsageError(`--dtype must be one of ${DTYPES.join(', ')}`);
  return loadNodeModel(stringOption(args, 'model') ?? defaultModelDir(), dtype);
}

export { predictedState };

/** `neural`: the model goes on from its own predictions; `both`: one-step predictions against the
 * real history, each state carrying real, neural and match. */
export async function neuralDebugStates(
  model: LoadedModel,
  rec: Recording,
  steps: readonly Step[],
  breakpoints: readonly number[],
  mode: 'neural' | 'both',
  rerun: Rerun,
): Promise<unknown[]> {
  const real = new DebugSession(rec, breakpoints);
  const follower = new NeuralFollower(model.predictor, real, mode, breakpoints);
  const states: unknown[] = [cliState(mode, real.state)];
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'set') {
      // Both engines go on from the edited real stop; the edit itself is given, not predicted.
      await applyEdit(real, step, i, rerun);
      follower.edited(real);
      states.push(cliState(mode, real.state, undefined, true));
      continue;
    }
    const followed = await follower.act(real, step);
    states.push(cliState(mode, real.state, followed));
  }
  return states;
}

export interface EvalItem {
  id?: unknown;
  source: string;
  call: string;
  start?: number | null;
  /** Actions, and `set:NAME=EXPR` edits for what-if trajectories. */
  actions: string[];
  breakpoints?: number[];
  max_events?: number;
}

/** An evaluation item recorded by the real engine, its session at the item's start, and how to
 * record it again with what-if edits. */
export async function startEvalItem(shared: PythonHost, item: EvalItem) {
  // One program, one interpreter: what an item's program leaves behind never reaches the next.
  const engine = shared.forOwner(`eval item ${randomUUID()}`);
  const options = { maxEvents: item.max_events ?? 2000, timeLimit: 5 };
  const rec = await engine.record(item.source, item.call, options);
  const breakpoints = item.breakpoints ?? [];
  const real = new DebugSession(rec, breakpoints);
  if (item.start !== undefined && item.start !== null) real.jump(item.start);
  const rerun = (edits: readonly Edit[]) => engine.record(item.source, item.call, { ...options, edits });
  return { rec, breakpoints, real, rerun };
}

/** Next-state exact match over held-out trajectories (one-step predictions, real history). An
 * edit (`set:`) is given to both engines, as in the app; the states after it are also counted
 * apart (`after_edit`). */
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

/** Next-state exact match over held-out trajectories (one-step predictions, real history), for
 * each decoder on the same items in the same run. */
export async function evalTrajectories(path: string, model: LoadedModel, limit: number | undefined, decoders: readonly DecoderKind[] = ['constrained']): Promise<TrajectoryReport[]> {
  return (await evalTrajectoryTallies(path, model, limit, decoders)).reports;
}

/** The evaluation of `evalTrajectories`, with each decoder's confidence samples (for calibration). */
export async function evalTrajectoryTallies(
  path: string,
  model: LoadedModel,
  limit: number | undefined,
  decoders: readonly DecoderKind[],
): Promise<{ reports: TrajectoryReport[]; confidence: ConfidenceTally[] }> {
  const items = readJsonl<EvalItem>(path).slice(0, limit);
  const engine = await loadPythonHost();
  const tallies = decoders.map((d) => new DecoderTally(d));
  const progress = new Progress(items.length, 'eval');
  let refused = 0;
  for (const [i, item] of items.entries()) {
    const { rec, breakpoints, real, rerun } = await startEvalItem(engine, item);
    const sessions = decoders.map((decoder) => new NeuralSession(model.predictor, rec, real.position, breakpoints, { decoder }));
    let edited = false;
    for (const [k, step] of item.actions.map(parseStep).entries()) {
      if (step.kind === 'set') {
        try {
          await applyEdit(real, step, k, rerun);
        } catch (err) {
          // e.g. a run that differs before the edit: the rest of this item cannot be scored
          if (!(err instanceof ProgramError)) throw err;
          refused++;
          break;
        }
        for (const session of sessions) session.acceptEdit(real.recording, real.position);
        edited = true;
        continue;
      }
      const predictions = [];
      for (const session of sessions) predictions.push(await session.predict(step));
      real.apply(step);
      for (const [d, prediction] of predictions.entries()) {
        const tally = tallies[d]!;
        tally.ms.push(prediction.ms);
        if (prediction.stoppedBy === 'invalid') tally.stoppedEarly++;
        const comparison = compareStates(real.state, prediction.state);
        tally.stats.add(step, comparison, edited);
        tally.confidence.add(prediction, real.state, comparison);
        sessions[d]!.acceptReal(step, real.position);
      }
    }
    progress.update(i + 1);
  }
  return { reports: tallies.map((t) => t.report(items.length, refused)), confidence: tallies.map((t) => t.confidence) };
}

export interface CruxResult {
  task: 'output' | 'input';
  action: string;
  n: number;
  passed: number;
  pass_at_1: number;
  /** Trivial answers scored on the same items (src/core/baselines.ts). */
  baselines: OutputBaselines | InputBaselines;
}

/** CruxEval posed as in the paper (docs/architecture.md#evaluation): output from the call of f (step_return, or a
 * breakpoint at the line that returns, then step_return); input from f's return (inv_step_call),
 * scored by running f on the predicted arguments. */
export async function evalCruxeval(
  path: string,
  task: 'output' | 'input',
  actionName: string,
  model: LoadedModel,
  limit: number | undefined,
  onItem: (line: string) => void,
): Promise<CruxResult> {
  const items = readJsonl<CruxItem>(path).slice(0, limit);
  const engine = await loadPythonHost();
  const progress = new Progress(items.length, `cruxeval-${task[0]}`);
  let passed = 0;
  for (const [i, item] of items.entries()) {
    const call = `f(${item.input})`;
    const own = engine.forOwner(`eval item ${randomUUID()}`);
    const rec = await own.record(item.code, call, { maxEvents: 10_000, timeLimit: 5 });
    const entryReturn = rec.events.findIndex((e) => e.event === 'return' && e.depth === 0);
    let ok = false;
    let predicted: string | null = null;
    if (rec.events.length > 0 && entryReturn >= 0) {
      if (task === 'output') {
        const session = new NeuralSession(model.predictor, rec, 0, []);
        let actions: Action[] = [{ kind: 'step_return' }];
        if (actionName === 'breakpoint') actions = [{ kind: 'breakpoint', line: rec.events[entryReturn]!.line }, { kind: 'step_return' }];
        let last: ParseResult | null = null;
        for (const action of actions) {
          const p = await session.predict(action);
          session.acceptPredicted(p);
          last = p.state;
        }
        if (last && !('unparseable' in last) && last.event === 'return' && last.value !== undefined && !last.raising) {
          predicted = last.value;
          ok = await own.sameValue(last.value, item.output);
        }
      } else {
        const session = new NeuralSession(model.predictor, rec, entryReturn, []);
        const p = await session.predict({ kind: 'inv_step_call' });
        const s = p.state;
        if (!('unparseable' in s) && s.event === 'call' && s.locals) {
          const args = await own.callArguments(Object.values(s.locals));
          predicted = args;
          if (args !== null) ok = await returnsOutput(own, item, args);
        }
      }
    }
    if (ok) passed++;
    onItem(JSON.stringify({ id: item.id, passed: ok, predicted }));
    progress.update(i + 1, `pass@1 ${(passed / (i + 1)).toFixed(3)}`);
  }
  const baselines = await cruxBaselines(items, task, engine);
  return {
    task,
    action: task === 'input' ? 'inv_step_call' : actionName,
    n: items.length,
    passed,
    pass_at_1: items.length ? passed / items.length : 0,
    baselines,
  };
}

export function readJsonl<T>(path: string): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${path}`);
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch {
        throw new UsageError(`${path}:${i + 1} is not JSON`);
      }
    });
}

export type { StateComparison, DebugState };
