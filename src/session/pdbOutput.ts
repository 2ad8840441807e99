// What `ndb debug`'s prompt prints, in pdb's shapes: a stop as `> prog.py(4)total()` then
// `-> s += x`, the stack, listed source, the breakpoint table, a traceback; and the model's
// prediction beside a stop as one line. Every text that comes from the program (values, source,
// messages) is made terminal-safe here (core/terminalText.ts); the caller adds only colour.

import type { StateComparison } from '../core/compare';
import { sureness } from '../core/confidence';
import { capValue, type ParseResult, type ParsedState } from '../core/format';
import type { DebugState, TracebackFrame } from '../core/state';
import { oneLine, safeLines } from '../core/terminalText';
import type { PdbBreakpoint } from './pdbBreakpoints';
import { hasOwnName, own } from '../core/names';

/** What a printed line is, for a terminal that colours it. */
export type Style = 'plain' | 'location' | 'source' | 'error' | 'output' | 'note' | 'good' | 'bad';

export interface OutLine {
  text: string;
  style: Style;
}

export const line = (text: string, style: Style = 'plain'): OutLine => ({ text, style });

/** pdb's error line: `*** message`. */
export const errorLine = (message: string): OutLine => line(`*** ${oneLine(message)}`, 'error');

/** A frame as a stop prints it. */
export interface FrameText {
  function: string;
  line: number;
  /** At a return stop of this frame: the returned value's repr. */
  returned?: string;
}

/** `> prog.py(4)total()` and `-> s += x`; `current` false gives pdb's two-space margin (where). */
export function locationLines(file: string, frame: FrameText, sourceText: string | undefined, current = true): OutLine[] {
  const shownLine = Math.max(1, frame.line);
  const returned = frame.returned === undefined ? '' : `->${frame.returned}`;
  const out = [line(oneLine(`${current ? '>' : ' '} ${file}(${shownLine})${frame.function}()${returned}`), 'location')];
  if (sourceText !== undefined) out.push(line(`-> ${safeLines(sourceText.trim())}`, 'source'));
  return out;
}

/** pdb's `list`: `  4 B->\ts += x`. */
export function listLines(source: readonly string[], first: number, last: number, current: number | undefined, breaks: ReadonlySet<number>): OutLine[] {
  const out: OutLine[] = [];
  for (let n = Math.max(1, first); n <= Math.min(last, source.length); n++) {
    let head = String(n).padStart(3);
    if (head.length < 4) head += ' ';
    head += breaks.has(n) ? 'B' : ' ';
    head += n === current ? '->' : '  ';
    out.push(line(`${head}\t${safeLines(source[n - 1]!.trimEnd())}`, n === current ? 'source' : 'plain'));
  }
  return out;
}

/** `b` alone: pdb's table. */
export function breakpointTable(placeOf: (b: PdbBreakpoint) => string, bps: readonly PdbBreakpoint[]): OutLine[] {
  if (bps.length === 0) return [line('No breakpoints.', 'note')];
  const out = [line('Num Type         Disp Enb   Where')];
  for (const b of bps) {
    out.push(line(`${String(b.number).padEnd(4)}breakpoint   ${(b.temporary ? 'del' : 'keep').padEnd(5)}${(b.enabled ? 'yes' : 'no').padEnd(6)}at ${placeOf(b)}`));
    if (b.condition) out.push(line(`\tstop only if ${oneLine(b.condition)}`));
  }
  return out;
}

/** Python's traceback of an uncaught exception, from the recording. */
export function tracebackLines(file: string, frames: readonly TracebackFrame[], message: string): OutLine[] {
  const out = [line('Traceback (most recent call last):', 'error')];
  for (const f of frames) {
    // the main file by the name it was started with; another module by its name in the project
    const shown = f.file && f.file !== frames[0]?.file ? f.file : file;
    out.push(line(oneLine(`  File "${shown}", line ${f.line}, in ${f.function}`), 'error'));
    if (f.source) out.push(line(`    ${safeLines(f.source)}`, 'error'));
  }
  out.push(line(oneLine(message), 'error'));
  return out;
}

