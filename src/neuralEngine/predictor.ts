// Turns a prompt in the model's text format into the next state's text: tokenize, greedy-decode
// with the cached decoder, stop at a state terminator.

import { STATE_TERMINATORS } from '../core/format';
import type { CausalLM } from './causalLm';

export interface TextTokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  tokenId(token: string): number | undefined;
}

export interface Completion {
  /** The generated state's text, without the terminator. */
  text: string;
  /** Its token ids (the terminator included when generation stopped at one). */
  ids: number[];
  newTokens: number;
  prefillTokens: number;
  ms: number;
  /** The prompt's length in tokens (prefillTokens of them were not in the cache). */
  promptTokens: number;
  prefillMs: number;
  decodeMs: number;
  decodeSteps: number;
  stoppedBy: 'stop' | 'length' | 'callback';
}

export interface CompleteOptions {
  /** 0 or absent: greedy; above 0: sampling (inversion is one-to-many: docs/architecture.md#glossary). */
  temperature?: number;
  random?: () => number;
}

export const EOS_TOKEN = '<|endoftext|>';

export class StatePredictor {
  readonly stopIds: ReadonlySet<number>;

  constructor(
    readonly lm: CausalLM,
    readonly tokenizer: TextTokenizer,
    readonly maxNewTokens = 384,
    private readonly now: () => number = () => performance.now(),
  ) {
    const ids = [...STATE_TERMINATORS, EOS_TOKEN].map((t) => tokenizer.tokenId(t)).filter((id): id is number => id !== undefined);
    if (ids.length < STATE_TERMINATORS.length) throw new Error('the tokenizer lacks the format tokens that end a state');
    this.stopIds = new Set(ids);
  }

  async complete(prompt: string, options: CompleteOptions = {}): Promise<Completion> {
    const started = this.now();
    const ids = this.tokenizer.encode(prompt);
    const out = await this.lm.generate(ids, { maxNewTokens: this.maxNewTokens, stopIds: this.stopIds, ...options });
    const body = out.stoppedBy === 'stop' ? out.tokens.slice(0, -1) : out.tokens;
    return {
      text: this.tokenizer.decode(body),
      ids: out.tokens,
      newTokens: out.tokens.length,
      prefillTokens: out.prefillTokens,
      ms: this.now() - started,
      promptTokens: ids.length,
      prefillMs: out.prefillMs,
      decodeMs: out.decodeMs,
      decodeSteps: out.decodeSteps,
      stoppedBy: out.stoppedBy,
    };
  }
}
