// Why a prediction differs from the real state, in sentences that name what is wrong: which
// variable (predicted against real, missing, made up), which line, which value, the direction of
// a step, or that the model's answer was not a state at all. Plain words for pupils: the format's
// tokens and the parser's reasons are for the details (unreadableDetail).

import { diffLocals, explainLocals, type LocalsDiff, type StateComparison } from '../core/compare';
import { capValue, type ParseResult } from '../core/format';
import type { DebugState } from '../core/state';

export interface Explained {
  state: ParseResult;
  real: DebugState;
  comparison: StateComparison;
  /** The model's raw text (shown, shortened, when it is not a state). */
  text: string;
  /** The step was a step back. */
  inverse: boolean;
}

/** `text` on one line, at most `max` characters (the cut marked with …). */
export function shorten(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** How a program ended, in words (the format's exit kinds and the tracer's statuses). */
export function endWords(status: string): string {
  switch (status) {
    case 'normal':
      return 'it finishes';
    case 'exception':
      return 'an uncaught exception ends it';
    case 'budget':
    case 'timeout':
      return 'a limit cuts it off';
    case 'syntax_error':
    case 'call_error':
    case 'error':
      return 'it cannot start';
    default:
      return 'it ends';
  }
}

function eventName(s: { event: string; raising?: boolean }): string {
  // the status line's words: a function "is left by an exception"
  if (s.event === 'return' && s.raising) return 'the function left by an exception';
  if (s.event === 'entry') return 'the entry';
  if (s.event === 'exit') return 'the end of the program';
  return `${/^[aeiou]/.test(s.event) ? 'an' : 'a'} ${s.event}`;
}

/** The locals diff of a prediction that has locals to compare, else null. */
export function localsDiff(p: Explained): LocalsDiff | null {
  if (p.comparison.fields.locals !== false || 'unparseable' in p.state) return null;
  const real = p.real;
  if (real.event === 'entry' || real.event === 'exit') return null;
  const predicted = p.state.event === 'entry' || p.state.event === 'exit' ? undefined : p.state.locals;
  return diffLocals(real.locals, predicted);
}

/** One sentence per wrong field, in the table's order; empty when the prediction matches. */
export function explainMismatch(p: Explained): string[] {
  const s = p.state;
  if ('unparseable' in s) return ["The model's answer was not a program state."];
  const f = p.comparison.fields;
  const out: string[] = [];
  const real = p.real;
  if (f.event === false) {
    if (s.event === real.event && 'inverse' in s)
      out.push(
        s.inverse
          ? 'The model wrote the state as reached by a step back, but this step went forward.'
          : 'The model wrote the state as reached by a step forward, but this step went back.',
      );
    else out.push(`The model expected ${eventName(s)}; Python stopped at ${eventName(real)}.`);
  }
  if (f.line === false && real.event !== 'entry' && real.event !== 'exit') {
    const predicted = s.event === 'entry' || s.event === 'exit' ? null : s.line;
    out.push(predicted === null ? `Python stopped at line ${real.line}; the model gave no line.` : `The model said line ${predicted}; Python stopped at line ${real.line}.`);
  }
  const diff = localsDiff(p);
  if (diff) {
    const text = explainLocals(diff);
    out.push(text || 'The model wrote no locals.');
  }
  if (f.value === false) {
    if (real.event === 'entry') {
      out.push('The model gave a value where there is none.');
    } else if (real.event === 'exit') {
      out.push(`The program ends here: ${endWords(real.status)}; the model said ${s.event === 'exit' ? endWords(s.status) : 'it goes on'}.`);
    } else {
      const want = capValue(real.value ?? '');
      const got = s.event === 'entry' || s.event === 'exit' ? undefined : s.value;
      const what = real.event === 'return' && !real.raising ? 'return value' : 'exception';
      if (got === want) out.push(real.raising ? 'An exception leaves this frame; the model said it returns.' : 'This frame returns; the model said an exception leaves it.');
      else out.push(got === undefined ? `The ${what} is ${want}; the model gave none.` : `The ${what} is ${want}; the model said ${got}.`);
    }
  }
  return out;
}

/** For the details toggle: that the model's answer was not a program state, and why the parser
 * refused it; null when the prediction was a state. Never the text itself: nonsense shown
 * verbatim misleads a pupil (the panel shows it only on request). */
export function unreadableDetail(p: Pick<Explained, 'state' | 'text'>): string | null {
  if (!('unparseable' in p.state)) return null;
  // The parser's reason may quote the model's text: that part is left out too.
  const reason = p.state.unparseable.replace(/'[^']*'/g, 'it');
  return `The model's answer was not a program state (the reader stopped: ${shorten(reason, 80)}).`;
}
