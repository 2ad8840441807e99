// What the constraints refuse and what they fix, on a small program (the real states of many
// programs are checked in src/realEngine/constraintsOracle.test.ts).
import { describe, expect, it } from 'vitest';
import { TOKENS } from './stateGrammar';
import { stateConstraints } from './stateConstraints';
import { checkStatePrefix, sourceNames, StatePrefixChecker, stateLimits } from './stateGuard';

const SOURCE = 'def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n';
const SHAPE = { lines: [1, 2, 3, 4, 5], calls: [0, 1] };
const names = sourceNames(SOURCE);
const limits = stateLimits(names, { xs: '[1]', s: '0' });
const forward = stateConstraints({ kind: 'step_into' }, [], SOURCE, SHAPE, names);

describe('stateConstraints', () => {
  it('accepts a state of the program', () => {
    expect(checkStatePrefix(`${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}{"x":"1","..":".."}${TOKENS.actionSep}`, limits, forward)).toEqual({ ok: true, ended: true });
  });

  it('refuses what the action, the program or its lines rule out', () => {
    const refused = (text: string, c = forward) => checkStatePrefix(text, limits, c);
    expect(refused(TOKENS.invLineSep)).toMatchObject({ ok: false, reason: expect.stringMatching(/cannot follow this action/) });
    expect(refused(`${TOKENS.lineSep}7`)).toMatchObject({ ok: false, reason: expect.stringMatching(/no line this state can be at begins with 7/) });
    expect(refused(`${TOKENS.callSep}2`)).toMatchObject({ ok: false, reason: expect.stringMatching(/no line this state can be at begins with 2/) });
    const far = stateConstraints({ kind: 'step_into' }, [], SOURCE, { lines: [12], calls: [0] }, names);
    expect(refused(`${TOKENS.lineSep}1${TOKENS.srcSep}`, far)).toMatchObject({ ok: false, reason: expect.stringMatching(/line 1 is not a line/) });
    expect(refused(`${TOKENS.lineSep}4${TOKENS.srcSep}s -`)).toMatchObject({ ok: false, reason: expect.stringMatching(/not line 4's/) });
    expect(refused(`${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}{"y`)).toMatchObject({ ok: false, reason: expect.stringMatching(/no name of the program left begins with "y"/) });
    const line = `${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}`;
    expect(refused(`${line}{"x":"1","x"`)).toMatchObject({ ok: false });
    expect(refused(`${line}{"for"`)).toMatchObject({ ok: false });
    expect(refused(`${line}{"x" :`)).toMatchObject({ ok: false, reason: expect.stringMatching(/whitespace/) });
    expect(refused(`${line}{"x":"<|x`)).toMatchObject({ ok: false, reason: expect.stringMatching(/not escaped/) });
    expect(refused(`${line}{"x":"<||x"${TOKENS.actionSep}`)).toMatchObject({ ok: false });
    expect(refused(`${line}{"x":"<||x"}${TOKENS.actionSep}`)).toEqual({ ok: true, ended: true });
    expect(refused(`${TOKENS.callSep}1${TOKENS.srcSep}def f(xs):${TOKENS.argSep}{".."`)).toMatchObject({ ok: false });
    expect(refused(`${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}{"xs2":`)).toMatchObject({ ok: false });
    const jump = stateConstraints({ kind: 'breakpoint', line: 4 }, [2], SOURCE, SHAPE, names);
    expect(refused(`${TOKENS.lineSep}3`, jump)).toMatchObject({ ok: false });
    // continue with no breakpoints runs to the end: only an exit can follow
    const run = stateConstraints({ kind: 'continue' }, [], SOURCE, SHAPE, names);
    expect(refused(TOKENS.lineSep, run)).toMatchObject({ ok: false });
    expect(refused(`${TOKENS.exitNormal}${TOKENS.actionSep}`, run)).toEqual({ ok: true, ended: true });
    expect(refused(TOKENS.returnSep, jump)).toMatchObject({ ok: false });
  });

  it('says what the program fixes: the source text after a line number, the whole line of a jump', () => {
    const checker = new StatePrefixChecker(limits, forward);
    expect(checker.forced()).toBe('');
    checker.push(`${TOKENS.lineSep}4`);
    // no other line of the program begins with 4: the number is complete
    expect(checker.forced()).toBe(`${TOKENS.srcSep}s += x${TOKENS.argSep}`);
    checker.push(TOKENS.srcSep);
    expect(checker.forced()).toBe(`s += x${TOKENS.argSep}`);
    const longer = new StatePrefixChecker(limits, stateConstraints({ kind: 'step_into' }, [], SOURCE, { lines: [1, 2, 3, 4, 5, 12], calls: [0, 1] }, names));
    longer.push(`${TOKENS.lineSep}1`);
    expect(longer.forced()).toBe('');
    const ret = new StatePrefixChecker(limits, forward);
    ret.push(`${TOKENS.returnSep}5${TOKENS.srcSep}`);
    expect(ret.forced()).toBe('return s');
    const jump = new StatePrefixChecker(limits, stateConstraints({ kind: 'breakpoint', line: 4 }, [], SOURCE, SHAPE, names));
    jump.push(TOKENS.lineSep);
    expect(jump.forced()).toBe(`4${TOKENS.srcSep}s += x${TOKENS.argSep}`);
  });

  it('tells the parts of a state apart, and a clone goes its own way', () => {
    const checker = new StatePrefixChecker(limits, forward);
    expect(checker.part()).toBe('position');
    checker.push(`${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}{"x":"1`);
    expect(checker.part()).toEqual({ entry: 0 });
    const copy = checker.clone();
    copy.push('","s":"2"}');
    expect(copy.keys).toEqual(['x', 's']);
    expect(checker.keys).toEqual(['x']);
    copy.push(TOKENS.actionSep);
    expect(copy.part()).toBe('end');
    expect(checker.part()).toEqual({ entry: 0 });
  });

  it('closes a state that runs long into a readable one', () => {
    for (const head of [`{"x":"[1, 2`, `{"x":"1","`, `{"x":"1","s`, `{"x`, `{`, `{"x":`, `{"x":"1"`, `{"x":"a\\`]) {
      const checker = new StatePrefixChecker(limits, forward);
      checker.push(`${TOKENS.lineSep}4${TOKENS.srcSep}s += x${TOKENS.argSep}${head}`);
      const closing = checker.closing();
      expect(closing, head).not.toBeNull();
      expect(checker.push(closing!), head).toEqual({ ok: true, ended: true });
    }
    const value = new StatePrefixChecker(limits, forward);
    value.push(`${TOKENS.returnSep}5${TOKENS.srcSep}return s${TOKENS.valueSep}[1, 2`);
    expect(value.closing()).toBe(TOKENS.actionSep);
  });
});
