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

export function parseActionList(text: string): Action[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map(parseAction);
}
