// Greedy decoding on an exported decoder with its key/value cache kept between calls: each call
// runs only the tokens the cache does not hold yet (the longest common prefix is reused).
// Works with onnxruntime-node and onnxruntime-web (both implement onnxruntime-common).

import type { InferenceSession, Tensor } from 'onnxruntime-common';

export interface TensorFactory {
  new (type: 'int64', data: BigInt64Array, dims: readonly number[]): Tensor;
  new (type: 'float32', data: Float32Array, dims: readonly number[]): Tensor;
}

export interface DecoderShape {
  layers: number;
  kvHeads: number;
  headDim: number;
  /** The longest sequence the model was trained on (config.json's `ndb_trained_context`), when
   * known: past it, its positions were never trained. */
  trainedContext?: number;
  /** The most positions it can run at all (config.json's `max_position_embeddings`). */
  maxPositions?: number;
}

export interface GenerateOptions {
  maxNewTokens: number;
  stopIds: ReadonlySet<number>;
  /** Called with each new token; return false to stop early. */
  onToken?: (token: number) => boolean | void;
  /** Sample from softmax(logits / temperature) instead of taking the argmax; 0 or absent: greedy. */
  temperature?: number;
  /** Uniform numbers in [0, 1) for sampling (default Math.random). */
  random?: () => number;
  /** Chooses what follows from the logits, in place of argmax or sampling: the chosen token and
   * any the caller fixes after it (run through the model together, as one prefill), or `stop`
   * when nothing may follow (constrained decoding, neuralEngine/constrainedDecoding.ts). */
  choose?: (logits: Float32Array) => StepChoice;
}

export interface StepChoice {
  tokens: number[];
  /** End here (the tokens, if any, are kept). */
  stop?: boolean;
}

export interface GenerateResult {
  tokens: number[];
  /** Prompt tokens that had to be run (not found in the cache). */
  prefillTokens: number;
  stoppedBy: 'stop' | 'length' | 'callback';
  /** Milliseconds spent in the prompt's run (prefill) and in the runs after it (decode). */
  prefillMs: number;
  decodeMs: number;
  /** Runs of the decode loop (the first new token comes from the prefill); a run carries several
   * tokens where the caller's `choose` gave several (tokens a constraint forces). */
  decodeSteps: number;
  /** The decode runs that carried one token, and the milliseconds they took with the choice that
   * came before each: what compares like for like with a bare one-token loop (`ndb bench`). */
  singleRuns: number;
  singleRunMs: number;
}

export class CausalLM {
  private cache: Tensor[] = [];
  private cached: number[] = [];

  constructor(
    private readonly TensorCtor: TensorFactory,
    private readonly session: InferenceSession,
    readonly shape: DecoderShape,
  ) {
    this.reset();
  }

  get cachedTokens(): readonly number[] {
    return this.cached;
  }

  reset(): void {
    const empty = new Float32Array(0);
    this.cache = [];
    for (let i = 0; i < this.shape.layers * 2; i++) {
      this.cache.push(new this.TensorCtor('float32', empty, [1, this.shape.kvHeads, 0, this.shape.headDim]));
    }
    this.cached = [];
  }

  /** Brings the cache to exactly `tokens` and returns the logits that follow the last one. */
  async prefill(tokens: readonly number[]): Promise<{ logits: Float32Array; ran: number }> {
    if (tokens.length === 0) throw new Error('an empty prompt');
    let keep = 0;
    const limit = Math.min(tokens.length - 1, this.cached.length);
    while (keep < limit && this.cached[keep] === tokens[keep]) keep++;
    this.truncate(keep);
    const fresh = tokens.slice(keep);
    return { logits: await this.run(fresh), ran: fresh.length };
  }

  async generate(prompt: readonly number[], options: GenerateOptions): Promise<GenerateResult> {
    const t0 = performance.now();
    let { logits, ran } = await this.prefill(prompt);
    const prefillMs = performance.now() - t0;
    const t1 = performance.now();
    let decodeSteps = 0;
    let singleRuns = 0;
    let singleRunMs = 0;
    const out: number[] = [];
    const temperature = options.temperature ?? 0;
    const done = (stoppedBy: GenerateResult['stoppedBy']): GenerateResult => ({
      tokens: out,
      prefillTokens: ran,
      stoppedBy,
      prefillMs,
      decodeMs: performance.now() - t1,
      decodeSteps,
      singleRuns,
      singleRunMs,
    });
    for (;;) {
      const stepStarted = performance.now();
      let next: number[];
      if (options.choose) {
        const choice = options.choose(logits);
        next = choice.tokens;
        for (const t of next) {
          out.push(t);
          if (options.stopIds.has(t)) return done('stop');
        }
        if (choice.stop || next.length === 0) return done('callback');
      } else {
        const t = temperature > 0 ? sample(logits, temperature, options.random ?? Math.random) : argmax(logits);
        next = [t];
        out.push(t);
        if (options.stopIds.has(t)) return done('stop');
        if (options.onToken?.(t) === false) return done('callback');
      }
      if (out.length >= options.maxNewTokens) return done('length');
      logits = await this.run(next);
      decodeSteps++;
      if (next.length === 1) {
        singleRuns++;
        singleRunMs += performance.now() - stepStarted;
      }
    }
  }

  private truncate(length: number): void {
    if (length >= this.cached.length) return;
    if (length === 0) {
      this.reset();
      return;
    }
    const { kvHeads, headDim } = this.shape;
    const old = this.cached.length;
    this.cache = this.cache.map((t) => {
      const src = t.data as Float32Array;
      const dst = new Float32Array(kvHeads * length * headDim);
      for (let h = 0; h < kvHeads; h++) {
        dst.set(src.subarray(h * old * headDim, (h * old + length) * headDim), h * length * headDim);
      }
      return new this.TensorCtor('float32', dst, [1, kvHeads, length, headDim]);
    });
    this.cached = this.cached.slice(0, length);
  }

  private async run(tokens: readonly number[]): Promise<Float32Array> {
    const past = this.cached.length;
    const total = past + tokens.length;
    const feeds: Record<string, Tensor> = {
      input_ids: new this.TensorCtor('int64', BigInt64Array.from(tokens, BigInt), [1, tokens.length]),
      attention_mask: new this.TensorCtor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      position_ids: new this.TensorCtor('int64', BigInt64Array.from(tokens, (_, i) => BigInt(past + i)), [1, tokens.length]),
    };
    for (let i = 0; i < this.shape.layers; i++) {
      feeds[`past_key_values.${i}.key`] = this.cache[2 * i]!;
      feeds[`past_key_values.${i}.value`] = this.cache[2 * i + 1]!;
    }
    const out = await this.session.run(feeds);
    for (let i = 0; i < this.shape.layers; i++) {
      this.cache[2 * i] = out[`present.${i}.key`]!;
      this.cache[2 * i + 1] = out[`present.${i}.value`]!;
    }
    for (const t of tokens) this.cached.push(t);
    const logits = out.logits!;
    const vocab = logits.dims[2]!;
    const data = logits.data as Float32Array;
    return data.slice((tokens.length - 1) * vocab, tokens.length * vocab);
  }
}

/** A token drawn from softmax(logits / temperature). */
export function sample(logits: Float32Array, temperature: number, random: () => number = Math.random): number {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  const weights = new Float64Array(logits.length);
  let total = 0;
  for (let i = 0; i < logits.length; i++) {
    const w = Math.exp((logits[i]! - max) / temperature);
    weights[i] = w;
    total += w;
  }
  let r = random() * total;
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i]!;
    if (r < 0) return i;
  }
  return argmax(logits);
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
