// The one table of every face's names for the moves: each name means one move, the prompt's
// names are its own, and every face's parser reads them from it.

import { describe, expect, it } from 'vitest';
import {
  ActionSyntaxError,
  FORWARD_ACTIONS,
  INVERSE_ACTIONS,
  MOVE_ALIASES,
  MOVE_KINDS,
  MOVE_NAMES,
  moveNames,
  parseActionName,
  parseMove,
  parseMoveStepList,
} from './actions';

describe('the names of the moves', () => {
  it('has one row per move, the model actions and reverse continue, in the toolbar order', () => {
    expect(MOVE_KINDS).toEqual([...FORWARD_ACTIONS, ...INVERSE_ACTIONS, 'inv_continue']);
  });

  it('gives no name two moves', () => {
    const names = MOVE_NAMES.flatMap((m) => [m.kind, ...m.prompt, ...m.aliases].filter((n, i, all) => all.indexOf(n) === i));
    expect(names.length).toBe(new Set(names).size);
    // the table's own names are no aliases
    for (const kind of MOVE_KINDS) expect(Object.hasOwn(MOVE_ALIASES, kind), kind).toBe(false);
  });

  it("reads every move by each of its names: its own, the prompt's, pdb's, DAP's, an agent's", () => {
    for (const m of MOVE_NAMES) {
      for (const name of [m.kind, ...m.prompt, ...m.aliases]) expect(parseMove(` ${name} `), name).toEqual({ kind: m.kind });
    }
    expect(parseMove('next')).toEqual({ kind: 'step_over' });
    expect(parseMove('step_out')).toEqual({ kind: 'step_return' });
    expect(parseMove('rc')).toEqual({ kind: 'inv_continue' });
    expect(parseMove('breakpoint 12')).toEqual({ kind: 'breakpoint', line: 12 });
    expect(parseMove('breakpoint: 12')).toEqual({ kind: 'breakpoint', line: 12 });
    expect(moveNames('inv_step_call').prompt).toEqual(['rf', 'reverse-finish']);
  });

  it('refuses what is no move, and reverse continue where a model action is asked', () => {
    expect(() => parseMove('jump')).toThrow(ActionSyntaxError);
    expect(() => parseMove('toString')).toThrow(/unknown action 'toString'/);
    expect(() => parseActionName('reverse_continue')).toThrow(/no action the model makes/);
    expect(parseActionName('back')).toEqual({ kind: 'inv_step_into' });
  });

  it('splits a list of moves and edits where `--actions` does, commas inside values kept', () => {
    expect(parseMoveStepList('c, set:xs=[1, 2],back,inv_continue')).toEqual([
      { kind: 'continue' },
      { kind: 'set', name: 'xs', expr: '[1, 2]' },
      { kind: 'inv_step_into' },
      { kind: 'inv_continue' },
    ]);
  });
});
