// The commands of `ndb debug`'s prompt, read from a line of text: pdb's names, short forms and
// arguments, and ndb's additions (gdb's reverse moves, what-if edits, the model's prediction).
// Pure text work: what a command does at a stop is pdbSession.ts's.

import { MOVE_NAMES, type MoveKind, type SimpleAction } from '../core/actions';

export interface BreakLocation {
  /** As written before the colon (`prog.py:4`), to check that it names the debugged file. */
  file?: string;
  line?: number;
  /** A function's name: the breakpoint goes on its first line that runs. */
  name?: string;
}

export type PdbCommand =
  | { kind: 'move'; move: MoveKind }
  | { kind: 'until'; line?: number }
  | { kind: 'break'; temporary: boolean; at?: BreakLocation; condition?: string }
  | { kind: 'clear'; targets: string[] }
  | { kind: 'condition'; number: number; condition?: string }
  | { kind: 'enable' | 'disable'; numbers: number[] }
  | { kind: 'print'; expr: string; pretty: boolean }
  | { kind: 'display' | 'undisplay'; expr?: string }
  | { kind: 'where' }
  | { kind: 'up' | 'down'; count: number }
  | { kind: 'list'; first?: number; last?: number; here?: boolean }
  | { kind: 'longlist' }
  | { kind: 'args' }
  | { kind: 'retval' }
  | { kind: 'help'; topic?: string }
  | { kind: 'quit' }
  | { kind: 'set'; name: string; expr: string }
  /** A Python statement run in the frame (pdb's `!stmt`, or a line that is no command). */
  | { kind: 'exec'; code: string }
  | { kind: 'exceptions'; mode?: 'raised' | 'uncaught' | 'none' }
  /** What the model predicts a move shows: the moves that are one model action. */
  | { kind: 'predict'; move: SimpleAction };

/** A line that is no command, or a command with arguments it cannot take; the message says why. */
export class PdbSyntaxError extends Error {}

/** A command the prompt cannot do where the session stands; the message says why. */
export class PdbError extends Error {}

/** The moves by the prompt's names (pdb's, and gdb's for the moves back), from the one table of
 * every face's names for them (core/actions.ts). */
const MOVES: Record<string, MoveKind> = Object.fromEntries(MOVE_NAMES.flatMap((m) => m.prompt.map((word) => [word, m.kind])));

/** A move's command by each of its names: its full name, the table's last (`s` → `step`). */
const MOVE_COMMANDS: Record<string, string> = Object.fromEntries(MOVE_NAMES.flatMap((m) => m.prompt.map((word) => [word, m.prompt[m.prompt.length - 1]!])));

/** The move a word of the prompt names, if any. */
function moveOf(word: string): MoveKind | undefined {
  return Object.hasOwn(MOVES, word) ? MOVES[word] : undefined;
}

/** Every name the prompt knows, short forms included, to the command's full name. */
const NAMES: Record<string, string> = {
  ...MOVE_COMMANDS,
  unt: 'until',
  until: 'until',
  b: 'break',
  break: 'break',
  tbreak: 'tbreak',
  cl: 'clear',
  clear: 'clear',
  condition: 'condition',
  enable: 'enable',
  disable: 'disable',
  p: 'p',
  pp: 'pp',
  display: 'display',
  undisplay: 'undisplay',
  w: 'where',
  where: 'where',
  bt: 'where',
  u: 'up',
  up: 'up',
  d: 'down',
  down: 'down',
  l: 'list',
  list: 'list',
  ll: 'longlist',
  longlist: 'longlist',
  a: 'args',
  args: 'args',
  rv: 'retval',
  retval: 'retval',
  h: 'help',
  help: 'help',
  q: 'quit',
  quit: 'quit',
  exit: 'quit',
  EOF: 'quit',
  set: 'set',
  predict: 'predict',
  exceptions: 'exceptions',
};

/** pdb commands ndb leaves out, and what to use instead. */
const NOT_HERE: Record<string, string> = {
  j: 'jump',
  jump: 'jump',
  run: 'restart',
  restart: 'restart',
  interact: 'interact',
  debug: 'debug',
  commands: 'commands',
  ignore: 'ignore',
  alias: 'alias',
  unalias: 'unalias',
  source: 'source',
  whatis: 'whatis',
};

const INSTEAD: Record<string, string> = {
  jump: 'the program runs only as it ran: rs, rn, rc and rf go back, set NAME = EXPR changes a value',
  restart: 'the program was recorded once: rc goes back to the start',
};

