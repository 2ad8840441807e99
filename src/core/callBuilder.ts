// A call built from a predicted call state, as the function takes its arguments: the parameters
// in the order of its def line, `*args` and `**kwargs` spread, keyword-only ones by name, and a
// method called through its predicted object (`self`). Pure: the app's Guess inputs and the
// sessions' guess_inputs (CLI, MCP) build their calls here.

import { own } from './names';
import type { ParseResult } from './format';
import { callOfFrame } from './navigator';
import type { Position, Recording } from './trace';

export type ParamKind = 'positional' | 'star' | 'starstar' | 'keyword';

export interface Param {
  name: string;
  kind: ParamKind;
}

/** The parameters of the function defined at `defLine` (1-based) of `source`, read from its def
 * (which may span lines); `names`: the parameter names as the call event shows them, used when the
 * def cannot be read. */
export function parameters(source: string, defLine: number, names: readonly string[]): Param[] {
  const lines = source.split('\n');
  let text = '';
  for (let i = defLine - 1; i < lines.length && i < defLine + 30; i++) {
    text += `${lines[i] ?? ''}\n`;
    if (/\)\s*(->[^:]*)?:\s*(#.*)?$/.test((lines[i] ?? '').trim())) break;
  }
  const open = text.indexOf('(');
  if (!/^\s*(?:async\s+)?def\s/.test(text) || open < 0) return names.map((name) => ({ name, kind: 'positional' }));
  // the parameter list: up to the parenthesis that closes the def's
  let depth = 0;
  let end = -1;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      }
    }
  }
  if (end < 0) return names.map((name) => ({ name, kind: 'positional' }));
  const pieces: string[] = [];
  let piece = '';
  depth = 0;
  for (const c of text.slice(open + 1, end)) {
    if (c === ',' && depth === 0) {
      pieces.push(piece);
      piece = '';
      continue;
    }
    if ('([{'.includes(c)) depth++;
    if (')]}'.includes(c)) depth--;
    piece += c;
  }
  pieces.push(piece);
  const out: Param[] = [];
  let keywordOnly = false;
  for (const raw of pieces.map((p) => p.trim()).filter((p) => p !== '' && p !== '/')) {
    if (raw === '*') {
      keywordOnly = true;
      continue;
    }
    const name = /^\**\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(raw)?.[1];
    if (!name) continue;
    if (raw.startsWith('**')) out.push({ name, kind: 'starstar' });
    else if (raw.startsWith('*')) {
      out.push({ name, kind: 'star' });
      keywordOnly = true;
    } else out.push({ name, kind: keywordOnly ? 'keyword' : 'positional' });
  }
  return out;
}

/** The call of `fn` with the predicted arguments, or null when one is missing. A method (first
 * parameter `self` or `cls`) is called through the predicted object: `(OBJECT).fn(…)`. */
export function buildCall(fn: string, params: readonly Param[], predicted: Readonly<Record<string, string>>): string | null {
  const args: string[] = [];
  let target = fn;
  for (const [i, p] of params.entries()) {
    const value = own(predicted, p.name);
    if (value === undefined) return null;
    if (i === 0 && (p.name === 'self' || p.name === 'cls')) {
      target = `(${value}).${fn}`;
      continue;
    }
    if (p.kind === 'star') args.push(`*${value}`);
    else if (p.kind === 'starstar') args.push(`**${value}`);
    else if (p.kind === 'keyword') args.push(`${p.name}=${value}`);
    else args.push(value);
  }
  return `${target}(${args.join(', ')})`;
}

/** The calls Guess inputs tries at the return at `position`: each predicted call state (an
 * inv_step_call) made into a call of that frame's function as its def takes its arguments, or null
 * where the model did not write a call state with them. */
export function guessedCallMaker(rec: Recording, position: Position): (predicted: ParseResult) => string | null {
  const here = rec.events[position];
  if (!here) return () => null;
  // The parameters (names and kinds) are the code's, read from its def line: not the run's values.
  const callEvent = rec.events[callOfFrame(rec.events, position)];
  const params = parameters(rec.source, callEvent?.line ?? here.line, Object.keys(callEvent?.locals ?? {}));
  return (s) => ('unparseable' in s || s.event !== 'call' || !s.locals ? null : buildCall(here.function, params, s.locals));
}
