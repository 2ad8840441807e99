// Reads the structure back out of a value's repr text, so that a debugger view can expand it:
// user objects shown by the tracer as `Name(a=1, b=[1, 2])`, and lists, tuples, sets and dicts.
// Pure text work: a repr that does not parse is simply not expandable.

/** A value cut by the tracer's length cap ends with this mark (tracer.py: TRUNCATION_MARK). */
export const TRUNCATION_MARK = '\u2026';

export type ReprNode =
  | { kind: 'object'; name: string; fields: ReprField[]; truncated: boolean }
  | { kind: 'list' | 'tuple' | 'set' | 'frozenset'; items: string[]; truncated: boolean }
  | { kind: 'dict'; entries: Array<{ key: string; value: string }>; truncated: boolean }
  | { kind: 'atom'; text: string };

export interface ReprField {
  name: string;
  value: string;
}

/** One row of an expanded value: a label (`x`, `[0]`, `'key'`) and the child's repr. */
export interface ReprChild {
  name: string;
  value: string;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Split {
  parts: string[];
  /** The text ran out before the bracket that opened it was closed (a cut repr). */
  open: boolean;
}

/**
 * Splits `text` at the separator characters that are outside brackets and string literals. A
 * `<…>` (e.g. `<function f>`) is a bracket only where an item starts with it, since a bare `<`
 * or `>` never occurs in a repr outside a string except in such placeholders.
 */
export function splitTopLevel(text: string, separator: ',' | ':'): Split {
  const parts: string[] = [];
  const stack: string[] = [];
  let quote: string | null = null;
  let start = 0;
  let itemStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      itemStart = false;
      continue;
    }
    if (c in OPENERS) stack.push(OPENERS[c]!);
    else if (c === '<' && (itemStart || stack[stack.length - 1] === '>')) stack.push('>');
    else if (stack.length > 0 && c === stack[stack.length - 1]) stack.pop();
    else if (c === separator && stack.length === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
      itemStart = true;
      continue;
    }
    if (c !== ' ') itemStart = ',:=([{'.includes(c);
  }
  parts.push(text.slice(start).trim());
  return { parts, open: stack.length > 0 || quote !== null };
}

/** The index of the bracket that closes the one at `open`, or -1 when the text is cut first. */
function closingIndex(text: string, open: number): number {
  const stack: string[] = [];
  let quote: string | null = null;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c in OPENERS) stack.push(OPENERS[c]!);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The inside of a bracketed repr (`[…]`, `Name(…)`), and whether it was cut before its end.
 * Null when the brackets do not span the whole text (e.g. `f(1) + 2` is no single value). */
function body(text: string, open: number): { inner: string; truncated: boolean } | null {
  const close = closingIndex(text, open);
  if (close === -1) {
    if (!text.endsWith(TRUNCATION_MARK)) return null;
    return { inner: text.slice(open + 1, -TRUNCATION_MARK.length), truncated: true };
  }
  if (close !== text.length - 1) return null;
  return { inner: text.slice(open + 1, close), truncated: false };
}

function items(inner: string, truncated: boolean): { items: string[]; truncated: boolean } | null {
  if (inner.trim() === '') return { items: [], truncated };
  const split = splitTopLevel(inner, ',');
  const parts = split.parts;
  // A trailing comma (a one-item tuple) leaves an empty last part; any other empty part means
  // this was not a sequence repr after all.
  if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
  if (parts.some((p) => p === '')) return null;
  const cut = truncated || split.open;
  // The last item of a cut repr is itself cut: it keeps the mark.
  if (cut) parts[parts.length - 1] += TRUNCATION_MARK;
  return { items: parts, truncated: cut };
}

function parseDict(inner: string, truncated: boolean): ReprNode | null {
  const list = items(inner, truncated);
  if (!list) return null;
  const entries: Array<{ key: string; value: string }> = [];
  for (const [i, item] of list.items.entries()) {
    const kv = splitTopLevel(item, ':').parts;
    if (kv.length !== 2) {
      // The last entry of a cut dict may have lost its value.
      if (list.truncated && i === list.items.length - 1) break;
      return null;
    }
    entries.push({ key: kv[0]!, value: kv[1]! });
  }
  return { kind: 'dict', entries, truncated: list.truncated };
}

