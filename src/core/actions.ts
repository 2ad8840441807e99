// Debugger actions: the names used by the CLI (`--actions`), the model format and the UI.

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

/** What-if: `set:NAME=EXPR` assigns a local at the current stop (a CLI step, not a navigation). */
export interface SetLocal {
  kind: 'set';
  name: string;
  expr: string;
}

/** One item of `--actions`: a debugger action or an edit. */
export type Step = Action | SetLocal;

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
