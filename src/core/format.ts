// The model's text format (docs/format.md is normative; training/format.py is the twin
// implementation and must produce the same bytes). Pure: no Node or DOM APIs.
//
// A trajectory is the numbered source, the first state, then (action, state) pairs, then
// <|trace_end|>. A state always starts with <|frame_sep|> and ends where the next <|action_sep|> or
// <|trace_end|> begins, so a model that is given a prompt ending in `<action><|frame_sep|>`
// generates one state and stops at one of STATE_TERMINATORS.

import { isInverse, type Action } from './actions';
import { Navigator } from './navigator';
import { sourceLines } from './sourceLines';
import type { EventKind, ExitStatus, Position, Recording, TraceEvent } from './trace';

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

/** What may follow a state: generation of one state stops at either. */
export const STATE_TERMINATORS: readonly string[] = [TOKENS.actionSep, TOKENS.traceEnd];

/** Longest value, source line or message kept, in code points; longer ones are cut and marked. */
export const MAX_VALUE_CHARS = 120;
export const CUT_MARK = '\u2026';
/** The key that stands for the unchanged locals of an elided line/exception state. */
export const ELIDED_KEY = '..';
export const ELIDED_VALUE = '..';

const EVENT_TOKEN: Record<EventKind, [string, string]> = {
  call: [TOKENS.callSep, TOKENS.invCallSep],
  line: [TOKENS.lineSep, TOKENS.invLineSep],
  return: [TOKENS.returnSep, TOKENS.invReturnSep],
  exception: [TOKENS.exceptionSep, TOKENS.invExceptionSep],
};

const ACTION_TOKEN: Record<Action['kind'], string> = {
  step_into: TOKENS.stepInto,
  step_over: TOKENS.stepOver,
  step_return: TOKENS.stepReturn,
  continue: TOKENS.continue,
  breakpoint: TOKENS.breakpoint,
  inv_step_into: TOKENS.invStepInto,
  inv_step_over: TOKENS.invStepOver,
  inv_step_call: TOKENS.invStepCall,
};

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Makes a payload unable to contain a format token: every "<|" becomes "<||". */
export function escapePayload(text: string): string {
  return text.split('<|').join('<||');
}

export function unescapePayload(text: string): string {
  return text.split('<||').join('<|');
}

/** Cuts a text to MAX_VALUE_CHARS code points, marking the cut with CUT_MARK. */
export function capValue(text: string): string {
  if (text.length <= MAX_VALUE_CHARS) return text;
  const points = Array.from(text);
  if (points.length <= MAX_VALUE_CHARS) return text;
  return points.slice(0, MAX_VALUE_CHARS).join('') + CUT_MARK;
}

/** A JSON string literal: only '"', '\\' and control characters (and lone surrogates) are escaped. */
export function jsonString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x08) out += '\\b';
    else if (c === 0x0c) out += '\\f';
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
      } else out += `\\u${c.toString(16)}`;
    } else if (c >= 0xdc00 && c <= 0xdfff) out += `\\u${c.toString(16)}`;
    else out += text[i]!;
  }
  return `${out}"`;
}


function stripBlanks(text: string): string {
  return text.replace(/^[ \t\f]+/, '').replace(/[ \t\f]+$/, '');
}

