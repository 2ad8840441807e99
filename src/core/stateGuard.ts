// "Can this prefix still become a valid state?", answered as the model writes, so that a
// prediction that has gone wrong is stopped at once instead of running on to the token cap
// (docs/format.md §7). Pure: no Node or DOM APIs.
//
// The checker accepts exactly the prefixes that parseState could still read (the same tokens and
// field orders, both read from the grammar table in stateGrammar.ts; the same JSON), and on top
// of that enforces what the format guarantees of every state it writes (§4): no value, source
// line or message is longer than its cap, and a locals object has no more entries than the
// program has names; names are held to the same cap (or the program's longest identifier). A
// state beyond those bounds cannot equal any real state, so stopping it loses nothing that could
// have been right; the golden fixtures check that no prefix of a real state is ever refused.
//
// With constraints (stateConstraints.ts) it also holds the text to what the program and the action
// fix: the event tokens that can follow the action, line numbers of the program, each line's own
// source text, names of the program. It then says what text the program fixes next (`forced`),
// so that a decoder can write it without asking the model.

import { escapePayload, srcText } from './format';
import { SYNTHETIC_NAMES, type StateConstraints } from './stateConstraints';
import {
  ELIDED_KEY,
  ELIDING_EVENTS,
  ENTRY_TOKEN,
  EVENT_TOKENS,
  EXITS,
  FIELD_TOKENS,
  FORMAT_TOKENS,
  MAX_FIELD_CHARS,
  MAX_LINE_DIGITS,
  STATE_FIELDS,
  STATE_TERMINATORS,
  TOKEN_NAME_CHAR,
  TOKEN_SHAPE,
  TOKENS,
  type Field,
} from './stateGrammar';
import type { EventKind } from './trace';

/** What a state of this program can need: derived from the code and the previous state. */
export interface StateLimits {
  /** The most entries a locals object can have. */
  maxLocals: number;
  /** The longest name a local can have, in code points: the value cap, or the program's longest
   * identifier if that is longer. */
  maxNameChars: number;
  /** The previous state showed locals, so a line or exception state may elide with "..". */
  hasPrevious: boolean;
}

/** Room for names the scan above cannot foresee: the limits must never refuse a real state. */
const SPARE_LOCALS = 4;

/** The identifiers of a program (NFKC, as Python reads them): every local is one of them. */
export function sourceNames(source: string): Set<string> {
  const names = new Set<string>(SYNTHETIC_NAMES);
  for (const m of source.normalize('NFKC').matchAll(/[\p{L}\p{M}\p{N}\p{Pc}]+/gu)) {
    if (!/^\p{N}/u.test(m[0])) names.add(m[0]);
  }
  return names;
}

/** The limits for the next state of a program with these names, after a state with these locals
 * (null: the previous state showed none). */
export function stateLimits(names: ReadonlySet<string>, previousLocals: Record<string, string> | null | undefined): StateLimits {
  const all = new Set(names);
  for (const k of Object.keys(previousLocals ?? {})) all.add(k);
  // A name longer than the program's longest identifier cannot be a local, but the check only
  // stops runaway names: a wrong name that ends is readable (and wrong), and stays so.
  let longest = MAX_FIELD_CHARS;
  for (const n of all) longest = Math.max(longest, codePoints(n));
  return {
    // every name once (new or changed, or removed as null), and the ".." entry
    maxLocals: all.size + 1 + SPARE_LOCALS,
    maxNameChars: longest,
    hasPrevious: previousLocals !== null && previousLocals !== undefined,
  };
}

/** The longest text a state within `limits` can have as the format writes it (JSON escapes of six
 * characters per UTF-16 unit and "<||" escapes counted at their worst). A backstop for whitespace
 * in the JSON, which JSON.parse accepts and the format never writes; the caps per field are what
 * stop a runaway value or name early. */
