// A runaway recursion ends with its traceback's first and last frames and how many there were,
// not a thousand frames (nor none).

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
});