/** The text written after <|src_sep|> for a line number (empty outside the source). */
export function srcText(lines: readonly string[], line: number): string {
  return line >= 1 && line <= lines.length ? capValue(stripBlanks(lines[line - 1]!)) : '';
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** <|trace_context_start|> and the source, each line as "N text\n". */
export function renderContext(source: string): string {
  const lines = sourceLines(source);
  return TOKENS.traceContextStart + lines.map((l, i) => `${i + 1} ${escapePayload(l)}\n`).join('');
}

/** An action with its payload; continue and breakpoint carry the user breakpoints. */
export function renderAction(action: Action, breakpoints: Iterable<number> = []): string {
  const user = [...new Set(breakpoints)].sort((a, b) => a - b);
  let payload = '';
  if (action.kind === 'breakpoint') payload = [action.line, ...user.filter((l) => l !== action.line)].join(',');
  else if (action.kind === 'continue') payload = user.join(',');
  return TOKENS.actionSep + ACTION_TOKEN[action.kind] + payload;
}

/** A state as the format sees it (a recorded event, a predicted state, the entry or an exit). */
export type FormatState =
  | { event: EventKind; line: number; locals: Record<string, string>; value?: string; raising?: boolean }
  | { event: 'exit'; status: ExitStatus; message?: string }
  | { event: 'entry' };

export interface RenderStateOptions {
  /** Reached by an inverse action: the event tokens become <|inv_…|>. */
  inverse?: boolean;
  /** For line and exception states: the full locals of the previous state when it showed the
   * locals of the same frame and the action was not a jump (breakpoint, continue). */
  elideAgainst?: Record<string, string> | null;
}

function localsObject(entries: Array<[string, string | null]>): string {
  return `{${entries.map(([k, v]) => `${jsonString(k)}:${v === null ? 'null' : jsonString(v)}`).join(',')}}`;
}

/** The locals object of a state: full, or elided against the previous state's locals. */
export function renderLocals(locals: Record<string, string>, elideAgainst?: Record<string, string> | null): string {
  const cur = Object.entries(locals).map(([k, v]) => [k, capValue(v)] as [string, string]);
  if (!elideAgainst) return localsObject(cur);
  const prev = new Map(Object.entries(elideAgainst).map(([k, v]) => [k, capValue(v)]));
  const entries: Array<[string, string | null]> = [];
  let unchanged = 0;
  for (const [k, v] of cur) {
    if (prev.get(k) === v) unchanged++;
    else entries.push([k, v]);
  }
  const names = new Set(cur.map(([k]) => k));
  for (const k of prev.keys()) if (!names.has(k)) entries.push([k, null]);
  if (unchanged > 0) entries.push([ELIDED_KEY, ELIDED_VALUE]);
  return localsObject(entries);
}

function exitToken(status: ExitStatus): string {
  switch (status) {
    case 'normal':
      return TOKENS.exitNormal;
    case 'exception':
      return TOKENS.exitException;
    case 'budget':
    case 'timeout':
      return TOKENS.exitBudget;
    default:
      return TOKENS.exitError;
  }
}

/** One state, starting with <|frame_sep|>. */
export function renderState(lines: readonly string[], state: FormatState, options: RenderStateOptions = {}): string {
  if (state.event === 'entry') return TOKENS.frameSep + TOKENS.invExitEntry;
  if (state.event === 'exit') {
    const token = exitToken(state.status);
    const withMessage = token === TOKENS.exitException || token === TOKENS.exitError;
    return TOKENS.frameSep + token + (withMessage ? TOKENS.raiseSep + escapePayload(capValue(state.message ?? '')) : '');
  }
  const head =
    TOKENS.frameSep +
    EVENT_TOKEN[state.event][options.inverse ? 1 : 0] +
    String(state.line) +
    TOKENS.srcSep +
    escapePayload(srcText(lines, state.line));
  const value = escapePayload(capValue(state.value ?? 'None'));
  switch (state.event) {
    case 'call':
      return head + TOKENS.argSep + escapePayload(renderLocals(state.locals));
    case 'line':
      return head + TOKENS.argSep + escapePayload(renderLocals(state.locals, options.elideAgainst));
    case 'exception':
      return head + TOKENS.argSep + escapePayload(renderLocals(state.locals, options.elideAgainst)) + TOKENS.raiseSep + value;
    case 'return':
      return head + (state.raising ? TOKENS.raiseSep : TOKENS.valueSep) + value;
  }
}

/** The state at a position of a recording. */
export function formatStateAt(rec: Recording, pos: Position): FormatState {
  if (pos < 0) return { event: 'entry' };
  if (pos >= rec.events.length) {
    const exit: FormatState = { event: 'exit', status: rec.exit.status };
    if (rec.exit.message !== undefined) exit.message = rec.exit.message;
    return exit;
  }
  const e = rec.events[pos]!;
  const state: FormatState = { event: e.event, line: e.line, locals: e.locals };
  if (e.value !== undefined) state.value = e.value;
  if (e.raising) state.raising = true;
  return state;
}

function showsLocals(e: TraceEvent): boolean {
  return e.event !== 'return';
}

/** The full locals to elide against when moving from `prev` to `pos` (or null for none). */
export function elisionBase(rec: Recording, prev: Position | null, pos: Position, action: Action | null): Record<string, string> | null {
  if (prev === null || action === null || action.kind === 'breakpoint' || action.kind === 'continue') return null;
  const n = rec.events.length;
  if (prev < 0 || prev >= n || pos < 0 || pos >= n) return null;
  const a = rec.events[prev]!;
  const b = rec.events[pos]!;
  if (!showsLocals(a) || a.frame !== b.frame || (b.event !== 'line' && b.event !== 'exception')) return null;
  return a.locals;
}

export interface TrajectoryOptions {
  /** The user breakpoints (gutter), used by continue and breakpoint. */
  breakpoints?: Iterable<number>;
  /** Where the trajectory starts (default: the first event, as a debugger session does). */
  start?: Position;
}

/** The pieces of a trajectory: the context, the first state, then each action and its state. */
export interface TrajectoryPieces {
  context: string;
  first: string;
  steps: Array<{ action: string; state: string; position: Position }>;
  start: Position;
}

export function renderTrajectoryPieces(rec: Recording, actions: readonly Action[], options: TrajectoryOptions = {}): TrajectoryPieces {
  const breakpoints = [...(options.breakpoints ?? [])];
  const lines = sourceLines(rec.source);
  const nav = new Navigator(rec, breakpoints);
  if (options.start !== undefined) nav.jump(options.start);
  let prev = nav.position;
  const pieces: TrajectoryPieces = {
    context: renderContext(rec.source),
    first: renderState(lines, formatStateAt(rec, prev)),
    steps: [],
    start: prev,
  };
  for (const action of actions) {
    const pos = nav.apply(action);
    const state = renderState(lines, formatStateAt(rec, pos), {
      inverse: isInverse(action),
      elideAgainst: elisionBase(rec, prev, pos, action),
    });
    pieces.steps.push({ action: renderAction(action, breakpoints), state, position: pos });
    prev = pos;
  }
  return pieces;
}

/** The whole trajectory text the model is trained on. */
export function renderTrajectory(rec: Recording, actions: readonly Action[], options: TrajectoryOptions = {}): string {
  const p = renderTrajectoryPieces(rec, actions, options);
  return p.context + p.first + p.steps.map((s) => s.action + s.state).join('') + TOKENS.traceEnd;
}

/** The prompt for predicting the state after `action`: the trajectory so far (without
 * <|trace_end|>), the action, and <|frame_sep|>; the model continues with the state's body. */
export function promptForNext(trajectorySoFar: string, action: Action, breakpoints: Iterable<number> = []): string {
  const base = trajectorySoFar.endsWith(TOKENS.traceEnd) ? trajectorySoFar.slice(0, -TOKENS.traceEnd.length) : trajectorySoFar;
  return base + renderAction(action, breakpoints) + TOKENS.frameSep;
}

// ---------------------------------------------------------------------------------------------
// Parsing

export type ParsedState =
  | {
      event: EventKind;
      inverse: boolean;
      line: number;
      src: string;
      /** Full locals (elided ones filled from the previous state); absent on return states. */
      locals?: Record<string, string>;
      /** Return value, or the exception (exception states and raising returns). */
      value?: string;
      raising?: boolean;
    }
  | { event: 'exit'; status: 'normal' | 'exception' | 'budget' | 'error'; message?: string }
  | { event: 'entry' };

export type ParseResult = ParsedState | { unparseable: string };

const TOKEN_SET = new Set(FORMAT_TOKENS);
const TOKEN_RE = /<\|[a-z_]+\|>/g;

type Piece = { token: string } | { text: string };

function splitTokens(text: string): Piece[] | string {
  const pieces: Piece[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN_RE)) {
    const at = m.index;
    if (!TOKEN_SET.has(m[0])) return `unknown token ${m[0]}`;
    if (at > last) pieces.push({ text: text.slice(last, at) });
    pieces.push({ token: m[0] });
    last = at + m[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last) });
  return pieces;
}