/** The full name of a command word (`n` → `next`), or undefined when it is none. */
export function commandName(word: string): string | undefined {
  return Object.hasOwn(NAMES, word) ? NAMES[word] : undefined;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function lineNumber(text: string, what: string): number {
  const t = text.trim();
  if (!/^\d+$/.test(t) || Number(t) < 1) throw new PdbSyntaxError(`${what}: '${t}' is not a line number`);
  return Number(t);
}

function numbers(text: string, what: string): number[] {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '');
  return parts.map((p) => {
    if (!/^\d+$/.test(p)) throw new PdbSyntaxError(`${what}: '${p}' is not a breakpoint number`);
    return Number(p);
  });
}

function breakCommand(rest: string, temporary: boolean): PdbCommand {
  if (rest === '') return { kind: 'break', temporary };
  // `b 4, x > 1`: the location ends at the first comma, the condition is the rest as written
  const comma = rest.indexOf(',');
  const where = (comma >= 0 ? rest.slice(0, comma) : rest).trim();
  const condition = comma >= 0 ? rest.slice(comma + 1).trim() : '';
  if (comma >= 0 && condition === '') throw new PdbSyntaxError('break: nothing after the comma (b LINE, CONDITION)');
  const at: BreakLocation = {};
  const colon = where.lastIndexOf(':');
  const place = colon >= 0 ? where.slice(colon + 1).trim() : where;
  if (colon >= 0) at.file = where.slice(0, colon).trim();
  if (/^\d+$/.test(place)) at.line = lineNumber(place, 'break');
  else if (colon < 0 && place.split('.').every((part) => IDENTIFIER.test(part))) at.name = place;
  else throw new PdbSyntaxError(`break: '${where}' is neither a line number nor a function name (b [FILE:]LINE [, CONDITION], b [MODULE.]FUNCTION)`);
  return condition === '' ? { kind: 'break', temporary, at } : { kind: 'break', temporary, at, condition };
}

function listCommand(rest: string): PdbCommand {
  if (rest === '') return { kind: 'list' };
  if (rest === '.') return { kind: 'list', here: true };
  const [a, b] = rest.split(',').map((s) => s.trim());
  const first = lineNumber(a ?? '', 'list');
  if (b === undefined) return { kind: 'list', first };
  const n = lineNumber(b, 'list');
  // as pdb: a second number smaller than the first is a count of lines
  return { kind: 'list', first, last: n < first ? first + n : n };
}

function setCommand(rest: string, word: string): PdbCommand {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)$/s.exec(rest);
  if (!m || m[2]!.trim() === '') throw new PdbSyntaxError(`${word}: expected NAME = EXPR, e.g. set total = 100`);
  return { kind: 'set', name: m[1]!, expr: m[2]!.trim() };
}

function predictCommand(rest: string): PdbCommand {
  if (rest === '') return { kind: 'predict', move: 'step_into' };
  const move = moveOf(rest);
  if (move === undefined || move === 'inv_continue') {
    throw new PdbSyntaxError(`predict: '${rest}' is no move the model makes (predict [s|n|r|c|rs|rn|rf])`);
  }
  return { kind: 'predict', move };
}

/** pdb's `!statement`: an assignment to a name is a what-if edit (the run goes on with it), any
 * other statement is run once in the frame. */
function statement(body: string): PdbCommand {
  if (body === '') throw new PdbSyntaxError('! needs a Python statement (!STATEMENT)');
  return /^[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)/.test(body) ? setCommand(body, '!') : { kind: 'exec', code: body };
}

/** Reads one command line (not empty: an empty line repeats the last command, which the caller
 * keeps). Throws PdbSyntaxError for a line that is no command. */
