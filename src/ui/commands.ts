// The debugger's buttons and keys: one table for the toolbar and the keyboard.

import type { Command } from './debugger.svelte';

export interface CommandSpec {
  /** The button's accessible name. */
  label: string;
  command: Command;
  /** A key as KeyboardEvent.key, with Shift when `shift` is set. */
  key?: string;
  shift?: boolean;
  /** Shown in the tooltip and in aria-keyshortcuts. */
  keyLabel?: string;
  icon: string;
  help: string;
  group: 'forward' | 'backward' | 'run';
}

export const COMMANDS: readonly CommandSpec[] = [
  { label: 'Step into', command: { kind: 'step_into' }, key: 'F11', keyLabel: 'F11', icon: '↓', help: 'Go to the very next event, into calls', group: 'forward' },
  { label: 'Step over', command: { kind: 'step_over' }, key: 'F10', keyLabel: 'F10', icon: '↷', help: 'Go to the next line of this function, over calls', group: 'forward' },
  { label: 'Step out', command: { kind: 'step_return' }, key: 'F11', shift: true, keyLabel: 'Shift+F11', icon: '↑', help: 'Run until this function returns', group: 'forward' },
  { label: 'Continue', command: { kind: 'continue' }, key: 'F5', keyLabel: 'F5', icon: '▶', help: 'Run to the next breakpoint, or to the end', group: 'forward' },
  { label: 'Step back', command: { kind: 'inv_step_into' }, icon: '↶', help: 'Go back one event', group: 'backward' },
  { label: 'Step back over', command: { kind: 'inv_step_over' }, icon: '⤺', help: 'Go back to the previous line of this function, over calls', group: 'backward' },
  { label: 'Back to call', command: { kind: 'inv_step_call' }, icon: '⇤', help: 'Go back to where this function was called: with which arguments?', group: 'backward' },
  { label: 'Restart', command: { kind: 'restart' }, icon: '⟲', help: 'Run the program again from the start', group: 'run' },
];

/** The command a key press asks for, if any. */
export function commandForKey(ev: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>): CommandSpec | undefined {
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return undefined;
  return COMMANDS.find((c) => c.key === ev.key && Boolean(c.shift) === ev.shiftKey);
}
