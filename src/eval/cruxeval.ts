// `ndb eval cruxeval`: CruxEval posed as in the paper (docs/architecture.md#evaluation). Output
// prediction starts at the call of f and asks step_return (or a breakpoint at the line that
// returns, then step_return); input prediction starts at f's return and asks inv_step_call, scored
// by running f on the predicted arguments. The trivial baselines are scored on the same items.

import { randomUUID } from 'node:crypto';
import type { Action } from '../core/actions';
import type { InputBaselines, OutputBaselines } from '../core/baselines';
import type { ParseResult } from '../core/format';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import type { PythonHost } from '../realEngine/pythonHost';
import { cruxBaselines, returnsOutput } from './cruxBaselines';
import type { CruxItem } from './items';
import { CRUX_RUN_LIMITS } from '../core/limits';

/** What the model is asked: f's output, at once (step_return) or by way of the line that returns
 * (breakpoint); or f's input (inv_step_call). */
export type CruxQuestion = { task: 'output'; action: 'step_return' | 'breakpoint' } | { task: 'input' };

export interface CruxResult {
  task: CruxQuestion['task'];
  action: 'step_return' | 'breakpoint' | 'inv_step_call';
  n: number;
  passed: number;
  pass_at_1: number;
  /** Trivial answers scored on the same items (src/core/baselines.ts). */
  baselines: OutputBaselines | InputBaselines;
}

/** One item's answer: the predicted value (output) or call arguments (input), null when the model
 * gave none that could be checked. */
export interface CruxItemResult {
  id: string;
  passed: boolean;
  predicted: string | null;
}

/** Told after each item: its result, and the count so far. */
export type OnCruxItem = (result: CruxItemResult, sofar: { done: number; total: number; passed: number }) => void;

export async function evalCruxeval(
  model: LoadedModel,
  engine: PythonHost,
  items: readonly CruxItem[],
  question: CruxQuestion,
  onItem?: OnCruxItem,
): Promise<CruxResult> {
  let passed = 0;
  for (const [i, item] of items.entries()) {
    const own = engine.forOwner(`eval item ${randomUUID()}`);
    const { ok, predicted } = question.task === 'output' ? await predictOutput(model, own, item, question.action) : await predictInput(model, own, item);
    if (ok) passed++;
    onItem?.({ id: item.id, passed: ok, predicted }, { done: i + 1, total: items.length, passed });
  }
  const baselines = await cruxBaselines(items, question.task, engine);
  return {
    task: question.task,
    action: question.task === 'input' ? 'inv_step_call' : question.action,
    n: items.length,
    passed,
    pass_at_1: items.length ? passed / items.length : 0,
    baselines,
  };
}

interface Answer {
  ok: boolean;
  predicted: string | null;
}

const NO_ANSWER: Answer = { ok: false, predicted: null };

/** Records f's call; null when it never returned (nothing to ask for). */
export async function recordCall(engine: PythonHost, item: CruxItem) {
  const rec = await engine.record(item.code, `f(${item.input})`, CRUX_RUN_LIMITS);
  const entryReturn = rec.events.findIndex((e) => e.event === 'return' && e.depth === 0);
  return rec.events.length > 0 && entryReturn >= 0 ? { rec, entryReturn } : null;
}

async function predictOutput(model: LoadedModel, engine: PythonHost, item: CruxItem, how: 'step_return' | 'breakpoint'): Promise<Answer> {
  const call = await recordCall(engine, item);
  if (!call) return NO_ANSWER;
  const { rec, entryReturn } = call;
  const session = new NeuralSession(model.predictor, rec, 0, []);
  const actions: Action[] = how === 'breakpoint' ? [{ kind: 'breakpoint', line: rec.events[entryReturn]!.line }, { kind: 'step_return' }] : [{ kind: 'step_return' }];
  let last: ParseResult | null = null;
  for (const action of actions) {
    const p = await session.predict(action);
    session.acceptPredicted(p);
    last = p.state;
  }
  if (!last || 'unparseable' in last || last.event !== 'return' || last.value === undefined || last.raising) return NO_ANSWER;
  return { ok: await returnsExpected(engine, item, last), predicted: last.value };
}

/** Whether a predicted state is f's return with the item's expected output (compared by Python). */
export async function returnsExpected(engine: PythonHost, item: CruxItem, s: ParseResult): Promise<boolean> {
  return !('unparseable' in s) && s.event === 'return' && s.value !== undefined && !s.raising && (await engine.sameValue(s.value, item.output));
}

async function predictInput(model: LoadedModel, engine: PythonHost, item: CruxItem): Promise<Answer> {
  const call = await recordCall(engine, item);
  if (!call) return NO_ANSWER;
  const session = new NeuralSession(model.predictor, call.rec, call.entryReturn, []);
  const s = (await session.predict({ kind: 'inv_step_call' })).state;
  if ('unparseable' in s || s.event !== 'call' || !s.locals) return NO_ANSWER;
  const args = await engine.callArguments(Object.values(s.locals));
  return { ok: args !== null && (await returnsOutput(engine, item, args)), predicted: args };
}
