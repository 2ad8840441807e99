// The Node faces' Python engine: Pyodide in a sandboxed process of its own, replaced when a run
// holds it past its deadline (a computation inside one C call, which the tracer cannot interrupt).

import { afterAll, describe, expect, it } from 'vitest';
import { ProcessHost } from './processHost';

const host = new ProcessHost({ graceMs: 1_500 });

afterAll(() => host.close());

describe('ProcessHost', () => {
  it('records, and answers the questions a debugger asks before running', async () => {
    const rec = await host.record('def f(n):\n    return n + 1\n', 'f(1)', { timeLimit: 5 });
    expect(rec.exit).toMatchObject({ status: 'normal', value: '2' });
    expect(rec.events.map((e) => e.event)).toEqual(['call', 'line', 'return']);
    expect(await host.codeLines('def f(n):\n\n    return n\n')).toEqual({ lines: [1, 3] });
    expect(await host.codeLines('def f(:\n')).toMatchObject({ error: expect.stringMatching(/SyntaxError/), line: 1 });
    expect(await host.expressionError('x +')).toMatch(/SyntaxError/);
    expect(await host.expressionError('x + 1')).toBeNull();
    expect(await host.evaluateOnLocals('xs[0] + n', { xs: '[4, 5]', n: '1' })).toEqual({ value: '5' });
  });

  it('stops a run stuck inside one C call, restarts the engine and goes on', async () => {
    const started = performance.now();
    const stuck = await host.record('def f():\n    return sum(range(10**12))\n', 'f()', { timeLimit: 1 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(stuck.exit).toMatchObject({ status: 'timeout', message: expect.stringMatching(/cannot be interrupted; the Python engine was restarted/) });
    expect(stuck.events).toEqual([]);
    // A Python-level endless loop is the tracer's to stop: no restart, and the events are kept.
    const loop = await host.record('def g():\n    while True:\n        pass\n', 'g()', { timeLimit: 1, maxEvents: 1_000_000 });
    expect(loop.exit.status).toBe('timeout');
    expect(loop.events.length).toBeGreaterThan(0);
  });
});
