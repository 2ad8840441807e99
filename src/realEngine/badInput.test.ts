// Bad input ends in a clear message and a usable recording, never a hang or a crash.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
});

describe('the real engine on bad input', () => {
  it('reports a syntax error with its line and column, and records nothing', () => {
    const rec = engine.record('def f(:\n    return 1\n', 'f()');
    expect(rec.exit.status).toBe('syntax_error');
    expect(rec.exit.line).toBe(1);
    expect(rec.exit.message).toMatch(/SyntaxError/);
    expect(rec.events).toEqual([]);
  });

  it('gives the line of a failed import in the module run before the call', () => {
    const rec = engine.record('def f():\n    return 1\n\nimport no_such_module\n', 'f()');
    expect(rec.exit.status).toBe('error');
    expect(rec.exit.message).toMatch(/No module named 'no_such_module'/);
    expect(rec.exit.line).toBe(4);
  });

  it('says how long a value cut at the cap is (len() of builtin types only)', () => {
    const rec = engine.record('def f():\n    s = "ab" * 5000\n    xs = list(range(3000))\n    return s\n', 'f()', { maxRepr: 1000 });
    const last = rec.events[rec.events.length - 1]!;
    expect(last.event).toBe('return');
    expect(last.sizes).toEqual({ s: 10_000, xs: 3000 });
    expect(last.value_size).toBe(10_000);
    expect(rec.events[1]!.sizes).toBeUndefined();
  });

  it('stops an infinite loop at the event budget', () => {
    const rec = engine.record('def f():\n    while True:\n        pass\n', 'f()', { maxEvents: 500 });
    expect(rec.exit.status).toBe('budget');
    expect(rec.exit.message).toMatch(/500 events/);
    expect(rec.events).toHaveLength(500);
  });

  it('stops a loop that outlives the time limit', () => {
    const rec = engine.record('x = 0\nwhile True:\n    x += 1\n', '', { maxEvents: 10_000_000, timeLimit: 0.3 });
    expect(rec.exit.status).toBe('timeout');
    expect(rec.events.length).toBeGreaterThan(0);
  });

  it('ends deep recursion with RecursionError or the budget, keeping the events', () => {
    const rec = engine.record('def down(n):\n    return down(n + 1)\n', 'down(0)', { maxEvents: 100_000 });
    expect(rec.exit.status).toBe('exception');
    expect(rec.exit.message).toMatch(/RecursionError/);
    expect(rec.events.length).toBeGreaterThan(100);
    expect(Math.max(...rec.events.map((e) => e.depth))).toBeGreaterThan(50);
  });

  it('caps huge values', () => {
    const rec = engine.record('def f():\n    s = "ab" * 10**6\n    xs = list(range(10**6))\n    n = 7 ** 100000\n    return len(s)\n', 'f()', { maxRepr: 200 });
    expect(rec.exit.status).toBe('normal');
    const last = rec.events[rec.events.length - 1]!;
    expect(last.locals.s!.length).toBeLessThanOrEqual(201);
    expect(last.locals.xs!.length).toBeLessThanOrEqual(201);
    expect(last.locals.n).toMatch(/^<int with about \d+ digits>$/);
    expect(last.value).toBe('2000000');
  });

  it('explains input() and missing modules', () => {
    const withInput = engine.record('name = input("who? ")\n', '');
    expect(withInput.exit.status).toBe('exception');
    expect(withInput.exit.message).toMatch(/input\(\) is not available/);
    const missing = engine.record('import numpy\n', '');
    expect(missing.exit.status).toBe('exception');
    expect(missing.exit.message).toMatch(/No module named 'numpy'/);
  });

  it('records an uncaught exception through every frame it leaves', () => {
    const rec = engine.record('def g():\n    return 1 / 0\n\ndef f():\n    return g()\n', 'f()');
    expect(rec.exit).toMatchObject({ status: 'exception', exc_type: 'ZeroDivisionError' });
    const kinds = rec.events.map((e) => `${e.event}:${e.function}`);
    expect(kinds).toContain('exception:g');
    expect(kinds).toContain('exception:f');
    const leaving = rec.events.filter((e) => e.event === 'return');
    expect(leaving.every((e) => e.raising === true && /ZeroDivisionError/.test(e.value ?? ''))).toBe(true);
  });

  it('handles an empty program and a call of a missing function', () => {
    const empty = engine.record('', '');
    expect(empty.exit.status).toBe('normal');
    const missing = engine.record('x = 1\n', 'nothing()');
    expect(missing.exit.status).toBe('exception');
    expect(missing.exit.message).toMatch(/before any of your code ran.*NameError/);
    const badCall = engine.record('def f(): pass\n', 'f(');
    expect(badCall.exit.status).toBe('call_error');
  });

  it('keeps values deterministic: no memory addresses', () => {
    const rec = engine.record('class A:\n    pass\n\ndef f():\n    a = A()\n    o = object()\n    g = f\n    return a\n', 'f()');
    const values = rec.events.flatMap((e) => Object.values(e.locals));
    expect(values.some((v) => /0x[0-9a-f]+/.test(v))).toBe(false);
    expect(values).toContain('<object object>');
    expect(values).toContain('<function f>');
  });

  it('captures stdout as it grows', () => {
    const rec = engine.record('def f():\n    print("a")\n    print("b")\n    return 0\n', 'f()');
    expect(rec.stdout).toBe('a\nb\n');
    expect(rec.events.map((e) => e.out)).toEqual([0, 0, 2, 4, 4]);
  });
});