function parseLocals(payload: string, previous: Record<string, string> | null | undefined): Record<string, string> | string {
  let obj: unknown;
  try {
    obj = JSON.parse(unescapePayload(payload));
  } catch {
    return 'the locals are not valid JSON';
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return 'the locals are not a JSON object';
  const entries = Object.entries(obj as Record<string, unknown>);
  for (const [k, v] of entries) {
    if (v !== null && typeof v !== 'string') return `the value of ${JSON.stringify(k)} is not a string`;
  }
  const elided = entries.some(([k]) => k === ELIDED_KEY);
  if (elided && !previous) return 'elided locals ("..") but no previous locals to fill them from';
  const out = new Map<string, string>(elided && previous ? Object.entries(previous) : []);
  for (const [k, v] of entries) {
    if (k === ELIDED_KEY) continue;
    if (v === null) out.delete(k);
    else out.set(k, v as string);
  }
  return Object.fromEntries(out);
}

/**
 * Parses one state as a model wrote it (with or without the leading <|frame_sep|>; anything from
 * the first terminator on is ignored). `previous` is the full locals of the previous state, used
 * to fill elided ones. Never throws.
 */
export function parseState(text: string, previous?: Record<string, string> | null): ParseResult {
  try {
    return parseStateUnsafe(text, previous);
  } catch (err) {
    return { unparseable: `internal error: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function parseStateUnsafe(text: string, previous: Record<string, string> | null | undefined): ParseResult {
  let body = text;
  let end = body.length;
  for (const t of STATE_TERMINATORS) {
    const i = body.indexOf(t);
    if (i >= 0 && i < end) end = i;
  }
  body = body.slice(0, end);
  if (body.startsWith(TOKENS.frameSep)) body = body.slice(TOKENS.frameSep.length);
  const split = splitTokens(body);
  if (typeof split === 'string') return { unparseable: split };
  const pieces = split;
  const first = pieces[0];
  if (!first || !('token' in first)) return { unparseable: 'a state must start with an event or exit token' };
  const rest = pieces.slice(1);
  for (const p of rest) {
    if ('token' in p && p.token === TOKENS.frameSep) return { unparseable: 'more than one state' };
  }
  const tok = first.token;
  if (tok === TOKENS.invExitEntry) return rest.length === 0 ? { event: 'entry' } : { unparseable: 'text after <|inv_exit_entry|>' };
  if (tok === TOKENS.exitNormal || tok === TOKENS.exitBudget) {
    if (rest.length > 0) return { unparseable: `text after ${tok}` };
    return { event: 'exit', status: tok === TOKENS.exitNormal ? 'normal' : 'budget' };
  }
  if (tok === TOKENS.exitException || tok === TOKENS.exitError) {
    const status = tok === TOKENS.exitException ? 'exception' : 'error';
    if (rest.length === 0) return { event: 'exit', status };
    const [sep, msg, ...more] = rest;
    if (!sep || !('token' in sep) || sep.token !== TOKENS.raiseSep || more.length > 0 || (msg && !('text' in msg))) {
      return { unparseable: `an exit ${status} is followed by <|raise_sep|> and a message only` };
    }
    return { event: 'exit', status, message: msg ? unescapePayload(msg.text) : '' };
  }
  let event: EventKind | undefined;
  let inverse = false;
  for (const [kind, [fwd, inv]] of Object.entries(EVENT_TOKEN) as Array<[EventKind, [string, string]]>) {
    if (tok === fwd) event = kind;
    else if (tok === inv) {
      event = kind;
      inverse = true;
    }
  }
  if (event === undefined) return { unparseable: `a state cannot start with ${tok}` };
  // <line number> <|src_sep|> <src> <|arg_sep|> <locals> [<|raise_sep|> value] | <|value_sep|>/<|raise_sep|> value
  const fields: Array<[string, string]> = [];
  let lineText = '';
  let i = 0;
  if (rest[0] && 'text' in rest[0]) {
    lineText = rest[0].text;
    i = 1;
  }
  if (!/^[0-9]{1,9}$/.test(lineText)) return { unparseable: `the line number '${lineText}' is not a number` };
  for (; i < rest.length; i++) {
    const p = rest[i]!;
    if (!('token' in p)) return { unparseable: 'text where a field separator was expected' };
    const next = rest[i + 1];
    if (next && 'text' in next) {
      fields.push([p.token, next.text]);
      i++;
    } else fields.push([p.token, '']);
  }
  const order = fields.map(([t]) => t).join('');
  let expected: string[];
  if (event === 'call' || event === 'line') expected = [TOKENS.srcSep + TOKENS.argSep];
  else if (event === 'exception') expected = [TOKENS.srcSep + TOKENS.argSep + TOKENS.raiseSep];
  else expected = [TOKENS.srcSep + TOKENS.valueSep, TOKENS.srcSep + TOKENS.raiseSep];
  if (!expected.includes(order)) return { unparseable: `a ${event} state has the fields ${expected.join(' or ')}, not ${order || 'none'}` };
  const state: ParsedState = { event, inverse, line: Number(lineText), src: unescapePayload(fields[0]![1]) };
  if (event !== 'return') {
    const locals = parseLocals(fields[1]![1], event === 'call' ? null : previous);
    if (typeof locals === 'string') return { unparseable: locals };
    state.locals = locals;
  }
  if (event === 'exception') state.value = unescapePayload(fields[2]![1]);
  if (event === 'return') {
    state.value = unescapePayload(fields[1]![1]);
    if (fields[1]![0] === TOKENS.raiseSep) state.raising = true;
  }
  return state;
}

export { sourceLines };
