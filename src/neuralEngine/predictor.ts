// Turns a prompt in the model's text format into the next state's text: tokenize, greedy-decode
// with the cached decoder, stop at a state terminator, or as soon as the text can no longer become
// a state (src/core/stateGuard.ts).

import { STATE_TERMINATORS } from '../core/stateGrammar';
import type { Calibration, ChosenToken } from '../core/confidence';
import type { StateConstraints } from '../core/stateConstraints';
import { StatePrefixChecker, type StateLimits } from '../core/stateGuard';
import type { CausalLM, GenerateResult } from './causalLm';
import { ConstrainedDecoding } from './constrainedDecoding';
import { IncrementalDecoder } from './incrementalDecoder';
import type { TextTokenizer } from './textTokenizer';

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
  /** One-token decode runs and their milliseconds (GenerateResult). */
  singleRuns: number;
  singleRunMs: number;
  /** `stop`: a terminator; `length`: the token cap; `invalid`: the text could no longer become a
   * state (see `refused`). */
  stoppedBy: 'stop' | 'length' | 'invalid';
  /** Why the text was stopped as unreadable: its state must be taken as unparseable. */
  refused?: string;
  /** Constrained decoding: each token the model chose, with its log-probability and the part of
   * the state it wrote; the names of the locals by entry; tokens the program fixed. */
  chosen?: ChosenToken[];
  keys?: string[];
  forcedTokens?: number;
  /** The state ran past the token budget and was ended with empty values by the decoder. */
  closedEarly?: boolean;
}

export interface CompleteOptions {
  /** 0 or absent: greedy; above 0: sampling (inversion is one-to-many: docs/architecture.md#glossary). */
  temperature?: number;
  random?: () => number;
  /** Stop as soon as the text cannot become a state within these limits; absent: only the
   * terminators and the token cap stop it. */
  guard?: StateLimits | null;
  /** The prompt's ids when the caller has them already (NeuralSession's window counts them). */
  promptIds?: readonly number[];
  /** With `guard`: decode under these constraints (only states the program can have, the text
   * it fixes written without the model); absent: greedy, stopped by the guard. */
  constraints?: StateConstraints | null;
}


export const EOS_TOKEN = '<|endoftext|>';

export class StatePredictor {
  readonly stopIds: ReadonlySet<number>;
  /** Turns the model's probabilities into confidences (config.json's ndb_calibration); null: the
   * model's own probabilities are the confidences. */
  calibration: Calibration | null = null;
  /** The most milliseconds a state may take to write after its prompt is read (null: no limit,
   * only the token cap): past it the constrained decoder ends the state (`closedEarly`), and the
   * plain one stops (`refused`). The app sets one a class can wait for. */
  maxMs: number | null = null;

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

  /** The prompt's ids (what `complete` reads). */
  encode(text: string): number[] {
    return this.tokenizer.encode(text);
  }

  async complete(prompt: string, options: CompleteOptions = {}): Promise<Completion> {
    const started = this.now();
    const { guard, promptIds, constraints, ...sampling } = options;
    const ids = promptIds ? [...promptIds] : this.tokenizer.encode(prompt);
    if (guard && constraints) return this.completeConstrained(ids, new StatePrefixChecker(guard, constraints), sampling, started);
    const checker = guard ? new StatePrefixChecker(guard) : null;
    const decoder = new IncrementalDecoder(this.tokenizer);
    let refused: string | undefined;
    let endedInText = false;
    const limit = this.maxMs;
    let first: number | null = null;
    const onToken = (id: number): boolean => {
      if (limit !== null) {
        const now = this.now();
        first ??= now;
        if (now - first > limit) {
          refused = `longer than ${Math.round(limit / 100) / 10} s to write`;
          return false;
        }
      }
      if (!checker) return true;
      const verdict = checker.push(decoder.push(id));
      if (!verdict.ok) refused = verdict.reason;
      // a terminator spelt out in plain text ends the state as parseState reads it
      else if (verdict.ended) endedInText = true;
      return verdict.ok && !verdict.ended;
    };
    const out = await this.lm.generate(ids, {
      maxNewTokens: this.maxNewTokens,
      stopIds: this.stopIds,
      ...sampling,
      ...(checker || limit !== null ? { onToken } : {}),
    });
    const stoppedBy: Completion['stoppedBy'] = refused !== undefined ? 'invalid' : out.stoppedBy === 'length' ? 'length' : 'stop';
    return { ...this.result(ids, out, started, endedInText), ...(refused !== undefined ? { refused } : {}), stoppedBy };
  }

  /** The completion's text (up to a terminator the model spelt out in plain text, which ends the
   * state as parseState reads it) and its counts. */
  private result(ids: readonly number[], out: GenerateResult, started: number, cutAtTerminator: boolean): Omit<Completion, 'stoppedBy'> {
    const body = out.stoppedBy === 'stop' ? out.tokens.slice(0, -1) : out.tokens;
    let text = this.tokenizer.decode(body);
    if (cutAtTerminator) text = text.slice(0, Math.min(...STATE_TERMINATORS.map((t) => (text.includes(t) ? text.indexOf(t) : text.length))));
    return {
      text,
      ids: out.tokens,
      newTokens: out.tokens.length,
      prefillTokens: out.prefillTokens,
      ms: this.now() - started,
      promptTokens: ids.length,
      prefillMs: out.prefillMs,
      decodeMs: out.decodeMs,
      decodeSteps: out.decodeSteps,
      singleRuns: out.singleRuns,
      singleRunMs: out.singleRunMs,
    };
  }

  private async completeConstrained(
    ids: number[],
    checker: StatePrefixChecker,
    sampling: Pick<CompleteOptions, 'temperature' | 'random'>,
    started: number,
  ): Promise<Completion> {
    const decoding = new ConstrainedDecoding(this.tokenizer, checker, this.stopIds, {
      ...sampling,
      maxTokens: this.maxNewTokens,
      ...(this.maxMs !== null ? { maxMs: this.maxMs, now: this.now } : {}),
    });
    const out = await this.lm.generate(ids, { maxNewTokens: this.maxNewTokens, stopIds: this.stopIds, choose: decoding.choose });
    const refused = decoding.refused ?? (out.stoppedBy === 'length' ? `longer than ${this.maxNewTokens} tokens` : undefined);
    return {
      ...this.result(ids, out, started, true),
      ...(refused !== undefined ? { refused } : {}),
      stoppedBy: refused !== undefined ? (out.stoppedBy === 'length' ? 'length' : 'invalid') : 'stop',
      chosen: decoding.chosen,
      keys: [...decoding.keys],
      forcedTokens: decoding.forcedTokens,
      closedEarly: decoding.closedEarly,
    };
  }
}
