// "Predict first", the teaching mode: before a step the learner guesses where it stops (the line)
// and a value there, as it is *before that line runs*; after it, the learner's guess, the model's
// and the truth are shown side by side. A blank guess is no guess (neither right nor wrong), and
// the entry and the exit, which any answer of the right kind matches, are not scored.
// One comparison marks both rows (core/compare.ts sameValue): the model is asked what the learner
// guessed (the variable named, or the one whose value was guessed), so the same value shown for
// both is marked the same for both (issue 46).

import type { Action } from '../core/actions';
import { sameValue, type StateComparison } from '../core/compare';
import type { ParseResult } from '../core/format';
import type { DebugState, EventState } from '../core/state';
import { own } from '../core/names';

/** What the learner typed (bind:value on a number input gives a number, or null when empty). */
export interface LearnerGuess {
  line: string | number | null;
  value: string;
}

export interface Reveal {
  action: Action;
  /** A blank guess is null (not scored). */
  learner: { line: number | null; value: string; lineOk: boolean | null; valueOk: boolean | null };
  /** `value`: the model's guess for what the learner guessed (that variable, or the value). */
  model: { line: number | null; value: string; lineOk: boolean; valueOk: boolean | null } | null;
  truth: { line: number | null; value: string };
  /** The stop is the entry or the exit: nothing is scored there. */
  scored: boolean;
}

/** The tally of guesses made (blank ones are not) and right, for the line and the value; the
 * model's over the same steps as the learner's. */
export interface GuessScore {
  lines: number;
  line: number;
  values: number;
  value: number;
}

export const NO_GUESSES: GuessScore = { lines: 0, line: 0, values: 0, value: 0 };

/** What the model's side of a reveal needs of its prediction. */
export interface ModelAnswer {
  state: ParseResult;
  comparison: StateComparison;
}

/** `name = value`: a guess that names its variable. */
const NAMED = /^([A-Za-z_]\w*)\s*=\s*(.+)$/;

/** What a value guess asks about at a stop: a local by name (named, or the one whose value a bare
 * guess is), the stop's value (a return's, an exception's), or nothing the stop holds. */
type Question = { name: string } | { value: true } | { nothing: true };

function questionOf(real: EventState, guess: string): Question {
  const named = NAMED.exec(guess);
  if (named) return { name: named[1]! };
  if (real.value !== undefined && sameValue(guess, real.value)) return { value: true };
  const local = Object.entries(real.locals).find(([, v]) => sameValue(guess, v));
  if (local) return { name: local[0] };
  return real.value !== undefined ? { value: true } : { nothing: true };
}

/** Whether `answer` is what the stop holds for `question`: the one comparison of both rows. */
function holds(real: EventState, question: Question, answer: string | undefined): boolean {
  if ('name' in question) return sameValue(answer, own(real.locals, question.name));
  if ('value' in question) return sameValue(answer, real.value);
  return false;
}

/** Whether the learner's value guess holds at the stop: `name = value` for a local, or a value
 * that is the return value or one of the locals. Null for a blank guess or a stop without values. */
export function valueMatches(real: DebugState, guess: string): boolean | null {
  const g = guess.trim();
  if (!g || real.event === 'entry' || real.event === 'exit') return null;
  const named = NAMED.exec(g);
  return holds(real, questionOf(real, g), named ? named[2]!.trim() : g);
}

/** The truth's value column: the return value (or exception), else the locals. */
export function realValueText(real: DebugState): string {
  if (real.event === 'entry') return '';
  if (real.event === 'exit') return real.value ?? '';
  if (real.value !== undefined) return real.value;
  return Object.entries(real.locals)
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
}

/** The model's guess for what the learner guessed: the variable they named, else the value (or
 * the locals) it predicted. */
export function modelValueText(state: ParseResult, guess: string): string {
  if ('unparseable' in state) return 'not a program state';
  if (state.event === 'entry' || state.event === 'exit') return '';
  const named = /^([A-Za-z_]\w*)\s*=/.exec(guess.trim());
  if (named) {
    const v = own(state.locals, named[1]!);
    return v === undefined ? `${named[1]} not predicted` : `${named[1]} = ${v}`;
  }
  if (state.value !== undefined) return state.value;
  return Object.entries(state.locals ?? {})
    .filter(([k]) => k !== '..')
    .map(([k, v]) => `${k} = ${v}`)
    .join(', ');
}

/** The model's answer to the learner's question, and whether it holds by the same comparison;
 * with no question (a blank guess, a bare value the stop does not hold), its whole prediction,
 * marked by the comparison of the whole state. */
function modelAnswer(real: DebugState, model: ModelAnswer, guess: string): { value: string; valueOk: boolean | null } {
  const s = model.state;
  const f = model.comparison.fields;
  const whole = { value: modelValueText(s, guess), valueOk: f.locals === undefined && f.value === undefined ? null : (f.locals ?? true) && (f.value ?? true) };
  if (!guess || real.event === 'entry' || real.event === 'exit' || 'unparseable' in s) return whole;
  const question = questionOf(real, guess);
  if ('nothing' in question) return whole;
  const predicted = s.event === 'entry' || s.event === 'exit' ? undefined : s;
  if ('name' in question) {
    const v = own(predicted?.locals, question.name);
    return { value: v === undefined ? `${question.name} not predicted` : `${question.name} = ${v}`, valueOk: holds(real, question, v) };
  }
  return { value: predicted?.value ?? 'no value predicted', valueOk: holds(real, question, predicted?.value) };
}

/** The learner's guess, the model's and the truth after `action` reached `real`. */
export function revealOf(action: Action, guess: LearnerGuess, real: DebugState, model: ModelAnswer | null): Reveal {
  const truthLine = real.event === 'entry' || real.event === 'exit' ? null : real.line;
  const lineText = String(guess.line ?? '').trim();
  const lineGuess = lineText === '' ? null : Number(lineText);
  const line = lineGuess !== null && Number.isFinite(lineGuess) ? lineGuess : null;
  const value = String(guess.value ?? '').trim();
  const learner = {
    line,
    value,
    lineOk: line === null ? null : line === truthLine,
    valueOk: value === '' ? null : valueMatches(real, value),
  };
  let m: Reveal['model'] = null;
  if (model) {
    const s = model.state;
    const mline = 'unparseable' in s || s.event === 'exit' || s.event === 'entry' ? null : s.line;
    m = { line: mline, lineOk: mline !== null && mline === truthLine, ...modelAnswer(real, model, value) };
  }
  return { action, learner, model: m, truth: { line: truthLine, value: realValueText(real) }, scored: truthLine !== null };
}

/** `score` after one scored step: counted where the learner guessed (`guessed`), right where
 * `answer` (the learner's or the model's) was. */
export function tallyGuess(
  score: GuessScore,
  guessed: Pick<Reveal['learner'], 'lineOk' | 'valueOk'>,
  answer: { lineOk: boolean | null; valueOk: boolean | null },
): GuessScore {
  return {
    lines: score.lines + (guessed.lineOk === null ? 0 : 1),
    line: score.line + (guessed.lineOk !== null && answer.lineOk ? 1 : 0),
    values: score.values + (guessed.valueOk === null ? 0 : 1),
    value: score.value + (guessed.valueOk !== null && answer.valueOk ? 1 : 0),
  };
}
