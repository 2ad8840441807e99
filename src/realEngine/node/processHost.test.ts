// The Node faces' Python engine: Pyodide in a sandboxed process of its own, replaced when a run
// holds it past its deadline (a computation inside one C call, which the tracer cannot interrupt).

import { afterAll, describe, expect, it } from 'vitest';
import { ENGINE_OUTPUT_BYTES } from './outputBudget';
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

  it('stops a sleep past the time limit at the limit, keeping what ran before it', async () => {
    const code = 'import time\n\ndef nap():\n    print("before")\n    time.sleep(30)\n    print("after")\n';
    const rec = await host.record(code, 'nap()', { timeLimit: 1 });
    expect(rec.exit).toMatchObject({ status: 'timeout', message: 'Stopped after 1 s (the time limit), in time.sleep(30)' });
    expect(rec.stdout).toBe('before\n');
    // the run ends at the sleep: no events of the stop unwinding the frames
    expect(rec.events.at(-1)).toMatchObject({ event: 'line', line: 5 });
    expect(rec.events.some((e) => e.event === 'exception')).toBe(false);
    // a sleep within the limit sleeps, and refuses what time.sleep refuses
    const short = await host.record('import time\n\ndef f():\n    time.sleep(0.01)\n    time.sleep(-1)\n', 'f()', { timeLimit: 5 });
    expect(short.exit).toMatchObject({ status: 'exception', message: 'ValueError: sleep length must be non-negative' });
    const text = await host.record('import time\n\ndef f():\n    time.sleep("1")\n', 'f()', { timeLimit: 5 });
    expect(text.exit).toMatchObject({ status: 'exception', message: expect.stringMatching(/^TypeError: /) });
  });

  it('stops a run of very many events early enough to send them within its limit, and says so', async () => {
    const rec = await host.record('def g():\n    i = 0\n    while True:\n        i += 1\n', 'g()', { timeLimit: 30, maxEvents: 1_000_000 });
    expect(rec.exit.status).toBe('timeout');
    expect(rec.exit.message).toMatch(/^Stopped after [\d.]+ s, to send its [\d,]+ events within the time limit \(30 s\)$/);
    expect(rec.events.length).toBeGreaterThan(100_000);
  }, 60_000);

  it('passes on at most ENGINE_OUTPUT_BYTES of what a program writes straight to fds 1 and 2 per request, and says the rest was dropped', async () => {
    let written = '';
    const counted = new ProcessHost({ spare: false, output: (text) => (written += text) });
    try {
      // (the engine passes Python's fds 1 and 2 on a line at a time)
      const flood = 'import os\nfor _ in range(30):\n    os.write(2, b"x" * 99_999 + b"\\n")\n    os.write(1, b"y" * 99_999 + b"\\n")\nprint("done")\n';
      const rec = await counted.record(flood, '', { timeLimit: 10 });
      expect(rec.exit.status).toBe('normal');
      expect(rec.stdout).toBe('done\n');
      await new Promise((resolve) => setTimeout(resolve, 500)); // the pipes drain after the answer
      const notes = written.match(/ndb: the program wrote more than 64 KB straight to file descriptors 1 and 2/g) ?? [];
      expect(notes).toHaveLength(1);
      expect(written.length).toBeLessThan(ENGINE_OUTPUT_BYTES + 400);
      expect(written.length).toBeGreaterThan(ENGINE_OUTPUT_BYTES - 1);
      // the next request has a budget of its own
      written = '';
      await counted.record('import os\nos.write(2, b"z" * 10 + b"\\n")\n', '', { timeLimit: 10 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(written).toBe('zzzzzzzzzz\n');
    } finally {
      await counted.close();
    }
  }, 120_000);
});
