// How sure the model is of a predicted state, whole and per field, from the probabilities it gave
// the tokens it chose (the constrained decoder keeps them: neuralEngine/constrainedDecoding.ts),
// and the calibration that turns those into probabilities of being right. Pure.
//
// A field's raw score is the sum of the log-probabilities of the tokens that wrote it (tokens the
// program fixed are certain and add nothing): the event and line number; each local (its name and
// value; the locals a line state leaves unchanged share the score of its ".." entry); the return
// value or exception. Calibration maps a raw score x to sigmoid(a·z + b) per kind (Platt scaling
// on z, the log-odds of the model's own probability exp(x)), fitted on evaluation sets of our own
// (`ndb eval calibrate`); a = 1, b = 0 is exp(x) itself, the confidence without a calibration. (On
// x directly no line can follow exp(x): fitted on x, the sure states' confidence was held below
// 0.71 and the expected calibration error grew fourfold.)

import { nameTable } from './names';
import type { ParseResult } from './format';
import { ELIDED_KEY } from './stateGrammar';
import type { StatePart } from './stateGuard';

/** The model's log-probability of one token it chose, and the part of the state it wrote. */
export interface ChosenToken {
  part: StatePart;
  logp: number;
}

/** Raw scores (sums of log-probabilities) of a state and its fields. */
export interface StateScores {
  state: number;
  position: number;
  locals: Record<string, number>;
  value?: number;
}

/** p = sigmoid(a·logOdds(x) + b) for a raw score x. */
export interface Platt {
  a: number;
  b: number;
}

export type ConfidenceKind = 'state' | 'position' | 'local' | 'value';

export interface Calibration {
  state: Platt;
  position: Platt;
  local: Platt;
  value: Platt;
  /** The evaluation sets it was fitted on, and on how many items of each kind. */
  fitted_on?: string[];
  n?: Partial<Record<ConfidenceKind, number>>;
}

/** Probabilities that the state, and each of its fields, is exactly right. */
export interface Confidence {
  state: number;
  position: number;
  locals: Record<string, number>;
  value?: number;
}

/** The raw scores of a parsed state from its chosen tokens; `keys`: the locals object's entry
 * names in order, as written. */
export function stateScores(chosen: readonly ChosenToken[], keys: readonly string[], state: ParseResult): StateScores {
  let total = 0;
  let position = 0;
  let value: number | undefined;
  const entries = new Array<number>(keys.length).fill(0);
  for (const { part, logp } of chosen) {
    total += logp;
    if (part === 'position') position += logp;
    else if (part === 'value' || part === 'message') value = (value ?? 0) + logp;
    else if (typeof part === 'object' && part.entry < entries.length) entries[part.entry]! += logp;
  }
  const scores: StateScores = { state: total, position, locals: nameTable() };
  if (value !== undefined) scores.value = value;
  if ('unparseable' in state || state.event === 'entry' || state.event === 'exit') return scores;
  const written = new Map(keys.map((k, i) => [k, entries[i]!]));
  const unchanged = written.get(ELIDED_KEY) ?? 0;
  for (const name of Object.keys(state.locals ?? {})) scores.locals[name] = written.get(name) ?? unchanged;
  return scores;
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

/** The log-odds of a probability given by its log, log p − log(1 − p); finite for p = 1 (a score
 * of 0: every token certain) so that a calibration can still place it. */
export function logOdds(logp: number): number {
  const x = Math.min(logp, -1e-9);
  return x - Math.log(-Math.expm1(x));
}

/** The confidence for a raw score: calibrated when there is a calibration, else exp(x). */
export function calibrated(x: number, platt: Platt | undefined): number {
  return platt ? sigmoid(platt.a * logOdds(x) + platt.b) : Math.exp(x);
}

export function confidenceOf(scores: StateScores, calibration?: Calibration | null): Confidence {
  const c = calibration ?? undefined;
  const out: Confidence = {
    state: calibrated(scores.state, c?.state),
    position: calibrated(scores.position, c?.position),
    locals: nameTable(Object.entries(scores.locals).map(([k, x]) => [k, calibrated(x, c?.local)])),
  };
  if (scores.value !== undefined) out.value = calibrated(scores.value, c?.value);
  return out;
}

/** Nothing to be sure of: a state that could not be read, or one the decoder had to end. */
export const NO_CONFIDENCE: Confidence = { state: 0, position: 0, locals: nameTable() };

/** Platt scaling fitted by Newton's method (halving a step that does not lower the loss) on
 * (raw score, right?) pairs, with a weak prior that keeps it finite on separable data. */
export function fitPlatt(xs: readonly number[], ys: readonly boolean[]): Platt {
  const prior = 1e-3;
  const loss = (a: number, b: number): number => {
    let l = 0.5 * prior * ((a - 1) ** 2 + b ** 2);
    for (let i = 0; i < xs.length; i++) {
      const z = a * xs[i]! + b;
      // -log sigmoid(z) for a right one, -log(1 - sigmoid(z)) for a wrong one, computed stably
      const t = ys[i] ? -z : z;
      l += t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
    }
    return l;
  };
  let a = 1;
  let b = 0;
  let current = loss(a, b);
  for (let iter = 0; iter < 100; iter++) {
    let ga = prior * (a - 1);
    let gb = prior * b;
    let haa = prior;
    let hab = 0;
    let hbb = prior;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      const p = sigmoid(a * x + b);
      const d = p - (ys[i] ? 1 : 0);
      const w = p * (1 - p);
      ga += d * x;
      gb += d;
      haa += w * x * x;
      hab += w * x;
      hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!(det > 0)) break;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    let step = 1;
    let next = loss(a - da, b - db);
    while (next > current && step > 1e-6) {
      step /= 2;
      next = loss(a - step * da, b - step * db);
    }
    if (next > current) break;
    a -= step * da;
    b -= step * db;
    const gain = current - next;
    current = next;
    if (gain < 1e-10 * Math.max(1, current)) break;
  }
  return { a, b };
}

