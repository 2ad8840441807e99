// Field-by-field comparison of a predicted state with the real one. Real values are capped the
// way the format writes them, since a prediction can only ever produce capped text.

import { hasOwnName, own } from './names';
import { isInverse, type Action } from './actions';
import { capValue, type ParseResult } from './format';
import type { DebugState } from './state';

export type FieldName = 'event' | 'line' | 'locals' | 'value';

export interface StateComparison {
  /** Every field the real state has is predicted exactly. */
  match: boolean;
  /** Per field: true (match), false (mismatch); a field the real state lacks is left out. */
  fields: Partial<Record<FieldName, boolean>>;
  unparseable?: string;
}

/** Whether an answer's text is the real value: the one comparison of a value, for the model's
 * state and a learner's guess alike (Predict first). A real value longer than the format's cap
 * is matched by its capped text, the most a prediction can write. */
export function sameValue(answer: string | undefined, real: string | undefined): boolean {
  if (answer === undefined || real === undefined) return false;
  return answer === capValue(real) || answer === real;
}

function sameLocals(real: Record<string, string>, predicted: Record<string, string> | undefined): boolean {
  if (!predicted) return false;
  const a = Object.keys(real);
  const b = Object.keys(predicted);
  if (a.length !== b.length) return false;
  return a.every((k) => sameValue(own(predicted, k), real[k]!));
}

/** How the real state was reached: the event must also carry the right direction, so a state the
 * model marks as reached backwards (`inverse`) after a forward action is a wrong event, and the other
 * way round. One measure of "exactly right" for every face and every number the project states
 * (the app's score, MCP's `predict`, the CLI's `--engine both`, `src/eval`): issue 45. */
export type ReachedBy = 'forward' | 'inverse';

/** The direction `action` moves in. */
export function reachedBy(action: Action): ReachedBy {
  return isInverse(action) ? 'inverse' : 'forward';
}

/** Whether `predicted` is exactly the real state that `action` reached, field by field. */
export function compareStates(real: DebugState, predicted: ParseResult, reached: ReachedBy): StateComparison {
  const fields: Partial<Record<FieldName, boolean>> = {};
  if ('unparseable' in predicted) {
    fields.event = false;
    if (real.event !== 'entry' && real.event !== 'exit') {
      fields.line = false;
      if (real.event !== 'return') fields.locals = false;
    }
    return { match: false, fields, unparseable: predicted.unparseable };
  }
  fields.event = real.event === predicted.event && sameDirection(predicted, reached);
  if (real.event === 'exit') {
    const status = real.status === 'timeout' ? 'budget' : real.status === 'call_error' || real.status === 'syntax_error' ? 'error' : real.status;
    fields.value = predicted.event === 'exit' && predicted.status === status;
  } else if (real.event !== 'entry') {
    const p = predicted.event === 'exit' || predicted.event === 'entry' ? undefined : predicted;
    fields.line = p !== undefined && p.line === real.line;
    if (real.event !== 'return') fields.locals = sameLocals(real.locals, p?.locals);
    if (real.value !== undefined && (real.event === 'return' || real.event === 'exception')) {
      fields.value = sameValue(p?.value, real.value) && Boolean(p?.raising) === Boolean(real.raising);
    }
  }
  return { match: Object.values(fields).every(Boolean), fields };
}

function sameDirection(predicted: Exclude<ParseResult, { unparseable: string }>, reachedBy: ReachedBy): boolean {
  // The entry and the exit carry no direction in the format's words (§2): any action reaches them.
  if (predicted.event === 'entry' || predicted.event === 'exit') return true;
  return Boolean(predicted.inverse) === (reachedBy === 'inverse');
}

/** Which locals a prediction got wrong, left out, or made up; values compared as the format caps them. */
export interface LocalsDiff {
  wrong: Array<{ name: string; predicted: string; real: string }>;
  missing: Array<{ name: string; real: string }>;
  extra: Array<{ name: string; predicted: string }>;
}

export function diffLocals(real: Record<string, string>, predicted: Record<string, string> | undefined): LocalsDiff {
  const diff: LocalsDiff = { wrong: [], missing: [], extra: [] };
  const p = predicted ?? {};
  for (const [name, value] of Object.entries(real)) {
    const want = capValue(value);
    const got = own(p, name);
    if (got === undefined) diff.missing.push({ name, real: want });
    else if (got !== want) diff.wrong.push({ name, predicted: got, real: want });
  }
  for (const [name, value] of Object.entries(p)) if (!hasOwnName(real, name)) diff.extra.push({ name, predicted: value });
  return diff;
}

/** The diff in one sentence, naming each variable: `Locals: s is 3, the model said 4; n (2) is
 * missing; the model added x = 1.` Empty when the locals match. */
export function explainLocals(diff: LocalsDiff): string {
  const parts = [
    ...diff.wrong.map((w) => `${w.name} is ${w.real}, the model said ${w.predicted}`),
    ...diff.missing.map((m) => `${m.name} (${m.real}) is missing`),
    ...diff.extra.map((e) => `the model added ${e.name} = ${e.predicted}`),
  ];
  // Variable names keep their case: the sentence starts with a word of its own.
  return parts.length === 0 ? '' : `Locals: ${parts.join('; ')}.`;
}
