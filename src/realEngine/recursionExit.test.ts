// A runaway recursion ends with its traceback's first and last frames and how many there were,
// not a thousand frames (nor none); its innermost frames keep their locals (the tracer takes a
// few frames of its own past the program's limit, and gives them back).

import { beforeAll, describe, expect, it } from 'vitest';
import { stateAt, TRACEBACK_ENDS } from '../core/state';
import { loadInProcessHost, type PythonHost } from './pythonHost';

let host: PythonHost;
beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

describe('a RecursionError exit', () => {
  it('keeps the traceback\'s ends and says how deep it went', async () => {
    const rec = await host.record('def down(n):\n    return down(n + 1)\n\ndown(0)\n', '', { maxEvents: 100_000 });
    expect(rec.exit).toMatchObject({ status: 'exception', exc_type: 'RecursionError' });
    const exit = stateAt(rec, rec.events.length);
    if (exit.event !== 'exit') throw new Error('not the exit');
    expect(exit.traceback).toHaveLength(2 * TRACEBACK_ENDS);
    expect(exit.traceback![0]).toMatchObject({ function: '<module>', line: 4, file: 'main.py' });
    expect(exit.traceback!.slice(1).every((f) => f.function === 'down' && f.line === 2)).toBe(true);
    expect(exit.traceback_total).toBeGreaterThan(100);
    expect(exit.traceback_omitted).toBe(exit.traceback_total! - 2 * TRACEBACK_ENDS);
  }, 120_000);

  it('keeps the locals of the innermost frames, and gives the program its own limit back', async () => {
    const code = 'import sys\n\ndef down(n):\n    return down(n + 1)\n\ndef probe():\n    try:\n        down(0)\n    except RecursionError:\n        pass\n    return sys.getrecursionlimit()\n';
    const rec = await host.record(code, 'probe()', { maxEvents: 100_000 });
    const calls = rec.events.filter((e) => e.function === 'down');
    const deepest = Math.max(...calls.map((e) => e.depth));
    const innermost = calls.filter((e) => e.depth >= deepest - 2);
    expect(innermost.length).toBeGreaterThan(0);
    for (const e of innermost) expect(e.locals, `depth ${e.depth}`).toEqual({ n: String(e.depth - 1) });
    const untouched = await host.record('import sys\n', 'sys.getrecursionlimit()', {});
    expect(rec.exit.value).toBe(untouched.exit.value);
  }, 120_000);
});