export function maxStateChars(limits: StateLimits): number {
  const longestToken = Math.max(...FORMAT_TOKENS.map((t) => t.length));
  const layouts = Object.values(STATE_FIELDS).flat();
  // <|frame_sep|>, the event and each field's separator
  const tokens = 2 + Math.max(...layouts.map((l) => l.length));
  // the fields other than the locals: the source text, a value or an exception
  const textFields = Math.max(...layouts.map((l) => l.filter((f) => f !== 'arg').length));
  const field = MAX_FIELD_CHARS * 2 * 3; // surrogate pairs, each unit escaped as "<||" at worst
  const jsonString = (cp: number) => 2 + cp * 2 * 6;
  const entry = jsonString(limits.maxNameChars) + 1 + jsonString(MAX_FIELD_CHARS) + 1;
  return tokens * longestToken + MAX_LINE_DIGITS + textFields * field + 2 + limits.maxLocals * entry;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // a low surrogate is the second half of a code point already counted (or, alone, counted
    // leniently as nothing)
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

export type GuardVerdict =
  /** `ended`: a terminator was written; the state is complete and readable as far as checked. */
  | { ok: true; ended: boolean }
  | { ok: false; reason: string };

const FIELD_OF_TOKEN = new Map(Object.entries(FIELD_TOKENS).map(([f, t]) => [t, f as Field]));
const EVENT_OF_TOKEN = new Map<string, EventKind>(
  (Object.entries(EVENT_TOKENS) as Array<[EventKind, { forward: string; inverse: string }]>).flatMap(([e, t]) => [
    [t.forward, e],
    [t.inverse, e],
  ]),
);
// Tokens that end the state at once, and those that a message may follow.
const CLOSED_BY = new Set([ENTRY_TOKEN, ...Object.values(EXITS).filter((e) => !e.message).map((e) => e.token)]);
const MESSAGE_AFTER = new Set(Object.values(EXITS).filter((e) => e.message).map((e) => e.token));

const TOKEN_SET = new Set(FORMAT_TOKENS);
// split() keeps what a capturing group matched: the tokens between the pieces of text
const TOKEN_PATTERN = new RegExp(`(${TOKEN_SHAPE.source})`);
const TERMINATOR_SET = new Set(STATE_TERMINATORS);
const JSON_SPACE = new Set([' ', '\t', '\n', '\r']);
const HEX = /^[0-9a-fA-F]$/;

// Where the state is (the pieces of parseState: first token, line number, fields).
type Phase =
  | 'start' // nothing yet, or only the optional leading <|frame_sep|>
  | 'closed' // an exit or entry that takes nothing more
  | 'exit' // <|exit_exception|> or <|exit_error|>: <|raise_sep|> may follow
  | 'message' // the exit's message
  | 'line' // the line number's digits
  | 'field'; // the payload of the current field

// The locals object as JSON.parse reads it, with only strings or null as values.
type JsonPhase = 'begin' | 'open' | 'colon' | 'value' | 'null' | 'string' | 'after' | 'next' | 'done';

/** Which part of the state a piece of text belongs to: the event and line number, a local (by
 * its entry in the locals object), the value or exception, an exit's message, or the end. */
export type StatePart = 'position' | 'src' | { entry: number } | 'value' | 'message' | 'end';

/** Feeds a state's text piece by piece and says, after each piece, whether it can still become a
 * state that parseState reads within the limits. Once it says no, it keeps saying no. */
export class StatePrefixChecker {
  private phase: Phase = 'start';
  private sawFrameSep = false;
  private rejected: string | null = null;
  private ended = false;
  private length = 0;
  private readonly maxLength: number;
  // the token layer: a "<|name" that may still become a token
  private pending = '';
  // the payload layer: "<||" reads as "<|"
  private unescape = '';
  private event: EventKind | '' = '';
  private fields: Field[] = [];
  private digits = 0;
  private fieldChars = 0;
  // the locals object
  private json: JsonPhase = 'begin';
  private inKey = false;
  private stringText = '';
  private stringChars = 0;
  private escape: '' | '\\' | 'u' = '';
  private hex = '';
  private nullRest = '';
  private entries = 0;
  // with constraints: the line number so far, the source text written and the one expected
  private lineText = '';
  private srcWritten = '';
  private srcExpected = '';
  /** The names of the locals object's entries, in order (complete ones). */
  keys: string[] = [];

  constructor(
    private readonly limits: StateLimits,
    private readonly constraints: StateConstraints | null = null,
  ) {
    this.maxLength = maxStateChars(limits);
  }

  /** An independent copy (a decoder tries a token on it before taking it). */
  clone(): StatePrefixChecker {
    const copy = Object.assign(Object.create(StatePrefixChecker.prototype) as StatePrefixChecker, this);
    copy.fields = [...this.fields];
    copy.keys = [...this.keys];
    return copy;
  }

  /** The part of the state the next piece of text continues. */
  part(): StatePart {
    if (this.ended) return 'end';
    if (this.phase === 'start' || this.phase === 'line') return 'position';
    if (this.phase === 'message' || this.phase === 'exit' || this.phase === 'closed') return 'message';
    const f = this.fields.at(-1);
    if (f === 'arg') return this.json === 'begin' || this.json === 'open' ? 'position' : { entry: Math.max(0, this.entries - 1) };
    return f === 'src' ? 'src' : 'value';
  }

  /** The text the program fixes next, whatever the model would write ('' when it fixes none):
   * a line's source text after its number (and <|arg_sep|> where no other field can follow), or
   * the whole line when the action can stop at one line only. */
  forced(): string {
    const c = this.constraints;
    if (!c || this.rejected !== null || this.ended || this.pending !== '' || this.unescape !== '') return '';
    // the separator after the source text, where only one field can follow it
    const next = new Set(this.layouts().map((l) => l[1]));
    const after = next.size === 1 ? FIELD_TOKENS[[...next][0]!] : '';
    if (this.phase === 'line' && this.digits === 0) {
      const allowed = this.allowedLines();
      if (allowed === null || allowed.size !== 1) return '';
      const [only] = allowed;
      return `${only}${TOKENS.srcSep}${escapePayload(srcText(c.lines, only!))}${after}`;
    }
    if (this.phase === 'line' && this.digits > 0) {
      // a line number no other line of the state goes on from is complete
      const allowed = this.allowedLines();
      const n = Number(this.lineText);
      if (allowed === null || !allowed.has(n) || [...allowed].some((l) => l !== n && String(l).startsWith(this.lineText))) return '';
      return `${TOKENS.srcSep}${escapePayload(srcText(c.lines, n))}${after}`;
    }
    if (this.phase === 'field' && this.fields.length === 1 && this.fields[0] === 'src' && this.srcWritten === '') {
      return escapePayload(this.srcExpected) + after;
    }
    return '';
  }

  /** A short text that ends the state validly from here (with its terminator), for a decoder
   * that runs out of tokens: a readable state rather than none. Null where there is none to give
   * (before the line number is complete). The values it closes with are empty. */
  closing(): string | null {
    if (this.rejected !== null) return null;
    if (this.ended) return '';
    const end = STATE_TERMINATORS[0]!;
    if (this.pending !== '' || this.phase === 'start' || this.phase === 'line') return null;
    // an escape "<|" waits for its second "|"
    const bar = this.unescape === '<|' ? '|' : '';
    if (this.phase === 'closed' || this.phase === 'exit' || this.phase === 'message') return bar + end;
    const field = this.fields.at(-1);
    if (field === 'src') return null; // the decoder writes the source text itself
    if (field !== 'arg') return bar + end;
    // the fields after the locals (an exception state's exception), closed with a placeholder
    const layout = this.layouts().find((l) => this.fields.every((f, i) => l[i] === f)) ?? [];
    const rest = layout
      .slice(this.fields.length)
      .map((f) => FIELD_TOKENS[f] + (f === 'raise' ? 'Exception' : ''))
      .join('');
    const unused = (prefix: string): string | undefined =>
      [...(this.constraints ? this.allowedNames().names : [])].filter((n) => n.startsWith(prefix) && !this.keys.includes(n)).sort((a, b) => a.length - b.length)[0];
    const fresh = unused('');
    let json: string;
    switch (this.json) {
      case 'begin':
        json = '{}';
        break;
      case 'open':
      case 'done':
        json = this.json === 'open' ? '}' : '';
        break;
      case 'next':
        if (fresh === undefined) return null;
        json = `"${fresh}":""}`;
        break;
      case 'colon':
        json = ':""}';
        break;
      case 'value':
        json = '""}';
        break;
      case 'null':
        json = `${this.nullRest}}`;
        break;
      case 'after':
        json = '}';
        break;
      case 'string': {
        if (this.inKey) {
          const name = unused(this.stringText);
          if (name === undefined) return null;
          json = `${name.slice(this.stringText.length)}":""}`;
        } else {
          const escape = this.escape === '\\' ? 'n' : this.escape === 'u' ? '0'.repeat(4 - this.hex.length) : '';
          json = `${escape}"}`;
        }
        break;
      }
    }
    return bar + json + rest + end;
  }

  /** With constraints: the names this state's locals can have: its frame's where the program's
   * shape tells them (the event and the line are written before the locals), else the program's. */
  private allowedNames(): { names: ReadonlySet<string>; prefixes: ReadonlySet<string> } {
    const c = this.constraints!;
    const line = this.lineText === '' ? NaN : Number(this.lineText);
    const frame = this.event !== '' && Number.isInteger(line) ? c.namesAt(this.event, line) : null;
    return frame ?? { names: c.names, prefixes: c.namePrefixes };
  }

  /** With constraints: a name not yet in the locals (or the elision) begins with `prefix`. */
  private nameCanStartWith(prefix: string): boolean {
    const { names, prefixes } = this.allowedNames();
    if (!prefixes.has(prefix)) return false;
    if (ELIDED_KEY.startsWith(prefix) && !this.keys.includes(ELIDED_KEY) && this.elides() && this.limits.hasPrevious) return true;
    for (const n of names) if (n.startsWith(prefix) && !this.keys.includes(n)) return true;
    return false;
  }

  /** With constraints: one more entry can follow ("..", the elision, is always the last). */
  private anotherEntryFits(): boolean {
    return this.entries < this.limits.maxLocals && !this.keys.includes(ELIDED_KEY) && this.nameCanStartWith('');
  }

  /** The layouts the state's event allows (none before its event token). */
  private layouts(): ReadonlyArray<readonly Field[]> {
    return this.event === '' ? [] : STATE_FIELDS[this.event];
  }

  /** Whether the state's locals may be elided. */
  private elides(): boolean {
    return this.event !== '' && ELIDING_EVENTS.has(this.event);
  }

  private allowedLines(): ReadonlySet<number> | null {
    const c = this.constraints;
    if (!c) return null;
    return this.event === 'call' ? c.callLines : c.codeLines;
  }

  /** Appends text the model wrote; the verdict covers everything pushed so far. */
  push(text: string): GuardVerdict {
    if (this.constraints) return this.pushUnits(text);
    for (const ch of text) {
      if (this.rejected !== null || this.ended) break;
      if (this.count(ch)) this.raw(ch);
    }
    return this.verdict();
  }

  /** With constraints the text comes from a decoder, token by token: a format token is one piece
   * (`<|name|>` whole), never spelt out over several, so "<|" in any other text is a payload's
   * and must be escaped. */
  private pushUnits(text: string): GuardVerdict {
    for (const piece of text.split(TOKEN_PATTERN)) {
      if (this.rejected !== null || this.ended) break;
      if (TOKEN_SET.has(piece)) {
        if (this.count(piece)) this.token(piece);
        continue;
      }
      for (const ch of piece) {
        if (this.rejected !== null || this.ended) break;
        if (this.count(ch)) this.text(ch);
      }
    }
    return this.verdict();
  }

  private count(piece: string): boolean {
    this.length += piece.length;
    if (this.length <= this.maxLength) return true;
    this.reject(`longer than any state of this program can be (${this.maxLength} characters)`);
    return false;
  }

  verdict(): GuardVerdict {
    return this.rejected !== null ? { ok: false, reason: this.rejected } : { ok: true, ended: this.ended };
  }

  private reject(reason: string): void {
    if (this.rejected === null) this.rejected = reason;
  }

  // --- token layer: format tokens are found in the raw text exactly as parseState's regex does

  private raw(ch: string): void {
    if (this.pending === '') {
      if (ch === '<') this.pending = ch;
      else this.text(ch);
      return;
    }
    if (this.pending === '<') {
      if (ch === '|') this.pending = '<|';
      else {
        this.flushPending();
        this.raw(ch);
      }
      return;
    }
    if (this.pending.length > 2 && this.pending.endsWith('|')) {
      // "<|name|": only ">" makes it a token
      if (ch === '>') {
        const token = this.pending + ch;
        this.pending = '';
        this.token(token);
        return;
      }
    } else if (TOKEN_NAME_CHAR.test(ch) || (ch === '|' && this.pending.length > 2)) {
      this.pending += ch;
      return;
    }
    this.flushPending();
    this.raw(ch);
  }

  private flushPending(): void {
    const p = this.pending;
    this.pending = '';
    for (const c of p) this.text(c);
  }

  private token(token: string): void {
    if (!TOKEN_SET.has(token)) return this.reject(`unknown token ${token}`);
    if (TERMINATOR_SET.has(token)) return this.end();
    this.endPayload();
    if (this.rejected !== null) return;
    switch (this.phase) {
      case 'start':
        if (token === TOKENS.frameSep && !this.sawFrameSep) {
          this.sawFrameSep = true;
          return;
        }
        if (token === TOKENS.frameSep) return this.reject('more than one state');
        if (this.constraints && !this.constraints.firstTokens.has(token)) return this.reject(`${token} cannot follow this action`);
        if (CLOSED_BY.has(token)) {
          this.phase = 'closed';
          return;
        }
        if (MESSAGE_AFTER.has(token)) {
          this.phase = 'exit';
          return;
        }
        if (EVENT_OF_TOKEN.has(token)) {
          this.event = EVENT_OF_TOKEN.get(token)!;
          this.phase = 'line';
          return;
        }
        return this.reject(`a state cannot start with ${token}`);
      case 'closed':
        return this.reject(`${token} after the end of the state`);
      case 'exit':
        if (token !== TOKENS.raiseSep) return this.reject('an exit is followed by <|raise_sep|> and a message only');
        this.phase = 'message';
        this.fieldChars = 0;
        return;
      case 'message':
        return this.reject(`${token} after the exit's message`);
      case 'line': {
        if (this.digits === 0) return this.reject('no line number');
        const allowed = this.allowedLines();
        const n = Number(this.lineText);
        if (allowed && !allowed.has(n)) return this.reject(`line ${n} is not a line this state can be at`);
        if (this.constraints) this.srcExpected = srcText(this.constraints.lines, n);
        this.phase = 'field';
        return this.field(token);
      }
      case 'field':
        return this.field(token);
    }
  }

  private field(token: string): void {
    const f = FIELD_OF_TOKEN.get(token);
    const next = [...this.fields, f];
    const fits = f !== undefined && this.layouts().some((order) => next.every((x, i) => order[i] === x));
    if (!fits) return this.reject(`${token} where a ${this.event} state has no such field`);
    this.fields.push(f);
    this.fieldChars = 0;
    if (f === 'arg') {
      this.json = 'begin';
      this.entries = 0;
    }
  }

  private end(): void {
    this.endPayload();
    if (this.rejected !== null) return;
    const complete =
      this.phase === 'closed' ||
      this.phase === 'exit' ||
      this.phase === 'message' ||
      (this.phase === 'field' && this.layouts().some((order) => order.length === this.fields.length));
    if (!complete) return this.reject('the state ends before its fields are complete');
    this.ended = true;
  }

  // --- payload layer

  /** A token or the end closes the current payload: "<" or "<|" left over are plain text. */
  private endPayload(): void {
    if (this.constraints && this.unescape !== '') {
      if (this.unescape === '<|') this.reject('a "<|" in a payload that is not escaped as "<||"');
      this.unescape = '';
    } else if (this.unescape !== '') {
      const rest = this.unescape;
      this.unescape = '';
      for (const c of rest) this.payloadChar(c);
    }
    if (this.rejected === null && this.phase === 'field' && this.fields.at(-1) === 'arg' && this.json !== 'done') {
      this.reject('the locals are not a complete JSON object');
    }
    if (this.rejected === null && this.constraints && this.phase === 'field' && this.fields.at(-1) === 'src' && this.srcWritten !== this.srcExpected) {
      this.reject(`the source text is not line ${this.lineText}'s`);
    }
  }

  private text(ch: string): void {
    switch (this.phase) {
      case 'start':
        return this.reject('text before the event token');
      case 'closed':
      case 'exit':
        return this.reject('text after the end of the state');
      case 'line': {
        if (!/[0-9]/.test(ch)) return this.reject('the line number is not a number');
        if (++this.digits > MAX_LINE_DIGITS) return this.reject(`the line number has more than ${MAX_LINE_DIGITS} digits`);
        this.lineText += ch;
        const allowed = this.allowedLines();
        if (allowed && ![...allowed].some((l) => String(l).startsWith(this.lineText))) return this.reject(`no line this state can be at begins with ${this.lineText}`);
        return;
      }
      case 'message':
      case 'field':
        return this.unescaped(ch);
    }
  }

  private unescaped(ch: string): void {
    if (this.constraints) return this.unescapedEagerly(ch);
    // "<||" is "<|" (left to right, as unescapePayload reads it)
    if (this.unescape === '') {
      if (ch === '<') this.unescape = '<';
      else this.payloadChar(ch);
      return;
    }
    if (this.unescape === '<') {
      if (ch === '|') {
        this.unescape = '<|';
        return;
      }
      this.unescape = '';
      this.payloadChar('<');
      this.unescaped(ch);
      return;
    }
    this.unescape = '';
    this.payloadChar('<');
    this.payloadChar('|');
    if (ch !== '|') this.unescaped(ch);
  }

  /** With constraints: the format escapes every "<|" of a payload as "<||", so a payload's "<"
   * and "|" are its characters at once (checked now, not when the escape is complete), and "<|"
   * not followed by "|" is refused. */
  private unescapedEagerly(ch: string): void {
    if (this.unescape === '<|') {
      this.unescape = '';
      if (ch !== '|') return this.reject('a "<|" in a payload that is not escaped as "<||"');
      return;
    }
    if (this.unescape === '<' && ch === '|') {
      this.unescape = '<|';
      return this.payloadChar('|');
    }
    this.unescape = ch === '<' ? '<' : '';
    this.payloadChar(ch);
  }

  private payloadChar(ch: string): void {
    const f = this.phase === 'message' ? 'message' : this.fields.at(-1)!;
    if (f === 'arg') return this.jsonChar(ch);
    if (f === 'src' && this.constraints) {
      this.srcWritten += ch;
      if (!this.srcExpected.startsWith(this.srcWritten)) return this.reject(`the source text is not line ${this.lineText}'s`);
    }
    this.fieldChars += codePoints(ch);
    if (this.fieldChars > MAX_FIELD_CHARS) this.reject(`the ${f === 'src' ? 'source line' : f} is longer than ${MAX_FIELD_CHARS} characters`);
  }

  // --- the locals object

  private jsonChar(ch: string): void {
    if (this.constraints && this.json !== 'string' && JSON_SPACE.has(ch)) return this.reject('whitespace in the locals (the format writes none)');
    switch (this.json) {
      case 'begin':
        if (JSON_SPACE.has(ch)) return;
        if (ch !== '{') return this.reject('the locals are not a JSON object');
        this.json = 'open';
        return;
      case 'open':
      case 'next':
        if (JSON_SPACE.has(ch)) return;
        if (ch === '}' && this.json === 'open') {
          this.json = 'done';
          return;
        }
        if (ch !== '"') return this.reject('the locals are not valid JSON');
        if (++this.entries > this.limits.maxLocals) return this.reject(`more than ${this.limits.maxLocals} locals`);
        return this.openString(true);
      case 'colon':
        if (JSON_SPACE.has(ch)) return;
        if (ch !== ':') return this.reject('the locals are not valid JSON');
        this.json = 'value';
        return;
      case 'value':
        if (JSON_SPACE.has(ch)) return;
        if (ch === '"') return this.openString(false);
        if (ch === 'n') {
          this.json = 'null';
          this.nullRest = 'ull';
          return;
        }
        return this.reject('a local whose value is not a string');
      case 'null':
        if (ch !== this.nullRest[0]) return this.reject('a local whose value is not a string');
        this.nullRest = this.nullRest.slice(1);
        if (this.nullRest === '') this.json = 'after';
        return;
      case 'string':
        return this.stringChar(ch);
      case 'after':
        if (JSON_SPACE.has(ch)) return;
        if (ch === ',' && this.constraints && !this.anotherEntryFits()) return this.reject('no local can come after these');
        if (ch === ',') this.json = 'next';
        else if (ch === '}') this.json = 'done';
        else this.reject('the locals are not valid JSON');
        return;
      case 'done':
        if (!JSON_SPACE.has(ch)) this.reject('text after the locals object');
        return;
    }
  }

  private openString(key: boolean): void {
    this.json = 'string';
    this.inKey = key;
    this.stringText = '';
    this.stringChars = 0;
    this.escape = '';
  }

  private stringChar(ch: string): void {
    if (this.escape === '\\') {
      if (ch === 'u') {
        this.escape = 'u';
        this.hex = '';
        return;
      }
      const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
      if (!(ch in simple)) return this.reject('the locals are not valid JSON');
      this.escape = '';
      return this.decoded(simple[ch]!);
    }
    if (this.escape === 'u') {
      if (!HEX.test(ch)) return this.reject('the locals are not valid JSON');
      this.hex += ch;
      if (this.hex.length === 4) {
        this.escape = '';
        this.decoded(String.fromCharCode(parseInt(this.hex, 16)));
      }
      return;
    }
    if (ch === '\\') {
      // a name of the program is an identifier: nothing in it is escaped
      if (this.inKey && this.constraints) return this.reject('an escape in a name');
      // an escape is one more character: none fits in a value at its cap
      if (this.constraints && this.stringChars >= MAX_FIELD_CHARS) return this.reject(`a value longer than ${MAX_FIELD_CHARS} characters`);
      this.escape = '\\';
      return;
    }
    if (ch === '"') return this.closeString();
    if (ch.charCodeAt(0) < 0x20) return this.reject('a control character in a JSON string');
    this.decoded(ch);
  }

  private decoded(text: string): void {
    this.stringChars += codePoints(text);
    if (this.inKey) {
      this.stringText += text;
      if (this.stringChars > this.limits.maxNameChars) this.reject(`a name longer than ${this.limits.maxNameChars} characters`);
      else if (this.constraints && !this.nameCanStartWith(this.stringText)) this.reject(`no name of the program left begins with ${JSON.stringify(this.stringText)}`);
    } else if (this.stringChars > MAX_FIELD_CHARS) {
      this.reject(`a value longer than ${MAX_FIELD_CHARS} characters`);
    }
  }

  private closeString(): void {
    if (!this.inKey) {
      this.json = 'after';
      return;
    }
    if (this.stringText === ELIDED_KEY) {
      if (!this.elides()) return this.reject(`elided locals ("..") in a ${this.event} state`);
      if (!this.limits.hasPrevious) return this.reject('elided locals ("..") but no previous locals to fill them from');
    } else if (this.constraints && !this.allowedNames().names.has(this.stringText)) {
      return this.reject(`${JSON.stringify(this.stringText)} is not a name this frame can have`);
    }
    if (this.constraints && this.keys.includes(this.stringText)) return this.reject(`${JSON.stringify(this.stringText)} twice in the locals`);
    this.keys.push(this.stringText);
    this.json = 'colon';
  }
}

/** The verdict on a whole prefix at once (tests, one-off checks). */
export function checkStatePrefix(prefix: string, limits: StateLimits, constraints: StateConstraints | null = null): GuardVerdict {
  return new StatePrefixChecker(limits, constraints).push(prefix);
}
