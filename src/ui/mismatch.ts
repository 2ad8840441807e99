// Why a prediction differs from the real state, in sentences that name what is wrong: which
// variable (predicted against real, missing, made up), which line, which value, the direction of
// a step, or what the model wrote when it was not a state at all.

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

function eventName(s: { event: string; raising?: boolean }): string {
  if (s.event === 'return' && s.raising) return 'a return by an exception';
  if (s.event === 'entry') return 'the entry';
  if (s.event === 'exit') return 'the end of the program';
  return `a ${s.event}`;
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
  if ('unparseable' in s) return [`The model wrote something that is not a state (${shorten(s.unparseable, 80)}): “${shorten(p.text)}”`];
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
      out.push(`The program ended ${real.status === 'normal' ? 'normally' : `with status ${real.status}`}; the model said ${s.event === 'exit' ? s.status : 'it goes on'}.`);
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
