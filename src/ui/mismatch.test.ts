// A mismatch is explained in words that name what is wrong.

import { describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { parseState, type ParseResult } from '../core/format';
import type { DebugState } from '../core/state';
import { explainMismatch, localsDiff, shorten, unreadableDetail } from './mismatch';

const real: DebugState = { event: 'line', line: 4, function: 'f', depth: 0, locals: { xs: '[1, 2]', s: '3', n: '2' }, stdout: '' };

function explain(state: ParseResult, r: DebugState = real, inverse = false, text = '') {
  const comparison = compareStates(r, state, inverse ? 'inverse' : 'forward');
  return explainMismatch({ state, real: r, comparison, text, inverse });
}

describe('explainMismatch', () => {
  it('names each wrong, missing and made-up variable', () => {
    const p = parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"4","k":"0"}');
    expect(explain(p)).toEqual(['Locals: s is 3, the model said 4; n (2) is missing; the model added k = 0.']);
    const diff = localsDiff({ state: p, real, comparison: compareStates(real, p, 'forward'), text: '', inverse: false });
    expect(diff).toEqual({ wrong: [{ name: 's', predicted: '4', real: '3' }], missing: [{ name: 'n', real: '2' }], extra: [{ name: 'k', predicted: '0' }] });
  });

  it('says "an exception", in the status line\'s words for a function left by one', () => {
    const exc: DebugState = { event: 'exception', line: 4, function: 'f', depth: 0, locals: real.event === 'line' ? real.locals : {}, value: "ValueError('x')", stdout: '' };
    const said = explain(parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3","n":"2"}'), exc);
    expect(said[0]).toBe('The model expected a line; Python stopped at an exception.');
  });

  it('says nothing when the prediction is right', () => {
    expect(explain(parseState('<|line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3","n":"2"}'))).toEqual([]);
  });

  it('names the line and the return value', () => {
    const ret: DebugState = { event: 'return', line: 5, function: 'f', depth: 0, locals: {}, value: '14', stdout: '' };
    expect(explain(parseState('<|return_sep|>6<|src_sep|>return s<|value_sep|>13'), ret)).toEqual([
      'The model said line 6; Python stopped at line 5.',
      'The return value is 14; the model said 13.',
    ]);
  });

  it('compares an inverse event as what it is: a state reached backwards after a forward step is wrong', () => {
    const p = parseState('<|inv_line_sep|>4<|src_sep|>s += x<|arg_sep|>{"xs":"[1, 2]","s":"3","n":"2"}');
    expect(compareStates(real, p, 'forward').fields.event).toBe(false);
    expect(compareStates(real, p, 'inverse').fields.event).toBe(true);
    expect(explain(p)).toEqual(['The model wrote the state as reached by a step back, but this step went forward.']);
    expect(explain(p, real, true)).toEqual([]);
  });

  it('says in plain words when the answer is not a state, never with its text', () => {
    const text = `<|line_sep|>x${'y'.repeat(300)}`;
    const state = parseState(text);
    expect(explain(state, real, false, text)).toEqual(["The model's answer was not a program state."]);
    const detail = unreadableDetail({ state, text });
    expect(detail).toMatch(/^The model's answer was not a program state \(the reader stopped: .+\)\.$/);
    expect(detail).not.toMatch(/xyy/);
    // a reason that quotes the text leaves the quote out
    const nonsense = `<|line_sep|>shababab<|src_sep|>x`;
    expect(unreadableDetail({ state: parseState(nonsense), text: nonsense })).not.toMatch(/shabab/);
    expect(unreadableDetail({ state: parseState('<|exit_normal|>'), text: '<|exit_normal|>' })).toBeNull();
  });

  it('names how a program ends in words, not status names', () => {
    const end: DebugState = { event: 'exit', status: 'budget', stdout: '' };
    const said = explain(parseState('<|exit_normal|>'), end);
    expect(said).toEqual(['The program ends here: a limit cuts it off; the model said it finishes.']);
    expect(said.join(' ')).not.toMatch(/budget|normal/);
  });
});

describe('shorten', () => {
  it('keeps short text and cuts long text on one line', () => {
    expect(shorten('a\n  b')).toBe('a b');
    expect(shorten('x'.repeat(10), 5)).toBe('xxxx…');
  });
});
