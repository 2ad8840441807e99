// Debugger actions: the names used by the CLI (`--actions`), the model format and the UI; the
// moves of every face (an action, or reverse continue) and every name each face takes for them.

export const FORWARD_ACTIONS = ['step_into', 'step_over', 'step_return', 'continue'] as const;
export const INVERSE_ACTIONS = ['inv_step_into', 'inv_step_over', 'inv_step_call'] as const;

export type SimpleAction = (typeof FORWARD_ACTIONS)[number] | (typeof INVERSE_ACTIONS)[number];

export type Action = { kind: SimpleAction } | { kind: 'breakpoint'; line: number };

export type ActionKind = Action['kind'];

export function isInverse(action: Action): boolean {
  return (INVERSE_ACTIONS as readonly string[]).includes(action.kind);
}

export class ActionSyntaxError extends Error {}

export function parseAction(text: string): Action {
  const t = text.trim();
  const bp = /^breakpoint[: ](\d+)$/.exec(t);
  if (bp) return { kind: 'breakpoint', line: Number(bp[1]) };
  if ((FORWARD_ACTIONS as readonly string[]).includes(t) || (INVERSE_ACTIONS as readonly string[]).includes(t)) {
    return { kind: t as SimpleAction };
  }
  throw new ActionSyntaxError(
    `unknown action '${t}': expected one of ${[...FORWARD_ACTIONS, 'breakpoint:LINE', ...INVERSE_ACTIONS].join(', ')}`,
  );
}

export function formatAction(action: Action): string {
  return action.kind === 'breakpoint' ? `breakpoint:${action.line}` : action.kind;
}

/** Reverse continue (gdb's `reverse-continue`): back to the previous stop on a breakpoint, else the
 * first event. A move over the recording, not one of the model's actions. */
export const INV_CONTINUE = { kind: 'inv_continue' } as const;

/** A move of the debugger: one of the model's actions, or reverse continue. */
export type Move = Action | typeof INV_CONTINUE;

/** pdb's `until [LINE]` (bdb's set_until, core/navigator.ts): on to the first line or exception of
 * this frame at line `target` of its file (default: the line after the current one) or past it, or
 * to this frame's return (a generator's returns ignored), a breakpoint stopping it anywhere on the
 * way; exception stops come first as in the other forward moves. At a return (or before the start)
 * it steps on into the caller, as step_over does. No model action: where it stops where step_over
 * would, the model follows it as step_over (followedAction). */
export interface Until {
  kind: 'until';
  target?: number;
}

export type MoveKind = SimpleAction | typeof INV_CONTINUE.kind;

/** The names of a move: ndb's own (`kind`), the prompt's (pdb's, gdb's for the moves back; the
 * short form first, the command's full name last), and what else an agent, an editor or a person
 * may call it. */
export interface MoveNames {
  kind: MoveKind;
  prompt: readonly string[];
  aliases: readonly string[];
}

/** Every name of every move, one table for every face (the prompt, `ndb debug --actions` and
 * `--batch`, MCP's tools, the app's toolbar), in the toolbar's order. The prompt takes only its
 * own names: any other word there is Python (a variable called `back` is printed, not a move). */
export const MOVE_NAMES: readonly MoveNames[] = [
  { kind: 'step_into', prompt: ['s', 'step'], aliases: ['step_in'] },
  { kind: 'step_over', prompt: ['n', 'next'], aliases: ['over'] },
  { kind: 'step_return', prompt: ['r', 'return'], aliases: ['step_out', 'finish'] },
  { kind: 'continue', prompt: ['c', 'cont', 'continue'], aliases: [] },
  { kind: 'inv_step_into', prompt: ['rs', 'reverse-step'], aliases: ['step_back', 'back', 'reverse_step'] },
  { kind: 'inv_step_over', prompt: ['rn', 'reverse-next'], aliases: ['step_back_over'] },
  { kind: 'inv_step_call', prompt: ['rf', 'reverse-finish'], aliases: ['back_to_call'] },
  { kind: 'inv_continue', prompt: ['rc', 'reverse-continue'], aliases: ['reverse_continue'] },
];

