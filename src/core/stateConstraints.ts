// What the program and the action already fix about the next state, before the model writes a
// token of it: which event and exit tokens can follow the action, which line numbers a stop can
// have (the lines with code, the lines a call can stop at, the breakpoint lines a jump stops at),
// the source text of each line, and the names a local can have. The state guard
// (stateGuard.ts) holds the model's text to these, and the decoder (neuralEngine/predictor.ts)
// writes what they fix without asking the model. Pure: no Node or DOM APIs.
//
// Every rule here must accept every real state: `stateConstraints.test.ts` renders the real next
// state of every action at every stop of the test programs and checks that it is accepted.

import type { Action } from './actions';
import { sourceLines } from './sourceLines';
import { ELIDED_KEY, ENTRY_TOKEN, EVENT_TOKENS, EXITS, TOKENS } from './stateGrammar';
import type { EventKind, FrameShape, ProgramShape } from './trace';

export interface StateConstraints {
  /** The tokens the state may begin with (events and exits) after this action. */
  firstTokens: ReadonlySet<string>;
  /** Lines a call event can be at (null: any). */
  callLines: ReadonlySet<number> | null;
  /** Lines any other event can be at (null: any). */
  codeLines: ReadonlySet<number> | null;
  /** The source, line by line: a state's source text is its line's. */
  lines: readonly string[];
  /** The names a local can have ("..", the elision, aside). */
  names: ReadonlySet<string>;
  /** Every prefix of every name, for checking a name as it is written. */
  namePrefixes: ReadonlySet<string>;
  /** The names a state at this event and line can have, from the code objects a frame there can
   * run (the program's shape, `frames`); null where the shape does not tell (then `names`). */
  namesAt(event: EventKind, line: number): FrameNames | null;
}

export interface FrameNames {
  names: ReadonlySet<string>;
  prefixes: ReadonlySet<string>;
}

function withPrefixes(names: Iterable<string>): FrameNames {
  const set = new Set<string>();
  const prefixes = new Set<string>();
  for (const name of [...names, ELIDED_KEY]) {
    if (name !== ELIDED_KEY) set.add(name);
    for (let i = 0; i <= name.length; i++) prefixes.add(name.slice(0, i));
  }
  return { names: set, prefixes };
}

/** `namesAt` for a program's frames: a call stops at a code object's first line (or a resumed
 * generator's line), any other event at a line of the code object's own; the names of every code
 * object that can be there, with the names no source spells (`.0`, `input`). Null where no code
 * object is there or one of them can hold any name. */
function frameNamesAt(frames: readonly FrameShape[] | undefined, extra: readonly string[]): (event: EventKind, line: number) => FrameNames | null {
  if (!frames || frames.length === 0) return () => null;
  const cache = new Map<string, FrameNames | null>();
  return (event, line) => {
    const key = `${event === 'call' ? 'c' : 'o'}${line}`;
    const known = cache.get(key);
    if (known !== undefined || cache.has(key)) return known ?? null;
    const here = frames.filter((f) => (event === 'call' && f.first === line) || f.lines.includes(line));
    let found: FrameNames | null = null;
    if (here.length > 0 && here.every((f) => f.names !== null)) found = withPrefixes([...here.flatMap((f) => f.names!), ...extra]);
    cache.set(key, found);
    return found;
  };
}

/** Names a frame can have that its source does not spell: a generator expression's argument, and
 * `input`, which older recordings show among a module's globals (fixtures/format/traces). */
export const SYNTHETIC_NAMES = ['.0', 'input'];

// Python's keywords: never the name of a local (soft keywords such as `match` and `type` can be).
const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(' '),
);

const FORWARD_EVENTS = Object.values(EVENT_TOKENS).map((t) => t.forward);
const INVERSE_EVENTS = Object.values(EVENT_TOKENS).map((t) => t.inverse);
// At the exit, a forward action stays there and writes the exit again, whichever it was.
const EXIT_TOKENS = Object.values(EXITS).map((e) => e.token);

/** The tokens a state reached by `action` can start with, and the lines a jump can stop at
 * (null: any line with code). */
function actionRules(action: Action, breakpoints: readonly number[]): { first: string[]; stops: number[] | null } {
  switch (action.kind) {
    case 'continue':
      // pdb's continue stops only at a line event on a breakpoint, else at the end
      return { first: [TOKENS.lineSep, ...EXIT_TOKENS], stops: [...breakpoints] };
    case 'breakpoint':
      return { first: [TOKENS.lineSep, ...EXIT_TOKENS], stops: [action.line, ...breakpoints] };
    case 'inv_step_into':
    case 'inv_step_over':
    case 'inv_step_call':
      // walking back never reaches an exit; at the entry it stays there
      return { first: [...INVERSE_EVENTS, ENTRY_TOKEN], stops: null };
    default:
      return { first: [...FORWARD_EVENTS, ...EXIT_TOKENS], stops: null };
  }
}

/** The constraints on the state after `action`, for a program with this source and shape (null
 * shape: line numbers are not held to anything) and these names (stateGuard.sourceNames, plus the
 * previous state's locals). */
export function stateConstraints(
  action: Action,
  breakpoints: readonly number[],
  source: string,
  shape: ProgramShape | null | undefined,
  names: ReadonlySet<string>,
): StateConstraints {
  const { first, stops } = actionRules(action, breakpoints);
  let codeLines: Set<number> | null = shape ? new Set(shape.lines) : null;
  if (stops) codeLines = new Set(stops.filter((l) => codeLines === null || codeLines.has(l)));
  const locals = [...names].filter((n) => !KEYWORDS.has(n));
  const namePrefixes = new Set<string>();
  for (const name of [...locals, ELIDED_KEY]) for (let i = 0; i <= name.length; i++) namePrefixes.add(name.slice(0, i));
  // a line event needs a line to stop at: `continue` with no breakpoints can only end
  const firstTokens = new Set(first);
  if (codeLines !== null && codeLines.size === 0) for (const t of [TOKENS.lineSep, TOKENS.invLineSep, TOKENS.returnSep, TOKENS.exceptionSep]) firstTokens.delete(t);
  return {
    firstTokens,
    callLines: shape ? new Set(shape.calls) : null,
    codeLines,
    lines: sourceLines(source),
    names: new Set(locals),
    namePrefixes,
    namesAt: frameNamesAt(shape?.frames, SYNTHETIC_NAMES),
  };
}
