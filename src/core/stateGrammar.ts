// The grammar of the model's text (docs/format.md §1, §3, §4, §6), declared once: its tokens,
// what each kind of state is made of and in which order, where a state ends, and the caps on
// what it holds. The renderer and the parser (format.ts), the guard that checks a state while the
// model writes it (stateGuard.ts) and a program's constraints (stateConstraints.ts) all read it
// here, so that what is written, what is read back and what the decoder allows cannot drift
// apart. training/format.py is the twin in Python; the golden fixtures hold the two equal.
// Pure: no Node or DOM APIs.

import type { Action } from './actions';
import type { EventKind, ExitStatus } from './trace';

/** Every token, in the order of their ids in the tokenizer. */
export const TOKENS = {
  traceContextStart: '<|trace_context_start|>',
  frameSep: '<|frame_sep|>',
  actionSep: '<|action_sep|>',
  traceEnd: '<|trace_end|>',
  callSep: '<|call_sep|>',
  lineSep: '<|line_sep|>',
  returnSep: '<|return_sep|>',
  exceptionSep: '<|exception_sep|>',
  invCallSep: '<|inv_call_sep|>',
  invLineSep: '<|inv_line_sep|>',
  invReturnSep: '<|inv_return_sep|>',
  invExceptionSep: '<|inv_exception_sep|>',
  srcSep: '<|src_sep|>',
  argSep: '<|arg_sep|>',
  valueSep: '<|value_sep|>',
  raiseSep: '<|raise_sep|>',
  stepInto: '<|step_into|>',
  stepOver: '<|step_over|>',
  stepReturn: '<|step_return|>',
  continue: '<|continue|>',
  breakpoint: '<|breakpoint|>',
  invStepInto: '<|inv_step_into|>',
  invStepOver: '<|inv_step_over|>',
  invStepCall: '<|inv_step_call|>',
  exitNormal: '<|exit_normal|>',
  exitException: '<|exit_exception|>',
  exitBudget: '<|exit_budget|>',
  exitError: '<|exit_error|>',
  invExitEntry: '<|inv_exit_entry|>',
} as const;

/** Every format token, in the order of their ids in the tokenizer. */
export const FORMAT_TOKENS: readonly string[] = Object.values(TOKENS);

/** Anything of this shape in the text is read as a token (and refused if it is none of them);
 * a payload can hold none, since it escapes the opening "<|" as "<||" (§5). */
export const TOKEN_SHAPE = /<\|[a-z_]+\|>/;
/** The characters between a token's "<|" and "|>". */
export const TOKEN_NAME_CHAR = /[a-z_]/;

/** What may follow a state: it ends where either begins, and generation of one stops at either.
 * The first is what a decoder writes to end a state itself. */
export const STATE_TERMINATORS: readonly string[] = [TOKENS.actionSep, TOKENS.traceEnd];

/** Longest value, source line or message kept, in code points; longer ones are cut and marked. */
export const MAX_VALUE_CHARS = 120;
export const CUT_MARK = '\u2026';
/** Longest value, source line or message a state holds: the cap and its mark. */
export const MAX_FIELD_CHARS = MAX_VALUE_CHARS + CUT_MARK.length;
/** A line number is 1 to this many decimal digits. */
export const MAX_LINE_DIGITS = 9;

/** The key that stands for the unchanged locals of an elided line/exception state. */
export const ELIDED_KEY = '..';
export const ELIDED_VALUE = '..';

/** The event token of a state reached forward (or the first state), and of one reached by an
 * inverse action. */
export const EVENT_TOKENS: Readonly<Record<EventKind, { forward: string; inverse: string }>> = {
  call: { forward: TOKENS.callSep, inverse: TOKENS.invCallSep },
  line: { forward: TOKENS.lineSep, inverse: TOKENS.invLineSep },
  return: { forward: TOKENS.returnSep, inverse: TOKENS.invReturnSep },
  exception: { forward: TOKENS.exceptionSep, inverse: TOKENS.invExceptionSep },
};

/** The fields after an event's line number: the source text, the locals (a JSON object), a
 * return value, an exception. */
export type Field = 'src' | 'arg' | 'value' | 'raise';

export const FIELD_TOKENS: Readonly<Record<Field, string>> = {
  src: TOKENS.srcSep,
  arg: TOKENS.argSep,
  value: TOKENS.valueSep,
  raise: TOKENS.raiseSep,
};

/** The fields a state of each event has, in order; a return has two layouts: its value, or the
 * exception that leaves its frame. */
export const STATE_FIELDS: Readonly<Record<EventKind, ReadonlyArray<readonly Field[]>>> = {
  call: [['src', 'arg']],
  line: [['src', 'arg']],
  exception: [['src', 'arg', 'raise']],
  return: [
    ['src', 'value'],
    ['src', 'raise'],
  ],
};

/** The layout a state of this event is written in (`raising`: a return of a frame that an
 * exception is leaving). */
export function stateLayout(event: EventKind, raising: boolean): readonly Field[] {
  const layouts = STATE_FIELDS[event];
  return layouts.find((l) => l.includes('raise') === raising) ?? layouts[0]!;
}

/** Whether a state of this event shows locals. */
export function showsLocals(event: EventKind): boolean {
  return STATE_FIELDS[event].some((l) => l.includes('arg'));
}

/** Events whose locals may be elided against the previous state's (§3.1); a call shows its
 * arguments, always in full. */
export const ELIDING_EVENTS: ReadonlySet<EventKind> = new Set<EventKind>(['line', 'exception']);

/** How a program ended, as the format tells it. */
export type ExitKind = 'normal' | 'exception' | 'budget' | 'error';

/** The exits: each one's token, and whether a message follows it (after <|raise_sep|>; a reader
 * takes the token alone too). */
export const EXITS: Readonly<Record<ExitKind, { token: string; message: boolean }>> = {
  normal: { token: TOKENS.exitNormal, message: false },
  exception: { token: TOKENS.exitException, message: true },
  budget: { token: TOKENS.exitBudget, message: false },
  error: { token: TOKENS.exitError, message: true },
};

/** The entry (before the first event): a state of its token alone. */
export const ENTRY_TOKEN = TOKENS.invExitEntry;

/** The exit the format writes for how a recording ended: a time limit reads as the budget, and
 * every way of never running as an error. */
export function exitKindOf(status: ExitStatus): ExitKind {
  switch (status) {
    case 'normal':
    case 'exception':
      return status;
    case 'budget':
    case 'timeout':
      return 'budget';
    default:
      return 'error';
  }
}

/** Each action's token (breakpoint and continue are followed by line numbers, §6). */
export const ACTION_TOKENS: Readonly<Record<Action['kind'], string>> = {
  step_into: TOKENS.stepInto,
  step_over: TOKENS.stepOver,
  step_return: TOKENS.stepReturn,
  continue: TOKENS.continue,
  breakpoint: TOKENS.breakpoint,
  inv_step_into: TOKENS.invStepInto,
  inv_step_over: TOKENS.invStepOver,
  inv_step_call: TOKENS.invStepCall,
};
