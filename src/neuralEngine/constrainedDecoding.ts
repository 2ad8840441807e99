// A decoder that can only write states. At each step it takes the most likely token (or, when
// sampling, a token drawn from the model's distribution) that keeps the text a state the program
// can have (core/stateGuard.ts with core/stateConstraints.ts), and it writes what the program
// fixes without asking the model: a line's source text after its number, the whole line of a jump
// that can stop at one line only. Those spans go through the model together, as one prefill.
//
// It also keeps, for every token the model chose, the log-probability the model gave it (among
// the tokens that were allowed) and the part of the state it belongs to: the raw material of the
// prediction's confidence (confidence.ts). Tokens the program fixed are certain and not counted.

import { STATE_TERMINATORS } from '../core/stateGrammar';
import type { ChosenToken } from '../core/confidence';
import type { StatePrefixChecker } from '../core/stateGuard';
import type { StepChoice } from './causalLm';
import { IncrementalDecoder } from './incrementalDecoder';
import type { TextTokenizer } from './textTokenizer';

/** Tokens kept back to end a state that runs long (StatePrefixChecker.closing). */
const CLOSING_RESERVE = 48;

export interface ConstrainedOptions {
  /** The most tokens a state may take: near it, the state is ended with empty values. */
  maxTokens?: number;
  /** The most milliseconds the state may take to write, counted from its first token: past it,
   * the state is ended with empty values as at the token cap (a class waits for no more). */
  maxMs?: number;
  /** The clock (performance.now by default). */
  now?: () => number;
  /** 0 or absent: the most likely allowed token; above 0: drawn from softmax(logits / T) over
   * the allowed tokens. */
  temperature?: number;
  random?: () => number;
}

/** Characters of one, two and four UTF-16 units and of three UTF-8 bytes, standing for the
 * character a token that ends inside one will complete. */
const NON_ASCII = ['\u00e9', '\u65e5', '\u{1F600}'];

export class ConstrainedDecoding {
  /** Every token the model chose, in order. */
  readonly chosen: ChosenToken[] = [];
  /** Tokens the program fixed (written without asking the model). */
  forcedTokens = 0;
  /** Why the text could not go on as a state, when no allowed token was left. */
  refused: string | undefined;
  /** The state ran long and was ended by the decoder, not the model. */
  closedEarly = false;
  private produced = 0;
  /** When the first token was chosen (null: not yet). */
  private started: number | null = null;
  private readonly decoder: IncrementalDecoder;
  private readonly terminator: string;

  constructor(
    private readonly tokenizer: TextTokenizer,
    private checker: StatePrefixChecker,
    private readonly stopIds: ReadonlySet<number>,
    private readonly options: ConstrainedOptions = {},
  ) {
    this.decoder = new IncrementalDecoder(tokenizer);
    this.terminator = STATE_TERMINATORS[0]!;
  }

  /** The names of the locals written so far, by entry (for per-local confidence). */
  get keys(): readonly string[] {
    return this.checker.keys;
  }

  /** CausalLM's `choose`: the next allowed token and what the program fixes after it. */
  choose = (logits: Float32Array): StepChoice => {
    const choice = this.next(logits);
    this.produced += choice.tokens.length;
    return choice;
  };

  /** The state has taken its time: it is ended as soon as it can be. */
  private pastTime(): boolean {
    const limit = this.options.maxMs;
    if (limit === undefined) return false;
    const now = (this.options.now ?? (() => performance.now()))();
    this.started ??= now;
    return now - this.started > limit;
  }

  private next(logits: Float32Array): StepChoice {
    const max = this.options.maxTokens;
    if ((max !== undefined && max - this.produced <= CLOSING_RESERVE) || this.pastTime()) {
      const closing = this.checker.closing();
      if (closing !== null) {
        this.closedEarly = true;
        this.checker.push(closing);
        return { tokens: this.tokenizer.encode(closing) };
      }
    }
    const logZ = logSumExp(logits);
    let excluded = 0; // probability of the tokens tried and refused
    for (const id of this.candidates(logits)) {
      const p = Math.exp(logits[id]! - logZ);
      const trial = this.checker.clone();
      const isStop = this.stopIds.has(id);
      const text = isStop ? this.terminator : this.decoder.peek(id);
      if (text === null) {
        excluded += p;
        continue;
      }
      // '' is a character not yet complete: its bytes are checked with the token that ends it,
      // and taken now only where some character beyond ASCII could stand
      const verdict = trial.push(text);
      const dead = text === '' && !isStop && !NON_ASCII.some((c) => trial.clone().push(c).ok);
      if (!verdict.ok || dead || (isStop && !verdict.ended)) {
        excluded += p;
        continue;
      }
      const part = this.checker.part();
      this.chosen.push({ part, logp: Math.log(p) - Math.log(Math.max(1e-12, 1 - excluded)) });
      this.checker = trial;
      if (isStop) return { tokens: [id] };
      this.decoder.push(id);
      if (verdict.ended) return { tokens: [id], stop: true };
      return { tokens: [id, ...this.force()] };
    }
    this.refused = this.checker.verdict().ok ? 'no token the model knows can go on as a state here' : (this.checker.verdict() as { reason: string }).reason;
    return { tokens: [], stop: true };
  }

  /** Writes what the program fixes now (possibly nothing) into the checker; its token ids. */
  private force(): number[] {
    const text = this.checker.forced();
    if (text === '') return [];
    const ids = this.tokenizer.encode(text);
    this.checker.push(text);
    for (const id of ids) this.decoder.push(id);
    this.forcedTokens += ids.length;
    return ids;
  }

  /** Token ids in the order to try: the most likely first (or a draw), then by likelihood. */
  private *candidates(logits: Float32Array): Generator<number> {
    const t = this.options.temperature ?? 0;
    const seen = new Set<number>();
    if (t > 0) {
      // draws without replacement: a refused token is not drawn again
      const random = this.options.random ?? Math.random;
      const weights = new Float64Array(logits.length);
      let max = -Infinity;
      for (const v of logits) max = Math.max(max, v);
      let total = 0;
      for (let i = 0; i < logits.length; i++) total += weights[i] = Math.exp((logits[i]! - max) / t);
      for (let draw = 0; draw < 32 && total > 0; draw++) {
        let r = random() * total;
        let pick = weights.length - 1;
        for (let i = 0; i < weights.length; i++) {
          r -= weights[i]!;
          if (r < 0) {
            pick = i;
            break;
          }
        }
        if (weights[pick] === 0) break;
        total -= weights[pick]!;
        weights[pick] = 0;
        seen.add(pick);
        yield pick;
      }
    } else {
      let best = 0;
      for (let i = 1; i < logits.length; i++) if (logits[i]! > logits[best]!) best = i;
      seen.add(best);
      yield best;
    }
    const order = Array.from(logits.keys()).sort((a, b) => logits[b]! - logits[a]!);
    for (const id of order) if (!seen.has(id)) yield id;
  }
}

export function logSumExp(values: Float32Array): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}
