import { describe, expect, it } from 'vitest';
import { compareStates, diffLocals, explainLocals, reachedBy } from './compare';
import { capValue, parseState } from './format';
import type { DebugState } from './state';

const real: DebugState = { event: 'line', line: 4, function: 'f', depth: 0, locals: { xs: '[1, 2]', s: '3' }, stdout: '' };

describe('compareStates', () => {
  it('matches a prediction that gets every field right', () => {
    const p = parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3"}');
    expect(compareStates(real, p, 'forward')).toEqual({ match: true, fields: { event: true, line: true, locals: true } });
  });

  it('marks the wrong field only', () => {
    const p = parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"s":"4","..":".."}', { xs: '[1, 2]', s: '3' });
    expect(compareStates(real, p, 'forward')).toEqual({ match: false, fields: { event: true, line: true, locals: false } });
  });

  it('scores return values and exits', () => {
    const ret: DebugState = { event: 'return', line: 5, function: 'f', depth: 0, locals: {}, value: '3', stdout: '' };
    expect(compareStates(ret, parseState('<|return_sep|>5<|src_sep|>return s<|value_sep|>3'), 'forward').match).toBe(true);
    expect(compareStates(ret, parseState('<|return_sep|>5<|src_sep|>return s<|value_sep|>4'), 'forward').fields.value).toBe(false);
    const exit: DebugState = { event: 'exit', status: 'normal', stdout: '' };
    expect(compareStates(exit, parseState('<|exit_normal|>'), 'forward').match).toBe(true);
    expect(compareStates(exit, parseState('<|exit_budget|>'), 'forward').match).toBe(false);
  });

  it('counts an unparseable prediction as a miss on every field', () => {
    const c = compareStates(real, parseState('<|line_sep|>x'), 'forward');
    expect(c.match).toBe(false);
    expect(c.unparseable).toBeTruthy();
    expect(c.fields).toEqual({ event: false, line: false, locals: false });
  });

  it('compares against the capped real value', () => {
    const long = 'x'.repeat(300);
    const r: DebugState = { event: 'return', line: 2, function: 'f', depth: 0, locals: {}, value: `'${long}'`, stdout: '' };
    const capped = `'${long}'`.slice(0, 120) + '\u2026';
    expect(compareStates(r, parseState(`<|return_sep|>2<|src_sep|>return s<|value_sep|>${capped}`), 'forward').match).toBe(true);
  });
});

describe('diffLocals and explainLocals', () => {
  it('name the wrong, the missing and the made-up variables', () => {
    const diff = diffLocals({ a: '1', b: '2', c: '3' }, { a: '1', b: '5', d: '0' });
    expect(diff).toEqual({ wrong: [{ name: 'b', predicted: '5', real: '2' }], missing: [{ name: 'c', real: '3' }], extra: [{ name: 'd', predicted: '0' }] });
    expect(explainLocals(diff)).toBe('Locals: b is 2, the model said 5; c (3) is missing; the model added d = 0.');
    expect(explainLocals(diffLocals({ a: '1' }, { a: '1' }))).toBe('');
  });

  it('compares values as the format caps them', () => {
    const long = 'x'.repeat(500);
    expect(diffLocals({ s: long }, { s: capValue(long) }).wrong).toEqual([]);
  });
});

describe('one measure of exactly right', () => {
  it('scores the direction of the step: an inverse state after a forward action is a wrong event, and the other way round', () => {
    const forward = parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3"}');
    const backward = parseState('<|inv_line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3"}');
    expect(compareStates(real, forward, reachedBy({ kind: 'step_into' })).match).toBe(true);
    expect(compareStates(real, backward, reachedBy({ kind: 'step_into' })).fields).toEqual({ event: false, line: true, locals: true });
    expect(compareStates(real, backward, reachedBy({ kind: 'inv_step_into' })).match).toBe(true);
    expect(compareStates(real, forward, reachedBy({ kind: 'inv_step_over' })).match).toBe(false);
  });
});
