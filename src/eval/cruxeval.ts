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
import { seededRandom, seedOf } from '../util/seededRandom';

/** What the model is asked: f's output, at once (step_return) or by way of the line that returns
 * (breakpoint); or f's input (inv_step_call). */
export type CruxQuestion = { task: 'output'; action: 'step_return' | 'breakpoint' } | { task: 'input'; verify?: number };

/** The temperature of the calls sampled beside the greedy one when input prediction checks its
 * answers (`--verify K`), as the app's Guess inputs samples them. */
export const VERIFY_TEMPERATURE = 0.8;

export interface CruxResult {
  task: CruxQuestion['task'];
  action: 'step_return' | 'breakpoint' | 'inv_step_call';
  n: number;
  passed: number;
  pass_at_1: number;
  /** Trivial answers scored on the same items (src/core/baselines.ts). */
  baselines: OutputBaselines | InputBaselines;
  /** Input prediction with the checker (`--verify K`): up to K calls (the greedy one, then
   * samples), each run in the real engine, the first that returns the output kept. Apart from
   * pass@1, which is the greedy call alone. */
  verified?: { k: number; passed: number; pass_with_checker: number; calls_run: number };
}

/** One item's answer: the predicted value (output) or call arguments (input), null when the model
 * gave none that could be checked. */
export interface CruxItemResult {
  id: string;
  passed: boolean;
  predicted: string | null;
  /** With the checker: whether one of the K calls returned the output, which, and how many ran. */
  verified?: { passed: boolean; predicted: string | null; tried: number };
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
  const verify = question.task === 'input' ? (question.verify ?? 0) : 0;
  let verifiedPassed = 0;
  let callsRun = 0;
  for (const [i, item] of items.entries()) {
    const own = engine.forOwner(`eval item ${randomUUID()}`);
    const answer = question.task === 'output' ? await predictOutput(model, own, item, question.action) : await predictInput(model, own, item, verify);
    if (answer.ok) passed++;
    if (answer.verified?.passed) verifiedPassed++;
    callsRun += answer.verified?.tried ?? 0;
    const result: CruxItemResult = { id: item.id, passed: answer.ok, predicted: answer.predicted, ...(answer.verified ? { verified: answer.verified } : {}) };
    onItem?.(result, { done: i + 1, total: items.length, passed });
  }
  const baselines = await cruxBaselines(items, question.task, engine);
  return {
    task: question.task,
    action: question.task === 'input' ? 'inv_step_call' : question.action,
    n: items.length,
    passed,
    pass_at_1: items.length ? passed / items.length : 0,
    baselines,
    ...(verify > 0 ? { verified: { k: verify, passed: verifiedPassed, pass_with_checker: items.length ? verifiedPassed / items.length : 0, calls_run: callsRun } } : {}),
  };
}


interface Answer {
  ok: boolean;
  predicted: string | null;
  verified?: { passed: boolean; predicted: string | null; tried: number };
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

/** The call arguments a predicted call state stands for (null: none that can be run). */
async function argumentsOf(engine: PythonHost, s: ParseResult): Promise<string | null> {
  if ('unparseable' in s || s.event !== 'call' || !s.locals) return null;
  return engine.callArguments(Object.values(s.locals));
}

async function predictInput(model: LoadedModel, engine: PythonHost, item: CruxItem, verify = 0): Promise<Answer> {
  const call = await recordCall(engine, item);
  if (!call) return verify > 0 ? { ...NO_ANSWER, verified: { passed: false, predicted: null, tried: 0 } } : NO_ANSWER;
  const session = new NeuralSession(model.predictor, call.rec, call.entryReturn, []);
  const args = await argumentsOf(engine, (await session.predict({ kind: 'inv_step_call' })).state);
  const ok = args !== null && (await returnsOutput(engine, item, args));
  if (verify <= 0) return { ok, predicted: args };
  // the checker: the greedy call first, then samples, each run; the first that returns the output
  const seen = new Set<string>();
  let tried = 0;
  const check = async (candidate: string | null): Promise<boolean> => {
    if (candidate === null || seen.has(candidate)) return false;
    seen.add(candidate);
    tried++;
    return candidate === args ? ok : returnsOutput(engine, item, candidate);
  };
  if (await check(args)) return { ok, predicted: args, verified: { passed: true, predicted: args, tried } };
  const random = seededRandom(seedOf(item.id));
  for (let i = 1; i < verify; i++) {
    const sampled = await argumentsOf(engine, (await session.predict({ kind: 'inv_step_call' }, { temperature: VERIFY_TEMPERATURE, random })).state);
    if (await check(sampled)) return { ok, predicted: args, verified: { passed: true, predicted: sampled, tried } };
  }
  return { ok, predicted: args, verified: { passed: false, predicted: null, tried } };
}