export function parsePdbCommand(text: string): PdbCommand {
  const line = text.trim();
  if (line.startsWith('!')) return statement(line.slice(1).trim());
  const m = /^(\S+)\s*(.*)$/s.exec(line);
  if (!m) throw new PdbSyntaxError('no command');
  // pdb's rule: a line whose first word is a command is that command (a name with a dash, as
  // `reverse-step`, is one word; else the word is its identifier characters, as pdb's parseline
  // reads `p(x)`); any other line is a Python statement run in the frame
  let word = m[1]!;
  let rest = m[2]!.trim();
  const ident = /^[A-Za-z0-9_]+/.exec(line)?.[0];
  if (commandName(word) === undefined && !Object.hasOwn(NOT_HERE, word) && ident !== undefined && ident !== word) {
    word = ident;
    rest = line.slice(ident.length).trim();
  }
  const name = commandName(word);
  if (name === undefined) {
    const missing = Object.hasOwn(NOT_HERE, word) ? NOT_HERE[word]! : undefined;
    if (missing) throw new PdbSyntaxError(`ndb has no '${missing}'${INSTEAD[missing] ? `: ${INSTEAD[missing]}` : ''}`);
    return statement(line);
  }
  const noArguments = (command: PdbCommand): PdbCommand => {
    if (rest !== '') throw new PdbSyntaxError(`${name} takes no arguments`);
    return command;
  };
  switch (name) {
    case 'step':
    case 'next':
    case 'return':
    case 'continue':
    case 'reverse-step':
    case 'reverse-next':
    case 'reverse-continue':
    case 'reverse-finish':
      return noArguments({ kind: 'move', move: moveOf(word)! });
    case 'until':
      return rest === '' ? { kind: 'until' } : { kind: 'until', line: lineNumber(rest, 'until') };
    case 'break':
    case 'tbreak':
      return breakCommand(rest, name === 'tbreak');
    case 'clear':
      return { kind: 'clear', targets: rest.split(/[\s,]+/).filter((t) => t !== '') };
    case 'condition': {
      const c = /^(\d+)\s*(.*)$/s.exec(rest);
      if (!c) throw new PdbSyntaxError('condition: expected a breakpoint number (condition N [EXPR])');
      const cond = c[2]!.trim();
      return cond === '' ? { kind: 'condition', number: Number(c[1]) } : { kind: 'condition', number: Number(c[1]), condition: cond };
    }
    case 'enable':
    case 'disable': {
      const ns = numbers(rest, name);
      if (ns.length === 0) throw new PdbSyntaxError(`${name}: which breakpoints? (${name} N [N …])`);
      return { kind: name, numbers: ns };
    }
    case 'p':
    case 'pp':
      if (rest === '') throw new PdbSyntaxError(`${name} needs an expression (${name} EXPR)`);
      return { kind: 'print', expr: rest, pretty: name === 'pp' };
    case 'display':
    case 'undisplay':
      return rest === '' ? { kind: name } : { kind: name, expr: rest };
    case 'where':
      return noArguments({ kind: 'where' });
    case 'up':
    case 'down':
      return { kind: name, count: rest === '' ? 1 : lineNumber(rest, name) };
    case 'list':
      return listCommand(rest);
    case 'longlist':
      return noArguments({ kind: 'longlist' });
    case 'args':
      return noArguments({ kind: 'args' });
    case 'retval':
      return noArguments({ kind: 'retval' });
    case 'help':
      return rest === '' ? { kind: 'help' } : { kind: 'help', topic: rest };
    case 'quit':
      return { kind: 'quit' };
    case 'set':
      return setCommand(rest, 'set');
    case 'predict':
      return predictCommand(rest);
    case 'exceptions': {
      if (rest === '') return { kind: 'exceptions' };
      if (rest !== 'raised' && rest !== 'uncaught' && rest !== 'none') throw new PdbSyntaxError(`exceptions: '${rest}' is not raised, uncaught or none`);
      return { kind: 'exceptions', mode: rest };
    }
  }
  throw new PdbSyntaxError(`unknown command '${word}'`);
}

