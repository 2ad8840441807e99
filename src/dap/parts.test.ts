// The adapter's pure parts: launch arguments, breakpoint checks, frames, the Predicted scope, the
// program's output over a recording that is navigated both ways.

import { describe, expect, it } from 'vitest';
import type { Recording, TraceEvent } from '../core/trace';
import { checkBreakpoints, parseHitCondition } from './breakpoints';
import { framesAt, functionAtLine } from './frames';
import { LaunchArgsError, parseLaunchArgs } from './launchArgs';
import { ProgramOutput } from './output';
import { predictedRows } from './predicted';

describe('parseLaunchArgs', () => {
  it('fills the defaults and checks each argument', () => {
    expect(parseLaunchArgs({ program: 'a.py' })).toEqual({ program: 'a.py', args: [], call: '', engine: 'real', stopOnEntry: false });
    expect(parseLaunchArgs({ program: 'a.py', call: ' f(1) ', engine: 'both', stopOnEntry: true, model: 'm', args: ['-v', 'x'] })).toEqual({
      program: 'a.py',
      args: ['-v', 'x'],
      call: 'f(1)',
      engine: 'both',
      stopOnEntry: true,
      model: 'm',
    });
    expect(() => parseLaunchArgs({})).toThrow(LaunchArgsError);
    expect(() => parseLaunchArgs({ program: 'a.py', engine: 'x' })).toThrow(/"engine" must be one of real, neural, both/);
    expect(() => parseLaunchArgs({ program: 'a.py', call: 3 })).toThrow(/"call" must be a string/);
    expect(() => parseLaunchArgs({ program: 'a.py', stopOnEntry: 'yes' })).toThrow(/stopOnEntry/);
    expect(() => parseLaunchArgs({ program: 'a.py', args: 'x' })).toThrow(/"args" must be a list of strings/);
  });

  it('takes a budget of events and seconds within the servers\' ceiling (issue 47)', () => {
    expect(parseLaunchArgs({ program: 'a.py', maxEvents: 50_000, timeout: 20 })).toMatchObject({ maxEvents: 50_000, timeout: 20 });
    expect(() => parseLaunchArgs({ program: 'a.py', maxEvents: 10 })).toThrow(/"maxEvents" must be a whole number from 100 to 1000000/);
    expect(() => parseLaunchArgs({ program: 'a.py', maxEvents: 1.5e6 })).toThrow(/maxEvents/);
    expect(() => parseLaunchArgs({ program: 'a.py', timeout: 60 })).toThrow(/"timeout" must be a number of seconds from 0.5 to 45/);
    expect(() => parseLaunchArgs({ program: 'a.py', timeout: '5' })).toThrow(/timeout/);
  });
});

describe('breakpoints', () => {
  it('reads hit counts as bdb ignore counts', () => {
    expect(parseHitCondition('3')).toBe(3);
    expect(parseHitCondition('>= 3')).toBe(3);
    expect(parseHitCondition('>2')).toBe(3);
    expect(parseHitCondition('== 2')).toEqual({ error: expect.stringMatching(/not understood/) });
    expect(parseHitCondition('0')).toEqual({ error: expect.stringMatching(/starts at 1/) });
  });

  it('verifies lines with code, conditions that parse and hit counts', async () => {
    let id = 10;
    const checked = await checkBreakpoints(
      [{ line: 2 }, { line: 3 }, { line: 2, condition: 'x >' }, { line: 4, condition: 'x > 1', hitCondition: '2' }, { line: 4, hitCondition: '%2' }],
      { codeLines: new Set([2, 4]), expressionError: async (e) => (e.endsWith('>') ? 'SyntaxError: invalid syntax' : null), nextId: () => id++ },
    );
    expect(checked).toEqual([
      { id: 10, line: 2, verified: true },
      { id: 11, line: 3, verified: false, message: 'no code on line 3: the program can never stop there' },
      { id: 12, line: 2, verified: false, message: 'the condition `x >` is not a Python expression: SyntaxError: invalid syntax' },
      { id: 13, line: 4, verified: true, spec: { condition: 'x > 1', hitCount: 2 } },
      { id: 14, line: 4, verified: false, message: expect.stringMatching(/hit count '%2'/) },
    ]);
    const broken = await checkBreakpoints([{ line: 1 }], { codeLines: { error: 'SyntaxError: bad' }, expressionError: async () => null, nextId: () => 1 });
    expect(broken[0]).toMatchObject({ verified: false, message: 'the program does not compile: SyntaxError: bad' });
  });
});