function parseObject(name: string, inner: string, truncated: boolean): ReprNode | null {
  const list = items(inner, truncated);
  if (!list || list.items.length === 0) return null;
  const fields: ReprField[] = [];
  for (const [i, item] of list.items.entries()) {
    const eq = item.indexOf('=');
    const field = eq > 0 ? item.slice(0, eq).trim() : '';
    // `a=1` is a field; `a==1`, a positional argument or a bare `...` is not the attribute form.
    if (!IDENT.test(field) || item[eq + 1] === '=') {
      if (list.truncated && i === list.items.length - 1) break;
      return null;
    }
    fields.push({ name: field, value: item.slice(eq + 1).trim() });
  }
  return { kind: 'object', name, fields, truncated: list.truncated };
}

/** The structure of a repr: an object in the attribute form, a container, or an atom. */
export function parseRepr(text: string): ReprNode {
  const t = text.trim();
  const atom: ReprNode = { kind: 'atom', text };
  const first = t[0];
  if (first === '[' || first === '{' || first === '(') {
    const b = body(t, 0);
    if (!b) return atom;
    if (first === '[') {
      const list = items(b.inner, b.truncated);
      return list ? { kind: 'list', ...list } : atom;
    }
    if (first === '(') {
      const list = items(b.inner, b.truncated);
      // `(x)` without a comma is a parenthesised value, not a tuple.
      if (!list || (list.items.length === 1 && !/,\s*$/.test(b.inner) && !b.truncated)) return atom;
      return { kind: 'tuple', ...list };
    }
    if (b.inner.trim() === '') return { kind: 'dict', entries: [], truncated: b.truncated };
    const firstItem = splitTopLevel(b.inner, ',').parts[0] ?? '';
    if (splitTopLevel(firstItem, ':').parts.length === 2) return parseDict(b.inner, b.truncated) ?? atom;
    const list = items(b.inner, b.truncated);
    return list ? { kind: 'set', ...list } : atom;
  }
  const call = /^([A-Za-z_][A-Za-z0-9_.]*)\(/.exec(t);
  if (call) {
    const b = body(t, call[0].length - 1);
    if (!b) return atom;
    if (call[1] === 'frozenset') {
      const set = parseRepr(b.inner);
      return set.kind === 'set' ? { kind: 'frozenset', items: set.items, truncated: set.truncated || b.truncated } : atom;
    }
    return parseObject(call[1]!, b.inner, b.truncated) ?? atom;
  }
  return atom;
}

/** The rows an expanded value shows, or null when the repr has nothing to expand. Cut reprs
 * end with a `…` row. */
export function reprChildren(text: string, limit = 1000): ReprChild[] | null {
  const node = parseRepr(text);
  let rows: ReprChild[];
  switch (node.kind) {
    case 'atom':
      return null;
    case 'object':
      rows = node.fields.map((f) => ({ name: f.name, value: f.value }));
      break;
    case 'dict':
      rows = node.entries.map((e) => ({ name: e.key, value: e.value }));
      break;
    case 'set':
    case 'frozenset':
      // Sets have no order or index: the rows are numbered only to tell them apart.
      rows = node.items.map((v, i) => ({ name: `{${i}}`, value: v }));
      break;
    default:
      rows = node.items.map((v, i) => ({ name: `[${i}]`, value: v }));
  }
  if (rows.length === 0 && !node.truncated) return null;
  const cut = rows.length > limit;
  rows = rows.slice(0, limit);
  if (node.truncated || cut) rows.push({ name: TRUNCATION_MARK, value: cut ? `${node.kind === 'object' ? 'more fields' : 'more items'}` : 'the value was cut at its length cap' });
  return rows;
}

/** Whether the repr can be expanded (cheaper to ask than building the rows). */
export function isExpandable(text: string): boolean {
  return reprChildren(text, 1) !== null;
}