/** `h`: pdb's commands, then ndb's own. */
export const HELP_TEXT: readonly string[] = [
  'Moves (pdb):',
  '  s(tep)            the next stop anywhere: into a call, or the next line',
  '  n(ext)            the next line in this function (calls run through)',
  '  r(eturn)          on to this function\'s return',
  '  c(ont(inue))      on to the next breakpoint, or the end',
  '  unt(il) [LINE]    on to a line past this one (or LINE or past) in this function, or its return',
  'Breakpoints:',
  '  b(reak) [FILE:]LINE|FUNCTION [, COND]   set one (no argument: list them)',
  '  tbreak ...        the same, removed when it is first hit',
  '  cl(ear) [N … | FILE:LINE]   remove breakpoints (no argument: all)',
  '  condition N [COND]   set (or with none, remove) the condition of breakpoint N',
  '  disable N …  /  enable N …',
  'Looking around:',
  '  p EXPR / pp EXPR  the value of EXPR in the current frame (its repr; pp pretty-printed)',
  '  display [EXPR] / undisplay [EXPR]   show EXPR at each stop where it changed',
  '  w(here), bt       the call stack, the current frame marked >',
  '  u(p) [N] / d(own) [N]   select an outer / inner frame',
  '  l(ist) [FIRST[, LAST] | .]   source lines; ll / longlist: the whole function',
  '  a(rgs)            the arguments of the current function',
  '  retval, rv        the value returned, at a return stop',
  '  h(elp) [COMMAND]  this list, or one command',
  '  q(uit), Ctrl-D    leave (with a summary)',
  'ndb\'s additions:',
  '  rs, reverse-step      back one stop (the previous event)',
  '  rn, reverse-next      back over a call to the previous line of this function',
  '  rc, reverse-continue  back to the previous breakpoint stop, else the start',
  '  rf, reverse-finish    back to the call of the current frame: its arguments',
  '  set NAME = EXPR (or !NAME = EXPR)   what-if: the program runs again with NAME = EXPR made here',
  '  predict [s|n|r|c|rs|rn|rf]   what the model predicts that move shows, how sure it is, and the truth',
  '  exceptions [raised|uncaught|none]   stop where exceptions are raised (every one, or the one that ends the program)',
  '!STATEMENT, or a line that is no command: Python run in the current frame, once (what it prints is shown)',
  'An empty line repeats the last command.',
];

const TOPICS: Record<string, string> = {
  step: 's(tep): the next stop anywhere: into a call (a --Call-- stop), the next line, or a return',
  next: 'n(ext): the next line in the current function; calls run through (a breakpoint in them stops)',
  return: "r(eturn): on to the current function's return (a --Return-- stop)",
  continue: 'c(ont(inue)): on to the next breakpoint stop, or the end of the program',
  until: 'unt(il) [LINE]: on to a line greater than the current one (or LINE or greater) in this function, or its return',
  break: 'b(reak) [FILE:]LINE|FUNCTION [, COND]: a breakpoint (with a condition, it stops only where COND is true); b alone lists them',
  tbreak: 'tbreak [FILE:]LINE|FUNCTION [, COND]: a breakpoint removed when it is first hit',
  clear: 'cl(ear) [N … | FILE:LINE]: removes breakpoints by number or place; cl alone removes them all',
  condition: 'condition N [COND]: sets the condition of breakpoint N; without COND it stops unconditionally',
  enable: 'enable N …: enables breakpoints',
  disable: 'disable N …: disables breakpoints (they stay listed)',
  p: 'p EXPR: the repr of EXPR in the current frame (the program runs again to evaluate it there)',
  pp: 'pp EXPR: as p, pretty-printed over several lines when it is long',
  display: 'display [EXPR]: shows EXPR at every stop where its value changed; display alone lists them',
  undisplay: 'undisplay [EXPR]: stops showing EXPR (alone: all of them)',
  where: 'w(here), bt: the call stack, outermost first; > marks the current frame',
  up: 'u(p) [N]: selects the frame N levels out (p, l, a and rf then use it)',
  down: 'd(own) [N]: selects the frame N levels in',
  list: 'l(ist) [FIRST[, LAST] | .]: 11 lines around the current line, then the next 11; l . goes back to the current line',
  longlist: 'll, longlist: the whole current function',
  args: 'a(rgs): the arguments of the current function with their values now',
  retval: 'retval, rv: the value being returned, at a --Return-- stop',
  help: 'h(elp) [COMMAND]: the commands, or one',
  quit: 'q(uit), exit, Ctrl-D: ends the session with a summary (exit status 0)',
  'reverse-step': 'rs, reverse-step: back one stop, to the previous event of the program',
  'reverse-next': 'rn, reverse-next: back to the previous line of this function, over the calls it made',
  'reverse-continue': 'rc, reverse-continue: back to the previous breakpoint stop, or to the start',
  'reverse-finish': 'rf, reverse-finish: back to the call of the current frame, where its arguments are',
  set: 'set NAME = EXPR: what-if: the program runs again with NAME = EXPR assigned here, and goes on from the changed state',
  exceptions: 'exceptions [raised|uncaught|none]: where moves stop for exceptions: raised (wherever one is raised), uncaught (where the one that ends the program was raised), none; alone, the current setting',
  predict: "predict [s|n|r|c|rs|rn|rf]: the model's prediction of that move from here, how sure it is, and whether it is right; nothing moves",
};

/** `h COMMAND`: one command's help, or undefined for a word that is none. */
export function helpTopic(word: string): string | undefined {
  const name = commandName(word);
  if (name === undefined) return undefined;
  return TOPICS[name];
}
