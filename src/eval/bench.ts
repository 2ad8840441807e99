// `ndb bench`: the neural engine's speed on a fixed set of prompts from the example programs,
// beside a bare onnxruntime-node greedy loop on the same session and prompts in the same run
// (absolute times here are noisy, so always measure against a reference: docs/architecture.md#measuring).
//
// Each state: the engine (NeuralSession → StatePredictor → CausalLM with its kept KV cache)
// predicts, then the real state enters the history (Compare use), so the next prompt grows by the
// action and one state. Right after it, the bare loop runs the same prompt from an empty cache and
// runs as many one-token decode runs as the engine made runs. Decode rates are compared like for
// like: the engine's one-token runs (each with the constrained decoder's choice before it) per
// second against the bare loop's. A run of the engine that carries several tokens (those a
// constraint forces) is not counted there: it makes tokens faster than one-token runs do, so the
// bench reports it apart, as tokens per second of the whole decode.

import * as ort from 'onnxruntime-node';
import { parseAction, type Action } from '../core/actions';
import { Navigator } from '../core/navigator';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import { NeuralSession } from '../neuralEngine/neuralSession';
import { argmax } from '../neuralEngine/causalLm';
import { decoderShape } from '../neuralEngine/modelConfig';
import type { PythonHost } from '../realEngine/pythonHost';
import { EVAL_LIMITS } from '../core/limits';

/** The actions run on every program, in this order. */
export const BENCH_ACTIONS = ['step_into', 'step_into', 'step_over', 'step_over', 'step_into', 'step_over', 'step_return', 'inv_step_call'];

/** A program the bench runs: the example programs of the gallery (`ndb bench` takes the first six
 * in file order). */
export interface BenchProgram {
  id: string;
  source: string;
  call: string;
}

export interface BenchOptions {
  actions?: readonly string[];
  /** Cap on the tokens of one predicted state; default the predictor's. */
  maxNewTokens?: number;
  onState?: (state: BenchState) => void;
}

/** One predicted state, as it was measured. */
export interface BenchState {
  program: string;
  action: Action['kind'];
  prompt_tokens: number;
  prefill_tokens: number;
  new_tokens: number;
  ms: number;
  decode_tokens_per_s: number;
  raw_decode_tokens_per_s: number;
}

export interface BenchResult {
  model: string;
  dtype: string;
  programs: number;
  states: number;
  /** The engine's decode loop: one-token runs per second. */
  tokens_per_s: number;
  /** The engine's decode loop, all runs: generated tokens per second (forced tokens come several to a run). */
  decoded_tokens_per_s: number;
  /** Share of the engine's decode runs that carried several tokens. */
  multi_token_runs: number;
  /** The bare session's greedy loop on the same prompts: one-token runs per second. */
  raw_tokens_per_s: number;
  /** tokens_per_s / raw_tokens_per_s (issue 32's target: ≥ 0.95). */
  ratio: number;
  ms_per_state: number;
  /** Prompt tokens that were run per state (the cache held the rest). */
  prefill_tokens_per_state: number;
  /** The whole prompt per state, for comparison. */
  prompt_tokens_per_state: number;
  /** Tokens appended to the trajectory per state (the action and the real state), for comparison. */
  appended_tokens_per_state: number;
  new_tokens_per_state: number;
  /** What the bare loop needs per state with no cache: a full prefill (ms). */
  raw_prefill_ms_per_state: number;
  engine_prefill_ms_per_state: number;
  threads: number;
}

/** A bare greedy loop on the session: full prefill from an empty cache, then `steps` one-token runs. */
async function rawGreedy(model: LoadedModel, prompt: number[], steps: number): Promise<{ prefillMs: number; decodeMs: number }> {
  const { layers, kvHeads, headDim } = decoderShape(model.config);
  const session = model.session;
  const ids = (tokens: number[]) => new ort.Tensor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]);
  let past: ort.Tensor[] = [];
  for (let i = 0; i < 2 * layers; i++) past.push(new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]));
  let length = 0;
  const run = async (tokens: number[]): Promise<number> => {
    const total = length + tokens.length;
    const feeds: Record<string, ort.Tensor> = {
      input_ids: ids(tokens),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from(tokens, (_, i) => BigInt(length + i)), [1, tokens.length]),
    };
    for (let i = 0; i < layers; i++) {
      feeds[`past_key_values.${i}.key`] = past[2 * i]!;
      feeds[`past_key_values.${i}.value`] = past[2 * i + 1]!;
    }
    const out = await session.run(feeds);
    past = [];
    for (let i = 0; i < layers; i++) past.push(out[`present.${i}.key`]!, out[`present.${i}.value`]!);
    length = total;
    const logits = out.logits!;
    const vocab = logits.dims[2]!;
    return argmax((logits.data as Float32Array).subarray((tokens.length - 1) * vocab, tokens.length * vocab));
  };
  const t0 = performance.now();
  let next = await run(prompt);
  const prefillMs = performance.now() - t0;
  const t1 = performance.now();
  for (let s = 0; s < steps; s++) next = await run([next]);
  return { prefillMs, decodeMs: performance.now() - t1 };
}