function event(e: Partial<TraceEvent> & Pick<TraceEvent, 'event' | 'line' | 'function' | 'depth' | 'frame'>): TraceEvent {
  return { parent: -1, code: 0, locals: {}, out: 0, ...e };
}

describe('frames', () => {
  const rec: Recording = {
    source: '',
    call: 'g()',
    codes: [],
    stdout: '',
    exit: { status: 'normal' },
    events: [
      event({ event: 'call', line: 5, function: 'g', depth: 0, frame: 0 }),
      event({ event: 'line', line: 6, function: 'g', depth: 0, frame: 0 }),
      event({ event: 'call', line: 1, function: 'f', depth: 1, frame: 1, parent: 0 }),
      event({ event: 'line', line: 2, function: 'f', depth: 1, frame: 1, parent: 0 }),
      event({ event: 'return', line: 2, function: 'f', depth: 1, frame: 1, parent: 0 }),
      event({ event: 'line', line: 7, function: 'g', depth: 0, frame: 0 }),
    ],
  };

  it('lists the stack innermost first, each frame at its latest event', () => {
    expect(framesAt(rec, 3).map((f) => [f.id, f.name, f.line, f.event])).toEqual([
      [2, 'f', 2, 3],
      [1, 'g', 6, 1],
    ]);
    expect(framesAt(rec, 5).map((f) => [f.name, f.line])).toEqual([['g', 7]]);
    expect(framesAt(rec, -1)).toEqual([]);
  });

  it("names the function a predicted line is in from the source's indentation", () => {
    const source = ['class A:', '    def m(self):', '        x = 1', '', '        return x', '', 'def f(n):', '    if n:', '        n -= 1', '    return n', 'y = 2'].join('\n');
    expect(functionAtLine(source, 3)).toBe('m');
    expect(functionAtLine(source, 5)).toBe('m');
    expect(functionAtLine(source, 7)).toBe('f');
    expect(functionAtLine(source, 9)).toBe('f');
    expect(functionAtLine(source, 11)).toBe('<module>');
  });
});

describe('predictedRows', () => {
  const real = { event: 'line' as const, line: 4, function: 'f', depth: 0, locals: { s: '3', x: '2' }, stdout: '' };

  it('marks each predicted field against the real state', () => {
    const rows = predictedRows(real, { event: 'line', inverse: false, line: 4, src: '', locals: { s: '3', x: '1', y: '0' } }, { match: false, fields: { event: true, line: true, locals: false } });
    expect(rows).toEqual([
      { name: 'match', value: '✗ see the fields below' },
      { name: 'event', value: 'line ✓' },
      { name: 'line', value: '4 ✓' },
      { name: 's', value: '3 ✓' },
      { name: 'x', value: '1 ✗ (real: 2)' },
      { name: 'y', value: '0 ✗ (real: not a local)' },
    ]);
  });

  it('shows a wrong line, a return value, a missing local and an unreadable output', () => {
    const ret = { event: 'return' as const, line: 5, function: 'f', depth: 0, locals: {}, value: '6', stdout: '' };
    expect(predictedRows(ret, { event: 'return', inverse: false, line: 3, src: '', value: '6' }, { match: false, fields: { event: true, line: false, value: true } })).toEqual([
      { name: 'match', value: '✗ see the fields below' },
      { name: 'event', value: 'return ✓' },
      { name: 'line', value: '3 ✗ (real: 5)' },
      { name: '(return)', value: '6 ✓' },
    ]);
    expect(predictedRows(real, { event: 'line', inverse: false, line: 4, src: '', locals: { s: '3' } }, { match: false, fields: {} }).pop()).toEqual({
      name: 'x',
      value: '(not predicted) ✗ (real: 2)',
    });
    expect(predictedRows(real, { unparseable: 'no event token' }, { match: false, fields: { event: false } })[1]).toEqual({
      name: 'unreadable',
      value: "✗ the model's output is no state: no event token",
    });
  });
});

describe('ProgramOutput', () => {
  it('sends each printed text once, nothing when stepping back, and an edited run from where it differs', () => {
    const out = new ProgramOutput();
    expect(out.at('')).toEqual([]);
    expect(out.at('a\n')).toEqual([{ category: 'stdout', text: 'a\n' }]);
    expect(out.at('a\nb\n')).toEqual([{ category: 'stdout', text: 'b\n' }]);
    expect(out.at('a\n')).toEqual([]);
    expect(out.at('a\nb\n')).toEqual([]);
    expect(out.at('a\nc\n')).toEqual([
      { category: 'console', text: '[the edited run prints from here on:]\n' },
      { category: 'stdout', text: 'c\n' },
    ]);
  });
});
