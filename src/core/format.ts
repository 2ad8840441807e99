// The model's text format (docs/format.md is normative; training/format.py is the twin
// implementation and must produce the same bytes): the text of the context, an action and a
// state, and a state read back. Its grammar (tokens, the fields of each state, terminators, caps)
// is the table in stateGrammar.ts; whole trajectories drawn from a recording are trajectory.ts's.
// Pure: no Node or DOM APIs.
//
// A state always starts with <|frame_sep|> and ends where the next <|action_sep|> or
// <|trace_end|> begins, so a model that is given a prompt ending in `<action><|frame_sep|>`
// generates one state and stops at one of STATE_TERMINATORS.

import { nameTable } from './names';
import type { Action } from './actions';
import { sourceLines } from './sourceLines';
import {
  ACTION_TOKENS,
  CUT_MARK,
  ELIDED_KEY,
  ELIDED_VALUE,
  ELIDING_EVENTS,
  ENTRY_TOKEN,
  EVENT_TOKENS,
  EXITS,
  exitKindOf,
  FIELD_TOKENS,
  FORMAT_TOKENS,
  MAX_LINE_DIGITS,
  MAX_VALUE_CHARS,
  STATE_FIELDS,
  STATE_TERMINATORS,
  stateLayout,
  TOKEN_SHAPE,
  TOKENS,
  type ExitKind,
  type Field,
} from './stateGrammar';
import type { EventKind, ExitStatus } from './trace';

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
  return TOKENS.actionSep + ACTION_TOKENS[action.kind] + payload;
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

/** One state, starting with <|frame_sep|>. */
export function renderState(lines: readonly string[], state: FormatState, options: RenderStateOptions = {}): string {
  if (state.event === 'entry') return TOKENS.frameSep + ENTRY_TOKEN;
  if (state.event === 'exit') {
    const exit = EXITS[exitKindOf(state.status)];
    return TOKENS.frameSep + exit.token + (exit.message ? TOKENS.raiseSep + escapePayload(capValue(state.message ?? '')) : '');
  }
  const tokens = EVENT_TOKENS[state.event];
  const elideAgainst = ELIDING_EVENTS.has(state.event) ? options.elideAgainst : undefined;
  const payload: Record<Field, () => string> = {
    src: () => srcText(lines, state.line),
    arg: () => renderLocals(state.locals, elideAgainst),
    value: () => capValue(state.value ?? 'None'),
    raise: () => capValue(state.value ?? 'None'),
  };
  const fields = stateLayout(state.event, state.raising === true).map((f) => FIELD_TOKENS[f] + escapePayload(payload[f]()));
  return TOKENS.frameSep + (options.inverse ? tokens.inverse : tokens.forward) + String(state.line) + fields.join('');
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
  | { event: 'exit'; status: ExitKind; message?: string }
  | { event: 'entry' };

export type ParseResult = ParsedState | { unparseable: string };

const TOKEN_SET = new Set(FORMAT_TOKENS);
const TOKEN_RE = new RegExp(TOKEN_SHAPE.source, 'g');
const LINE_NUMBER = new RegExp(`^[0-9]{1,${MAX_LINE_DIGITS}}$`);

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
  // a table without a prototype: a local named `constructor` or `__proto__` is only ever an entry
  return nameTable(out);
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
  if (tok === ENTRY_TOKEN) return rest.length === 0 ? { event: 'entry' } : { unparseable: `text after ${ENTRY_TOKEN}` };
  const exit = (Object.entries(EXITS) as Array<[ExitKind, (typeof EXITS)[ExitKind]]>).find(([, e]) => e.token === tok);
  if (exit) return parseExit(exit[0], rest);
  const event = (Object.keys(EVENT_TOKENS) as EventKind[]).find((k) => EVENT_TOKENS[k].forward === tok || EVENT_TOKENS[k].inverse === tok);
  if (event === undefined) return { unparseable: `a state cannot start with ${tok}` };
  const inverse = EVENT_TOKENS[event].inverse === tok;
  // <line number> then the fields of one of the event's layouts, each a separator and its payload
  const fields: Array<[string, string]> = [];
  let lineText = '';
  let i = 0;
  if (rest[0] && 'text' in rest[0]) {
    lineText = rest[0].text;
    i = 1;
  }
  if (!LINE_NUMBER.test(lineText)) return { unparseable: `the line number '${lineText}' is not a number` };
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
  const layouts = STATE_FIELDS[event];
  const expected = layouts.map((l) => l.map((f) => FIELD_TOKENS[f]).join(''));
  const layout = layouts[expected.indexOf(order)];
  if (!layout) return { unparseable: `a ${event} state has the fields ${expected.join(' or ')}, not ${order || 'none'}` };
  const state: ParsedState = { event, inverse, line: Number(lineText), src: '' };
  for (const [k, f] of layout.entries()) {
    const payload = fields[k]![1];
    if (f === 'src') state.src = unescapePayload(payload);
    else if (f === 'arg') {
      const locals = parseLocals(payload, ELIDING_EVENTS.has(event) ? previous : null);
      if (typeof locals === 'string') return { unparseable: locals };
      state.locals = locals;
    } else {
      state.value = unescapePayload(payload);
      // a return's exception is the one leaving its frame; an exception state's is its own
      if (f === 'raise' && event === 'return') state.raising = true;
    }
  }
  return state;
}

function parseExit(status: ExitKind, rest: readonly Piece[]): ParseResult {
  const token = EXITS[status].token;
  if (!EXITS[status].message) return rest.length > 0 ? { unparseable: `text after ${token}` } : { event: 'exit', status };
  if (rest.length === 0) return { event: 'exit', status };
  const [sep, msg, ...more] = rest;
  if (!sep || !('token' in sep) || sep.token !== TOKENS.raiseSep || more.length > 0 || (msg && !('text' in msg))) {
    return { unparseable: `an exit ${status} is followed by <|raise_sep|> and a message only` };
  }
  return { event: 'exit', status, message: msg ? unescapePayload(msg.text) : '' };
}

export { sourceLines };