export interface ReliabilityBin {
  /** Confidences in [lo, hi). */
  lo: number;
  hi: number;
  n: number;
  confidence: number;
  accuracy: number;
}

export interface Reliability {
  n: number;
  /** Expected calibration error: the mean |confidence − accuracy| of the bins, weighted by size. */
  ece: number;
  bins: ReliabilityBin[];
  /** Of the items given at least 0.8: their share of all, and how many of them were right. */
  sure: { share: number; accuracy: number; n: number };
}

export function reliability(confidences: readonly number[], right: readonly boolean[], binCount = 10): Reliability {
  const bins: ReliabilityBin[] = Array.from({ length: binCount }, (_, i) => ({ lo: i / binCount, hi: (i + 1) / binCount, n: 0, confidence: 0, accuracy: 0 }));
  let sureN = 0;
  let sureRight = 0;
  confidences.forEach((c, i) => {
    const bin = bins[Math.min(binCount - 1, Math.floor(c * binCount))]!;
    bin.n++;
    bin.confidence += c;
    bin.accuracy += right[i] ? 1 : 0;
    if (c >= 0.8) {
      sureN++;
      if (right[i]) sureRight++;
    }
  });
  let ece = 0;
  for (const bin of bins) {
    if (bin.n === 0) continue;
    bin.confidence /= bin.n;
    bin.accuracy /= bin.n;
    ece += (bin.n / confidences.length) * Math.abs(bin.confidence - bin.accuracy);
  }
  const n = confidences.length;
  return { n, ece, bins, sure: { share: n ? sureN / n : 0, accuracy: sureN ? sureRight / sureN : 0, n: sureN } };
}

/** A confidence as the percentage shown beside it (0 to 100, rounded). */
export function confidencePercent(p: number): number {
  return Math.round(100 * p);
}

/** How a person would say it: "sure" from 80 %, "likely" from 50 %, else "a guess", judged on the
 * percentage as it is shown, so that the word never disagrees with the number beside it (0.797 is
 * shown as 80 %: it is "sure", never "likely (80 %)"). */
export function confidenceWords(p: number): 'sure' | 'likely' | 'a guess' {
  const percent = confidencePercent(p);
  return percent >= 80 ? 'sure' : percent >= 50 ? 'likely' : 'a guess';
}

/** The bands in words, as a legend beside them says it. */
export const CONFIDENCE_BANDS = 'sure: 80 % or more · likely: 50 to 79 % · a guess: under 50 %';

/** "likely 61 %": the words and the percentage, as the terminal and DAP show a confidence. */
export function sureness(p: number): string {
  return `${confidenceWords(p)} ${confidencePercent(p)} %`;
}

/** "likely (61 %)": the words and the percentage, as the app shows a confidence. */
export function confidenceText(p: number): string {
  return `${confidenceWords(p)} (${confidencePercent(p)} %)`;
}

/** How sure the model was of a whole state, in a sentence a pupil reads right in every band. */
export function confidenceSentence(p: number): string {
  const words = confidenceWords(p);
  const was = words === 'sure' ? 'was sure of its answer' : words === 'likely' ? 'thought its answer was likely right' : 'was only guessing';
  return `Before the truth was shown, the model ${was}: it gave this whole answer a ${confidencePercent(p)} % chance of being right.`;
}
