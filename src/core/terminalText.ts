// Text from a debugged program (values, messages, output) printed where a terminal reads it: a
// control character there is an instruction (move the cursor, rewrite a line, set the window's
// title, forge "exit: normal"), so every one is written as an escape a person can read instead.

/** C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a line shows. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const UNSAFE_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

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

/** Whether `text` holds anything `oneLine` would escape. */
export function hasControl(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `JSON.stringify(value)` with the characters it leaves raw that a terminal or a line-based
 * reader could act on (DEL, C1 controls, line and paragraph separators, bidirectional overrides)
 * written as `\uXXXX` escapes: the same JSON value, safe to print. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
