// What the tracer records for the views when asked for `objects` (never for the model's text):
// which names refer to one object, the module's variables inside a function, and a closure's
// variables from the enclosing function. Checked against what Python itself says (`is`).

import { beforeAll, describe, expect, it } from 'vitest';
import type { Recording, TraceEvent } from '../core/trace';
import { loadNodeEngine } from './node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
}, 60_000);

const lastAt = (rec: Recording, line: number): TraceEvent => rec.events.filter((e) => e.line === line).at(-1)!;

describe('objects in the recording', () => {
  it('gives two names for one list one number, and an equal list another', () => {
    const rec = engine.record('a = [1, 2]\nb = a\nc = [1, 2]\nb.append(3)\nsame = a is b\nother = a is c\n', '', { objects: true });
    const end = rec.events.at(-1)!;
    expect(end.locals).toMatchObject({ a: '[1, 2, 3]', b: '[1, 2, 3]', c: '[1, 2]', same: 'True', other: 'False' });
    expect(end.ids!.a).toBe(end.ids!.b);
    expect(end.ids!.c).not.toBe(end.ids!.a);
    // numbers, strings and booleans are values, not objects a lesson follows
    expect(end.ids).not.toHaveProperty('same');
  });

  it('numbers objects the same way across frames: a parameter is the caller\'s list', () => {
    const rec = engine.record('def add(xs):\n    xs.append(4)\n    return xs\n\nnums = [1]\nout = add(nums)\n', '', { objects: true });
    const inAdd = rec.events.find((e) => e.function === 'add' && e.event === 'line')!;
    expect(inAdd.globals).toEqual({ nums: '[1]' });
    expect(inAdd.ids!.xs).toBe(inAdd.global_ids!.nums);
    const end = rec.events.at(-1)!;
    expect(end.ids!.out).toBe(end.ids!.nums);
  });

  it('shows the module\'s variables inside a function (not its functions), as `global` changes them', () => {
    const rec = engine.record('counter = 0\n\ndef bump():\n    global counter\n    counter += 1\n\nbump()\nbump()\n', '', { objects: true });
    const returns = rec.events.filter((e) => e.function === 'bump' && e.event === 'return');
    expect(returns.map((e) => e.globals)).toEqual([{ counter: '1' }, { counter: '2' }]);
    expect(returns[0]!.locals).toEqual({});
    // the module's own frame has its variables as locals, and no group of globals
    expect(rec.events.filter((e) => e.function === '<module>').every((e) => e.globals === undefined)).toBe(true);
  });

  it('names a closure\'s variables from the enclosing function', () => {
    const rec = engine.record(
      'def make_counter():\n    count = 0\n    def inc():\n        nonlocal count\n        count += 1\n        return count\n    return inc\n\nc = make_counter()\nc()\n',
      '',
      { objects: true },
    );
    const inc = rec.codes.find((c) => c.name === 'inc')!;
    expect(inc.free).toEqual(['count']);
    expect(inc.enclosing).toBe('make_counter');
    const ret = rec.events.find((e) => e.function === 'inc' && e.event === 'return')!;
    expect(ret.locals).toEqual({ count: '1' });
    expect(rec.codes.find((c) => c.name === 'make_counter')!.free).toBeUndefined();
  });

  it('shows only the globals a function reads or writes, or shares an object with', () => {
    const rec = engine.record('big = list(range(5000))\nlimit = 3\nkept = []\n\ndef f(xs, x):\n    xs.append(x)\n    return x < limit\n\nf(kept, 1)\n', '', { objects: true });
    const inF = rec.events.find((e) => e.function === 'f' && e.event === 'line')!;
    expect(inF.globals).toEqual({ limit: '3', kept: '[]' });
    expect(inF.ids!.xs).toBe(inF.global_ids!.kept);
  });

  it('shows a global that a local of the same name hides, with its own value (issue 46)', () => {
    const rec = engine.record('score = 10\n\ndef reset():\n    score = 0\n    return score\n\nreset()\n', '', { objects: true });
    const inReset = rec.events.filter((e) => e.function === 'reset');
    // at the call (no local yet), after `score = 0` and at the return: the global is still 10
    expect(inReset.map((e) => [e.event, e.locals.score, e.globals?.score])).toEqual([
      ['call', undefined, '10'],
      ['line', undefined, '10'],
      ['line', '0', '10'],
      ['return', '0', '10'],
    ]);
    // a parameter hides one too
    const param = engine.record('n = 5\n\ndef f(n):\n    return n\n\nf(1)\n', '', { objects: true });
    expect(param.events.find((e) => e.function === 'f' && e.event === 'line')!.globals).toEqual({ n: '5' });
  });

  it('records none of it without `objects` (training, the model\'s format)', () => {
    const rec = engine.record('a = [1]\nb = a\n\ndef f():\n    return a\n\nf()\n', '');
    expect(rec.events.some((e) => e.ids || e.globals)).toBe(false);
  });
});
