import { describe, expect, it } from 'vitest';
import type { ParseResult } from './format';
import type { Recording, TraceEvent } from './trace';
import { buildCall, guessedCallMaker, parameters } from './callBuilder';

describe('parameters and buildCall', () => {
  it('reads the def line: positional, *args, keyword-only, **kwargs, defaults and annotations', () => {
    const source = 'def f(a, b: list[int] = [1, 2], *rest, key=None, **opts) -> int:\n    return a\n';
    expect(parameters(source, 1, [])).toEqual([
      { name: 'a', kind: 'positional' },
      { name: 'b', kind: 'positional' },
      { name: 'rest', kind: 'star' },
      { name: 'key', kind: 'keyword' },
      { name: 'opts', kind: 'starstar' },
    ]);
    const params = parameters(source, 1, []);
    expect(buildCall('f', params, { a: '1', b: '[3]', rest: '(4, 5)', key: "'k'", opts: '{}' })).toBe("f(1, [3], *(4, 5), key='k', **{})");
    expect(buildCall('f', params, { a: '1' })).toBeNull();
  });

  it('calls a method through its object, over lines', () => {
    const source = 'class Box:\n    def add(\n        self,\n        n,\n    ):\n        return n\n';
    const params = parameters(source, 2, []);
    expect(params.map((p) => p.name)).toEqual(['self', 'n']);
    expect(buildCall('add', params, { self: 'Box()', n: '3' })).toBe('(Box()).add(3)');
  });

  it('falls back to the names the call showed when there is no def to read', () => {
    expect(parameters('x = 1\n', 1, ['a', 'b'])).toEqual([
      { name: 'a', kind: 'positional' },
      { name: 'b', kind: 'positional' },
    ]);
  });
});

describe('guessedCallMaker', () => {
  const ev = (event: TraceEvent['event'], fn: string, line: number, depth: number, frame: number, locals: Record<string, string>, value?: string): TraceEvent =>
    ({ event, function: fn, line, depth, frame, parent: depth - 1, code: 0, locals, out: 0, ...(value ? { value } : {}) }) as TraceEvent;
  const source = 'class Acct:\n    def deposit(self, amount, note=""):\n        return amount\n';
  const rec = {
    source,
    call: 'Acct().deposit(5)',
    codes: [],
    stdout: '',
    events: [
      ev('call', 'deposit', 2, 0, 1, { self: '<Acct>', amount: '5', note: "''" }),
      ev('line', 'deposit', 3, 0, 1, { self: '<Acct>', amount: '5', note: "''" }),
      ev('return', 'deposit', 3, 0, 1, { self: '<Acct>', amount: '5', note: "''" }, '5'),
    ],
    exit: { status: 'normal', value: '5' },
  } as unknown as Recording;

  /** A predicted state as the parser gives it. */
  const predicted = (event: 'call' | 'line', line: number, locals: Record<string, string>): ParseResult => ({ event, inverse: false, line, src: '', locals });

  it("builds the return's function call from a predicted call state, the method through its object", () => {
    const make = guessedCallMaker(rec, 2);
    expect(make(predicted('call', 2, { self: 'Acct()', amount: '7', note: "'x'" }))).toBe("(Acct()).deposit(7, 'x')");
  });

  it('gives null for what is not a call state with every argument, never the raw text', () => {
    const make = guessedCallMaker(rec, 2);
    expect(make({ unparseable: '<|inv_call_sep|> amount=3' })).toBeNull();
    expect(make(predicted('line', 3, { amount: '3' }))).toBeNull();
    expect(make(predicted('call', 2, { amount: '3' }))).toBeNull();
  });
});
