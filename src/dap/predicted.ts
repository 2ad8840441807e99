// The "Predicted" scope of `engine: both`: the model's state for this stop, field by field, each
// marked ✓ or ✗ against the real state, with how sure the model was of each ("sure 93 %").

import type { StateComparison } from '../core/compare';
import { sureness, type Confidence } from '../core/confidence';
import { capValue, type ParseResult } from '../core/format';
import type { DebugState } from '../core/state';
import { hasOwnName, own } from '../core/names';

export const OK = '✓';
export const WRONG = '✗';

export interface Row {
  name: string;
  value: string;
}

function mark(ok: boolean | undefined, text: string, real?: string): string {
  if (ok) return `${text} ${OK}`;
  return real === undefined ? `${text} ${WRONG}` : `${text} ${WRONG} (real: ${real})`;
}

function realEvent(real: DebugState): string {
  return real.event === 'exit' ? `exit (${real.status})` : real.event;
}

function withSureness(row: Row, p: number | undefined): Row {
  return p === undefined ? row : { ...row, value: `${row.value}  · ${sureness(p)}` };
}

export function predictedRows(real: DebugState, predicted: ParseResult, comparison: StateComparison, confidence?: Confidence): Row[] {
  const rows: Row[] = [{ name: 'match', value: comparison.match ? `${OK} the whole state` : `${WRONG} see the fields below` }];
  if (confidence) rows.push({ name: 'confidence', value: `${sureness(confidence.state)} that the whole state is right` });
  if ('unparseable' in predicted) {
    rows.push({ name: 'unreadable', value: `${WRONG} the model's output is no state: ${predicted.unparseable}` });
    return rows;
  }
  const event = predicted.event === 'exit' ? `exit (${predicted.status})` : predicted.event;
  rows.push({ name: 'event', value: mark(comparison.fields.event ?? predicted.event === real.event, event, comparison.fields.event ? undefined : realEvent(real)) });
  if (predicted.event === 'exit' || predicted.event === 'entry') return rows;
  const realLine = real.event === 'exit' || real.event === 'entry' ? undefined : real.line;
  rows.push(withSureness({ name: 'line', value: mark(predicted.line === realLine, String(predicted.line), realLine === undefined ? undefined : String(realLine)) }, confidence?.position));
  if (predicted.value !== undefined) {
    const realValue = real.event === 'return' || real.event === 'exception' ? real.value : undefined;
    const ok = realValue !== undefined && capValue(realValue) === predicted.value;
    rows.push(withSureness({ name: predicted.event === 'exception' || predicted.raising ? '(exception)' : '(return)', value: mark(ok, predicted.value, ok ? undefined : (realValue ?? 'none')) }, confidence?.value));
  }
  if (!predicted.locals) return rows;
  const realLocals = real.event === 'exit' || real.event === 'entry' ? {} : real.locals;
  for (const [name, value] of Object.entries(predicted.locals)) {
    const r = own(realLocals, name);
    const ok = r !== undefined && capValue(r) === value;
    rows.push(withSureness({ name, value: mark(ok, value, ok ? undefined : (r ?? 'not a local')) }, own(confidence?.locals, name)));
  }
  for (const [name, value] of Object.entries(realLocals)) {
    if (!hasOwnName(predicted.locals, name)) rows.push({ name, value: `(not predicted) ${WRONG} (real: ${value})` });
  }
  return rows;
}
