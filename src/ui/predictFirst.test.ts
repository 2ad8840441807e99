// Predict first: what is judged, what a blank guess counts (nothing), and that the entry and the
// exit are never scored.

import { describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { parseState } from '../core/format';
import type { DebugState } from '../core/state';
import { NO_GUESSES, revealOf, tallyGuess } from './predictFirst';

const real: DebugState = { event: 'line', line: 4, function: 'f', depth: 0, locals: { s: '3', n: '2' }, stdout: '' };
const step = { kind: 'step_over' } as const;

function model(text: string, r: DebugState = real) {
  const state = parseState(text);
  return { state, comparison: compareStates(r, state, 'forward') };
}

describe('Predict first', () => {
  it("judges the line and a value at the stop, and shows the model's guess for the same variable", () => {
    const guess = { line: 4, value: 's = 3' };
    const m = model('<|line_sep|>5<|src_sep|>x<|arg_sep|>{"s":"4","n":"2"}');
    const r = revealOf(step, guess, real, m);
    expect(r.learner).toEqual({ line: 4, value: 's = 3', lineOk: true, valueOk: true });
    expect(r.model).toEqual({ line: 5, value: 's = 4', lineOk: false, valueOk: false });
    expect(r.truth).toEqual({ line: 4, value: 's = 3, n = 2' });
    expect(r.scored).toBe(true);
  });

  it('does not count blank guesses, for the learner or for the model beside them', () => {
    const r = revealOf(step, { line: '', value: '  ' }, real, model('<|line_sep|>4<|src_sep|>x<|arg_sep|>{"s":"3","n":"2"}'));
    expect(r.learner.lineOk).toBeNull();
    expect(r.learner.valueOk).toBeNull();
    expect(tallyGuess(NO_GUESSES, r.learner, r.learner)).toEqual(NO_GUESSES);
    expect(tallyGuess(NO_GUESSES, r.learner, r.model!)).toEqual(NO_GUESSES);
    // A line without a value counts the line only.
    const lineOnly = revealOf(step, { line: '3', value: '' }, real, null);
    expect(tallyGuess(NO_GUESSES, lineOnly.learner, lineOnly.learner)).toEqual({ lines: 1, line: 0, values: 0, value: 0 });
  });

  it('scores nothing at the entry or the exit', () => {
    expect(revealOf({ kind: 'inv_step_into' }, { line: 1, value: '' }, { event: 'entry' }, null).scored).toBe(false);
    expect(revealOf(step, { line: 1, value: '' }, { event: 'exit', status: 'normal', stdout: '' }, null).scored).toBe(false);
  });

  it("says so when the model's answer was not a state", () => {
    const r = revealOf(step, { line: 4, value: '' }, real, model('<|line_sep|>zz'));
    expect(r.model?.value).toBe('not a program state');
    expect(r.model?.line).toBeNull();
  });

  it('marks the same value the same for the learner and the model: one comparison (issue 46)', () => {
    const marks: DebugState = { event: 'line', line: 3, function: '<module>', depth: 0, locals: { marks: '[12, 15, 9]', total: '0' }, stdout: '' };
    // the model has marks right and total wrong: its whole state is wrong, its marks are not
    const m = model('<|line_sep|>3<|src_sep|>x<|arg_sep|>{"marks":"[12, 15, 9]","total":"12"}', marks);
    expect(m.comparison.match).toBe(false);
    const named = revealOf(step, { line: 3, value: 'marks = [12, 15, 9]' }, marks, m);
    expect(named.learner.valueOk).toBe(true);
    expect(named.model).toMatchObject({ value: 'marks = [12, 15, 9]', valueOk: true });
    // a bare value asks about the variable that holds it: the model answers for that one
    const bare = revealOf(step, { line: 3, value: '[12, 15, 9]' }, marks, m);
    expect(bare.learner.valueOk).toBe(true);
    expect(bare.model).toMatchObject({ value: 'marks = [12, 15, 9]', valueOk: true });
    // wrong for both where both are wrong
    const wrong = revealOf(step, { line: 3, value: 'total = 12' }, marks, m);
    expect(wrong.learner.valueOk).toBe(false);
    expect(wrong.model).toMatchObject({ value: 'total = 12', valueOk: false });
    // a return value, guessed bare: the model's predicted value, by the same rule
    const ret: DebugState = { event: 'return', line: 5, function: 'f', depth: 1, locals: { s: '6' }, value: '6', stdout: '' };
    const r = revealOf(step, { line: 5, value: '6' }, ret, model('<|return_sep|>5<|src_sep|>x<|value_sep|>6', ret));
    expect(r.learner.valueOk).toBe(true);
    expect(r.model).toMatchObject({ value: '6', valueOk: true });
  });
});
