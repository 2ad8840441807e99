// Every action is named by its button, and every button has its key.

import { describe, expect, it } from 'vitest';
import { MOVE_KINDS } from '../core/actions';
import { COMMANDS, actionKindName, actionName, commandForKey, tooltip } from './commands';

const key = (k: string, mods: { shift?: boolean; ctrl?: boolean; alt?: boolean } = {}) => ({
  key: k,
  shiftKey: mods.shift ?? false,
  ctrlKey: mods.ctrl ?? false,
  altKey: mods.alt ?? false,
  metaKey: false,
});

describe('action names', () => {
  it('names each action by the button that asks for it', () => {
    expect(actionName({ kind: 'step_into' })).toBe('Step into');
    expect(actionName({ kind: 'step_over' })).toBe('Step over');
    expect(actionName({ kind: 'step_return' })).toBe('Step out');
    expect(actionName({ kind: 'continue' })).toBe('Continue');
    expect(actionName({ kind: 'inv_step_into' })).toBe('Step back');
    expect(actionName({ kind: 'inv_step_over' })).toBe('Step back over');
    expect(actionName({ kind: 'inv_step_call' })).toBe('Back to call');
    expect(actionName({ kind: 'restart' })).toBe('Restart');
    expect(actionName({ kind: 'breakpoint', line: 5 })).toBe('Run to line 5');
  });

  it('names the score table rows the same way', () => {
    expect(actionKindName('step_return')).toBe('Step out');
    expect(actionKindName('inv_step_call')).toBe('Back to call');
    expect(actionKindName('breakpoint')).toBe('Run to line');
  });
});

describe('the toolbar', () => {
  it('has a button for every move of the one table of moves (core/actions.ts), in its order, then Restart', () => {
    expect(COMMANDS.map((c) => c.command.kind)).toEqual([...MOVE_KINDS, 'restart']);
  });
});

describe('keys', () => {
  it('gives every button but Restart a key, named in its tooltip', () => {
    for (const spec of COMMANDS.filter((c) => c.command.kind !== 'restart')) {
      expect(spec.keyLabel, spec.label).toBeTruthy();
      expect(tooltip(spec)).toContain(`(${spec.keyLabel})`);
    }
  });

  it('answers the keys a VS Code user knows, and Ctrl with them to go back', () => {
    expect(commandForKey(key('F11'))?.label).toBe('Step into');
    expect(commandForKey(key('F10'))?.label).toBe('Step over');
    expect(commandForKey(key('F11', { shift: true }))?.label).toBe('Step out');
    expect(commandForKey(key('F5'))?.label).toBe('Continue');
    expect(commandForKey(key('F11', { ctrl: true }))?.label).toBe('Step back');
    expect(commandForKey(key('F10', { ctrl: true }))?.label).toBe('Step back over');
    expect(commandForKey(key('F11', { ctrl: true, shift: true }))?.label).toBe('Back to call');
    expect(commandForKey(key('F11', { alt: true }))).toBeUndefined();
    expect(commandForKey(key('F5', { ctrl: true }))?.label).toBe('Reverse continue');
    expect(commandForKey(key('F5', { ctrl: true, shift: true }))).toBeUndefined();
  });

  it('gives no two buttons the same key', () => {
    const keys = COMMANDS.filter((c) => c.key).map((c) => `${c.ctrl ? 'C' : ''}${c.shift ? 'S' : ''}${c.key}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
