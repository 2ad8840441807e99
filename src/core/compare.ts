// Field-by-field comparison of a predicted state with the real one. Real values are capped the
// way the format writes them, since a prediction can only ever produce capped text.

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

function sameLocals(real: Record<string, string>, predicted: Record<string, string> | undefined): boolean {
  if (!predicted) return false;
  const a = Object.keys(real);
  const b = Object.keys(predicted);
  if (a.length !== b.length) return false;
  return a.every((k) => predicted[k] === capValue(real[k]!));
}

export function compareStates(real: DebugState, predicted: ParseResult): StateComparison {
  const fields: Partial<Record<FieldName, boolean>> = {};
  if ('unparseable' in predicted) {
    fields.event = false;
    if (real.event !== 'entry' && real.event !== 'exit') {
      fields.line = false;
      if (real.event !== 'return') fields.locals = false;
    }
    return { match: false, fields, unparseable: predicted.unparseable };
  }
  fields.event = real.event === predicted.event;
  if (real.event === 'exit') {
    const status = real.status === 'timeout' ? 'budget' : real.status === 'call_error' || real.status === 'syntax_error' ? 'error' : real.status;
    fields.value = predicted.event === 'exit' && predicted.status === status;
  } else if (real.event !== 'entry') {
    const p = predicted.event === 'exit' || predicted.event === 'entry' ? undefined : predicted;
    fields.line = p !== undefined && p.line === real.line;
    if (real.event !== 'return') fields.locals = sameLocals(real.locals, p?.locals);
    if (real.value !== undefined && (real.event === 'return' || real.event === 'exception')) {
      fields.value = p?.value === capValue(real.value) && Boolean(p?.raising) === Boolean(real.raising);
    }
  }
  return { match: Object.values(fields).every(Boolean), fields };
}
