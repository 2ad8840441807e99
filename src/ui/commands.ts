// The debugger's buttons and keys: one table for the toolbar, the keyboard, the tooltips and every
// place that names an action (the Prediction panel says "After Step out", never `step_return`).

import type { Action } from '../core/actions';
import type { Command } from './debuggerCommands';

export interface CommandSpec {
  /** The button's accessible name. */
  label: string;
  /** A short visible label where room is scarce (an embed's one-row toolbar); the accessible
   * name stays `label`. */
  short: string;
  command: Command;
  /** A key as KeyboardEvent.key, with Shift and Ctrl when set. */
  key?: string;
  shift?: boolean;
  ctrl?: boolean;
  /** Shown in the tooltip and in aria-keyshortcuts. */
  keyLabel?: string;
  icon: string;
  help: string;
  group: 'forward' | 'backward' | 'run';
}

// Forward keys are VS Code's. Going back is Ctrl with the key of the forward move it undoes:
// Ctrl+F11 undoes Step into, Ctrl+F10 Step over, Ctrl+Shift+F11 Step out (back to the call), Ctrl+F5
// Continue (reverse continue, back to the previous breakpoint stop).
export const COMMANDS: readonly CommandSpec[] = [
  { label: 'Step into', short: 'Into', command: { kind: 'step_into' }, key: 'F11', keyLabel: 'F11', icon: '↓', help: 'Go to the very next event, into calls', group: 'forward' },
  { label: 'Step over', short: 'Over', command: { kind: 'step_over' }, key: 'F10', keyLabel: 'F10', icon: '↷', help: 'Go to the next line of this function, over calls', group: 'forward' },
  { label: 'Step out', short: 'Out', command: { kind: 'step_return' }, key: 'F11', shift: true, keyLabel: 'Shift+F11', icon: '↑', help: 'Run until this function returns', group: 'forward' },
  { label: 'Continue', short: 'Continue', command: { kind: 'continue' }, key: 'F5', keyLabel: 'F5', icon: '▶', help: 'Run to the next breakpoint, or to the end', group: 'forward' },
  { label: 'Step back', short: 'Back', command: { kind: 'inv_step_into' }, key: 'F11', ctrl: true, keyLabel: 'Ctrl+F11', icon: '↶', help: 'Go back one event', group: 'backward' },
  { label: 'Step back over', short: 'Back over', command: { kind: 'inv_step_over' }, key: 'F10', ctrl: true, keyLabel: 'Ctrl+F10', icon: '⤺', help: 'Go back to the previous line of this function, over calls', group: 'backward' },
  { label: 'Back to call', short: 'To call', command: { kind: 'inv_step_call' }, key: 'F11', ctrl: true, shift: true, keyLabel: 'Ctrl+Shift+F11', icon: '⇤', help: 'Go back to where this function was called: with which arguments?', group: 'backward' },
  { label: 'Reverse continue', short: 'Reverse', command: { kind: 'inv_continue' }, key: 'F5', ctrl: true, keyLabel: 'Ctrl+F5', icon: '◀', help: 'Go back to the previous stop at a breakpoint, or to the start', group: 'backward' },
  { label: 'Restart', short: 'Restart', command: { kind: 'restart' }, icon: '⟲', help: 'Run the program again from the start', group: 'run' },
];

/** The command a key press asks for, if any. */
export function commandForKey(ev: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>): CommandSpec | undefined {
  if (ev.altKey || ev.metaKey) return undefined;
  return COMMANDS.find((c) => c.key === ev.key && Boolean(c.shift) === ev.shiftKey && Boolean(c.ctrl) === ev.ctrlKey);
}

/** The tooltip of a button: what it does and its key. */
export function tooltip(spec: CommandSpec): string {
  return spec.keyLabel ? `${spec.help} (${spec.keyLabel})` : spec.help;
}

/** An action as the user knows it: the name of the button that asks for it ("Run to line 5" for
 * the editor's Run to line). */
export function actionName(action: Action | Command): string {
  if (action.kind === 'breakpoint') return `Run to line ${action.line}`;
  return actionKindName(action.kind);
}

/** A kind of action (`step_return`, the score table's rows) by its button's name. */
export function actionKindName(kind: string): string {
  if (kind === 'breakpoint') return 'Run to line';
  return COMMANDS.find((c) => c.command.kind === kind)?.label ?? kind;
}