export async function runBench(model: LoadedModel, engine: PythonHost, programs: readonly BenchProgram[], options: BenchOptions = {}): Promise<BenchResult> {
  const actions: Action[] = (options.actions ?? BENCH_ACTIONS).map(parseAction);
  const predictor = model.predictor;
  const saved = predictor.maxNewTokens;
  if (options.maxNewTokens !== undefined) (predictor as { maxNewTokens: number }).maxNewTokens = options.maxNewTokens;
  let states = 0;
  let engineDecodeMs = 0;
  let engineDecodeSteps = 0;
  let engineSingleMs = 0;
  let engineSingleRuns = 0;
  let decodedTokens = 0;
  let rawDecodeMs = 0;
  let rawSteps = 0;
  let ms = 0;
  let prefill = 0;
  let prompt = 0;
  let appended = 0;
  let newTokens = 0;
  let rawPrefillMs = 0;
  let enginePrefillMs = 0;
  try {
    for (const program of programs) {
      const rec = await engine.record(program.source, program.call, EVAL_LIMITS);
      if (rec.events.length === 0) continue;
      const nav = new Navigator(rec, []);
      const session = new NeuralSession(predictor, rec, nav.position, []);
      let lastPromptTokens = -1;
      for (const action of actions) {
        if (nav.position >= rec.events.length) break;
        const text = session.promptFor(action);
        const ids = predictor.tokenizer.encode(text);
        const c = await session.predict(action);
        const raw = await rawGreedy(model, ids, c.decodeSteps);
        states++;
        ms += c.ms;
        engineDecodeMs += c.decodeMs;
        engineDecodeSteps += c.decodeSteps;
        engineSingleMs += c.singleRunMs;
        engineSingleRuns += c.singleRuns;
        // the first new token comes from the prefill
        decodedTokens += Math.max(0, c.newTokens - 1);
        rawDecodeMs += raw.decodeMs;
        rawSteps += c.decodeSteps;
        prefill += c.prefillTokens;
        prompt += c.promptTokens;
        newTokens += c.newTokens;
        rawPrefillMs += raw.prefillMs;
        enginePrefillMs += c.prefillMs;
        // What the trajectory grew by since the last prompt (the previous answer excluded).
        if (lastPromptTokens >= 0) appended += c.promptTokens - lastPromptTokens;
        else appended += c.promptTokens;
        options.onState?.({
          program: program.id,
          action: action.kind,
          prompt_tokens: c.promptTokens,
          prefill_tokens: c.prefillTokens,
          new_tokens: c.newTokens,
          ms: round(c.ms),
          decode_tokens_per_s: round(c.singleRunMs > 0 ? (1000 * c.singleRuns) / c.singleRunMs : 0),
          raw_decode_tokens_per_s: round(raw.decodeMs > 0 ? (1000 * c.decodeSteps) / raw.decodeMs : 0),
        });
        lastPromptTokens = c.promptTokens;
        session.acceptReal(action, nav.apply(action));
      }
    }
  } finally {
    (predictor as { maxNewTokens: number }).maxNewTokens = saved;
  }
  const tokensPerS = engineSingleMs > 0 ? (1000 * engineSingleRuns) / engineSingleMs : 0;
  const rawPerS = rawDecodeMs > 0 ? (1000 * rawSteps) / rawDecodeMs : 0;
  const per = (x: number) => (states ? round(x / states) : 0);
  return {
    model: model.dir,
    dtype: model.dtype,
    programs: programs.length,
    states,
    tokens_per_s: round(tokensPerS),
    raw_tokens_per_s: round(rawPerS),
    decoded_tokens_per_s: round(engineDecodeMs > 0 ? (1000 * decodedTokens) / engineDecodeMs : 0),
    multi_token_runs: engineDecodeSteps > 0 ? round((engineDecodeSteps - engineSingleRuns) / engineDecodeSteps, 3) : 0,
    ratio: rawPerS > 0 ? round(tokensPerS / rawPerS, 3) : 0,
    ms_per_state: per(ms),
    prefill_tokens_per_state: per(prefill),
    prompt_tokens_per_state: per(prompt),
    appended_tokens_per_state: per(appended),
    new_tokens_per_state: per(newTokens),
    raw_prefill_ms_per_state: per(rawPrefillMs),
    engine_prefill_ms_per_state: per(enginePrefillMs),
    threads: 2,
  };
}

function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Several runs of the same bench, summarised by the median of each number (these machines are
 * noisy: one run's ratio can move by ±0.15). */
export function medianResult(runs: readonly BenchResult[]): BenchResult & { runs: number } {
  const first = runs[0];
  if (!first) throw new Error('no bench runs');
  const median = (key: keyof BenchResult): number => {
    const xs = runs.map((r) => r[key] as number).sort((a, b) => a - b);
    const mid = xs.length >> 1;
    return xs.length % 2 ? xs[mid]! : round((xs[mid - 1]! + xs[mid]!) / 2, 3);
  };
  const out = { ...first, runs: runs.length };
  for (const key of Object.keys(first) as Array<keyof BenchResult>) {
    if (typeof first[key] === 'number') (out as Record<string, unknown>)[key] = median(key);
  }
  return out;
}