/** The moves, in the toolbar's order. */
export const MOVE_KINDS: readonly MoveKind[] = MOVE_NAMES.map((m) => m.kind);

/** Every other name of a move (the prompt's and the aliases), to the move's own name. */
export const MOVE_ALIASES: Readonly<Record<string, MoveKind>> = Object.fromEntries(
  MOVE_NAMES.flatMap((m) => [...m.prompt, ...m.aliases].filter((name) => name !== m.kind).map((name) => [name, m.kind])),
);

/** The names of one move. */
export function moveNames(kind: MoveKind): MoveNames {
  return MOVE_NAMES.find((m) => m.kind === kind)!;
}

/** The moves as a message lists them. */
export const MOVES_LISTED = [...FORWARD_ACTIONS, 'breakpoint:LINE', ...INVERSE_ACTIONS, INV_CONTINUE.kind];

/** A move by any of its names (MOVE_NAMES), or `breakpoint:LINE` (also `breakpoint LINE`). */
export function parseMove(text: string): Move {
  const t = text.trim();
  const bp = /^breakpoint[: ]\s*(\d+)$/.exec(t);
  if (bp) return { kind: 'breakpoint', line: Number(bp[1]) };
  const kind = (MOVE_KINDS as readonly string[]).includes(t) ? (t as MoveKind) : Object.hasOwn(MOVE_ALIASES, t) ? MOVE_ALIASES[t]! : undefined;
  if (kind === undefined) throw new ActionSyntaxError(`unknown action '${t}': expected one of ${MOVES_LISTED.join(', ')}`);
  return kind === INV_CONTINUE.kind ? INV_CONTINUE : { kind };
}

/** One of the model's actions by any of its names (reverse continue is none). */
export function parseActionName(text: string): Action {
  const move = parseMove(text);
  if (move.kind === INV_CONTINUE.kind) throw new ActionSyntaxError(`'${text.trim()}' is no action the model makes: expected one of ${[...FORWARD_ACTIONS, 'breakpoint:LINE', ...INVERSE_ACTIONS].join(', ')}`);
  return move;
}

/** What-if: `set:NAME=EXPR` assigns a local at the current stop (a CLI step, not a navigation). */
export interface SetLocal {
  kind: 'set';
  name: string;
  expr: string;
}

/** One item of `--actions`: a debugger action or an edit. */
export type Step = Action | SetLocal;

/** One item of a face's list of moves (`--actions`, `--batch`, MCP's step): a move or an edit. */
export type MoveStep = Move | SetLocal;

export function parseStep(text: string): Step {
  const t = text.trim();
  if (!t.startsWith('set:')) return parseAction(t);
  const m = /^set:\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)$/s.exec(t);
  if (!m || m[2]!.trim() === '') throw new ActionSyntaxError(`bad edit '${t}': expected set:NAME=EXPR, e.g. set:total=100`);
  return { kind: 'set', name: m[1]!, expr: m[2]!.trim() };
}

export function formatStep(step: Step): string {
  return step.kind === 'set' ? `set:${step.name}=${step.expr}` : formatAction(step);
}

/** A move by any of its names, or a `set:NAME=EXPR` edit. */
export function parseMoveStep(text: string): MoveStep {
  return text.trim().startsWith('set:') ? parseStep(text) : parseMove(text);
}

export function formatMoveStep(step: MoveStep): string {
  return step.kind === INV_CONTINUE.kind ? step.kind : formatStep(step);
}

/** Splits a comma-separated list at the commas that are not inside brackets or string literals,
 * so that `set:xs=[1, 2],step_over` is two items. */
export function splitList(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items.map((s) => s.trim()).filter((s) => s.length > 0);
}

export function parseActionList(text: string): Action[] {
  return splitList(text).map(parseAction);
}

export function parseStepList(text: string): Step[] {
  return splitList(text).map(parseStep);
}

/** `--actions` of `ndb debug`: moves by any of their names and edits, split as splitList does. */
export function parseMoveStepList(text: string): MoveStep[] {
  return splitList(text).map(parseMoveStep);
}
