// The trivial answer beside the model's one-step predictions (`ndb eval trajectories`, `ndb eval
// jumps`): "the debugger moves one line, nothing changes". It reads only what the model reads
// before the step: the stop (its line, its frame's code object and its locals), the action and the
// breakpoints; never the state the step reaches. Scored by the same compareStates on the same
// items, it is the floor a model's score stands beside.
//
// The rule, per action, from a stop at line L of code object C (C's lines in order):
// - step into, step over: a line event at C's next line after L, the locals unchanged (none after
//   L: C's return at L, value None);
// - step out: C's return at its last line, value None;
// - continue: a line event at the first breakpoint after L (else the first breakpoint), the
//   locals unchanged; no breakpoint: the program's normal end;
// - run to line N: a line event at N, the locals unchanged;
// - step back, step back over: the line event at C's line before L, the locals unchanged (none
//   before L: C's call at its first line);
// - back to the call: C's call at its first line, the locals unchanged.
// From the entry or an end, a forward step stays at the end it is at (the normal end from the entry)
// and a step back gives up (an unreadable answer).

import { isInverse, type Action } from '../core/actions';
import type { ParseResult } from '../core/format';
import type { ExitKind } from '../core/stateGrammar';
import type { Position, Recording } from '../core/trace';

const NONE = 'None';

export function trivialNext(rec: Recording, position: Position, action: Action, breakpoints: readonly number[]): ParseResult {
  const inverse = isInverse(action);
  const here = position >= 0 ? rec.events[position] : undefined;
  if (!here) {
    if (inverse) return { unparseable: 'the trivial rule does not step back from the entry or an end' };
    return { event: 'exit', status: position < 0 ? 'normal' : exitKind(rec) };
  }
  const code = rec.codes[here.code];
  const first = code ? (code.name === '<module>' ? 0 : code.firstline) : here.line;
  // a function's lines, its `def` line aside (no line event stops there) unless it is all there is
  // (a one-line def, a lambda, a generator expression)
  const all = [...new Set(code?.lines ?? [here.line])].sort((a, b) => a - b);
  const lines = all.some((l) => l > first) ? all.filter((l) => l !== first) : all;
  const locals = { ...here.locals };
  const line = (at: number, back = false): ParseResult => ({ event: 'line', inverse: back, line: at, src: '', locals });
  // from a call the first line may be the call's own (a one-line def)
  const after = lines.find((l) => (here.event === 'call' ? l >= here.line : l > here.line));
  const before = [...lines].reverse().find((l) => l < here.line);
  switch (action.kind) {
    case 'step_into':
    case 'step_over':
      return after !== undefined ? line(after) : { event: 'return', inverse: false, line: here.line, src: '', value: NONE };
    case 'step_return':
      return { event: 'return', inverse: false, line: lines[lines.length - 1] ?? here.line, src: '', value: NONE };
    case 'continue': {
      const sorted = [...breakpoints].sort((a, b) => a - b);
      const next = sorted.find((l) => l > here.line) ?? sorted[0];
      return next !== undefined ? line(next) : { event: 'exit', status: 'normal' };
    }
    case 'breakpoint':
      return line(action.line);
    case 'inv_step_into':
    case 'inv_step_over':
      return before !== undefined ? line(before, true) : { event: 'call', inverse: true, line: first, src: '', locals };
    case 'inv_step_call':
      return { event: 'call', inverse: true, line: first, src: '', locals };
  }
}

/** The end the program is at, as compareStates words it (a forward step from an end stays there). */
function exitKind(rec: Recording): ExitKind {
  const s = rec.exit.status;
  if (s === 'timeout') return 'budget';
  if (s === 'syntax_error' || s === 'call_error') return 'error';
  return s as ExitKind;
}
