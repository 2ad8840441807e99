// Text from a debugged program (values, messages, output) printed where a terminal reads it: a
// control character there is an instruction (move the cursor, rewrite a line, set the window's
// title, forge "exit: normal"), so every one is written as an escape a person can read instead.
// The app's panels show a program's text the same way (`visibleText`): a bidirectional override
// would show a line reversed there, an invisible character would hide in it.

/** Characters that are not seen but change how the text around them reads: the bidirectional
 * controls (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069, the marks LRM, RLM and
 * ALM), which reorder a line, and the invisible format characters (soft hyphen, zero-width space,
 * word joiner and invisible operators, the deprecated format controls, the byte order mark,
 * interlinear annotations). The joiners U+200C and U+200D are kept: scripts and emoji need them. */
const INVISIBLE = '\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb';

/** C0 and C1 controls, DEL, and the invisible characters above. */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'g');
const UNSAFE_BUT_LAYOUT = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'g');

function escapeOne(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `text` with every control character escaped, newlines and tabs included: for one value or
 * message printed on one line. */
export function oneLine(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** `text` with control characters escaped but newlines and tabs kept: for a program's own output,
 * which is lines of text. A carriage return is escaped too (it would overwrite the line). */
export function safeLines(text: string): string {
  return text.replace(UNSAFE_BUT_LAYOUT, escapeOne);
}

/** A program's text as a page shows it (its output, a value, a name): as `safeLines`, so that a
 * bidirectional override cannot show a line reversed, nor an invisible character hide in it. */
export function visibleText(text: string): string {
  return safeLines(text);
}

/** Whether `text` holds anything `oneLine` would escape. */
export function hasControl(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029${INVISIBLE}]`, 'g');

/** `JSON.stringify(value)` with the characters it leaves raw that a terminal or a line-based
 * reader could act on (DEL, C1 controls, line and paragraph separators, the invisible characters)
 * written as `\uXXXX` escapes: the same JSON value, safe to print. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
