// What a printed page of the lesson holds (Handout.svelte draws it, only when printing): the
// program with its line numbers, the current line and the breakpoints marked; where the debugger
// stands; the variables, the globals the function uses and the call stack there; and the output so
// far. Pure: built from what the panels show.

import { frameTitle } from '../core/frameArgs';
import { sourceLines } from '../core/sourceLines';
import type { DebugState, StackFrame } from '../core/state';
import { visibleText } from '../core/terminalText';
import { exceptionText } from './exceptionText';

export interface HandoutInput {
  source: string;
  /** The example's title ('' for the user's own code). */
  title: string;
  call: string;
  input: string;
  state: DebugState | null;
  /** The line the debugger stands on (null: none), and what kind of stop it is. */
  currentLine: { line: number; kind: 'line' | 'return' | 'exception' } | null;
  /** The program was changed after the run: its lines no longer match the state. */
  stale: boolean;
  /** The status line's words. */
  status: string;
  breakpoints: readonly number[];
  /** Outermost frame first, as the recording has them. */
  stack: readonly StackFrame[];
  /** Each frame's arguments as it was called (frame id → `n=6`). */
  frameArgs: ReadonlyMap<number, string>;
  /** The module's variables in a function's frame (null: none to show). */
  globals: Readonly<Record<string, string>> | null;
}

export interface HandoutLine {
  number: number;
  text: string;
  current: boolean;
  breakpoint: boolean;
}

export interface NamedValue {
  name: string;
  value: string;
}

export interface Handout {
  title: string;
  call: string;
  input: string;
  status: string;
  lines: HandoutLine[];
  /** How the current line is marked (null: no line is current). */
  currentKind: 'line' | 'return' | 'exception' | null;
  variables: NamedValue[];
  /** The return value or the exception at this stop. */
  special: { label: string; value: string } | null;
  globals: NamedValue[];
  /** Innermost first, as the Call stack panel lists them. */
  frames: { title: string; line: number }[];
  output: string;
}

function named(values: Readonly<Record<string, string>>): NamedValue[] {
  return Object.entries(values).map(([name, value]) => ({ name: visibleText(name), value: visibleText(value) }));
}

function specialOf(s: DebugState | null, call: string): { label: string; value: string } | null {
  if (!s || s.event === 'entry') return null;
  if (s.event === 'exit') {
    if (s.status === 'normal' && s.value !== undefined && call.trim() !== '') return { label: 'Return value', value: s.value };
    if (s.status === 'exception' || s.status === 'error') return { label: 'Exception', value: s.message ?? '' };
    return null;
  }
  if (s.event === 'exception' || (s.event === 'return' && s.raising)) return { label: 'Exception', value: exceptionText(s.value ?? '') };
  if (s.event === 'return') return { label: s.yielded ? 'Yielded value' : 'Return value', value: s.value ?? 'None' };
  return null;
}

export function handoutOf(h: HandoutInput): Handout {
  const current = h.stale ? null : h.currentLine;
  const breakpoints = new Set(h.breakpoints);
  const s = h.state;
  const special = specialOf(s, h.call);
  return {
    title: h.title,
    call: h.call.trim(),
    input: h.input,
    status: h.status,
    lines: sourceLines(h.source).map((text, i) => ({
      number: i + 1,
      text: visibleText(text),
      current: current?.line === i + 1,
      breakpoint: breakpoints.has(i + 1),
    })),
    currentKind: current?.kind ?? null,
    variables: s && s.event !== 'entry' && s.event !== 'exit' ? named(s.locals) : [],
    special: special && { label: special.label, value: visibleText(special.value) },
    globals: h.globals ? named(h.globals) : [],
    frames: [...h.stack].reverse().map((f) => ({ title: visibleText(frameTitle(f.function, h.frameArgs.get(f.frame))), line: f.line })),
    output: s && s.event !== 'entry' ? visibleText(s.stdout) : '',
  };
}