const MAX_LOCALS_TEXT = 72;

function localsText(locals: Record<string, string> | undefined): string {
  if (!locals) return '';
  const text = Object.entries(locals)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return text.length > MAX_LOCALS_TEXT ? `${text.slice(0, MAX_LOCALS_TEXT - 1)}…` : text;
}

/** A predicted state in a few words: `line 4: s=3, x=2`, `return 6`, `the program ends (normal)`. */
export function predictedText(p: ParseResult): string {
  if ('unparseable' in p) return `no state it could write (${p.unparseable})`;
  if (p.event === 'entry') return 'before the program starts';
  if (p.event === 'exit') return `the program ends (${p.status}${p.message ? `: ${p.message}` : ''})`;
  const where = p.event === 'line' ? `line ${p.line}` : `${p.event} at line ${p.line}`;
  const value = p.value === undefined ? '' : p.raising ? ` (raising ${p.value})` : p.event === 'return' ? ` -> ${p.value}` : ` ${p.value}`;
  const locals = p.event === 'return' ? '' : localsText(p.locals);
  return `${where}${value}${locals ? `: ${locals}` : ''}`;
}

const MAX_WRONG = 4;
const MAX_REAL = 30;

const short = (text: string): string => (text.length > MAX_REAL ? `${text.slice(0, MAX_REAL - 1)}…` : text);

/** The fields of a wrong prediction, named with the real value: `line (real 4), s (real 3)`. A
 * wrong event says enough: its locals would all be wrong too. */
export function wrongFields(real: DebugState, p: ParsedState, comparison: StateComparison): string[] {
  const wrong: string[] = [];
  const f = comparison.fields;
  if (f.event === false) wrong.push(`event (real ${real.event === 'exit' ? `exit, ${real.status}` : real.event})`);
  if (real.event === 'exit' || real.event === 'entry') {
    if (f.value === false) wrong.push('how it ends');
    return wrong;
  }
  if (f.line === false) wrong.push(`line (real ${real.line})`);
  if (f.event === false) return wrong;
  if (f.value === false) wrong.push(`value (real ${short(capValue(real.value ?? 'None'))})`);
  if (f.locals === false) {
    const predicted = p.event === 'exit' || p.event === 'entry' ? {} : (p.locals ?? {});
    for (const [name, value] of Object.entries(real.locals)) {
      const got = own(predicted, name);
      if (got === undefined) wrong.push(`${name} (missing, real ${short(capValue(value))})`);
      else if (got !== capValue(value)) wrong.push(`${name} (real ${short(capValue(value))})`);
    }
    for (const name of Object.keys(predicted)) if (!hasOwnName(real.locals, name)) wrong.push(`${name} (no such local)`);
  }
  return wrong.length > MAX_WRONG ? [...wrong.slice(0, MAX_WRONG), `${wrong.length - MAX_WRONG} more`] : wrong;
}

/** The model beside a stop, in one line: what it predicted, how sure it was, and ✓ or ✗ against
 * the real stop with the wrong fields named. `label` says which move it predicted. */
export function modelLine(label: string, real: DebugState, predicted: ParseResult, comparison: StateComparison, confidence: number | undefined): OutLine {
  const sure = confidence === undefined ? '' : ` ${sureness(confidence)}`;
  const what = predictedText(predicted);
  if (comparison.match) return line(oneLine(`${label} ✓${sure}: ${what}`), 'good');
  const wrong = 'unparseable' in predicted ? [] : wrongFields(real, predicted, comparison);
  return line(oneLine(`${label} ✗${sure}: ${what}${wrong.length ? ` — wrong: ${wrong.join(', ')}` : ''}`), 'bad');
}
