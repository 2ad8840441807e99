// The engine processes of a server of many sessions: a process that is loading or running one
// session's request is never handed to another (issue 44: 4 of 8 MCP sessions that evaluated at
// once ended with "the Python engine stopped (SIGKILL)"), and a request that finds every process
// busy waits for one within its limit, or is told the engines are busy.

import { afterEach, describe, expect, it } from 'vitest';
import { EngineBusy, ProcessPool, SPARES } from './processPool';

let pool: ProcessPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('ProcessPool', () => {
  it('serves eight sessions that ask at the same moment, from the first instant, with no request ended by another', async () => {
    pool = new ProcessPool({ max: 3 });
    const engines = pool;
    // asked at once, before any process has loaded: every one of them loading counts as busy
    const runs = Array.from({ length: 8 }, (_, i) => engines.forOwner(`session-${i}`).record(`x = ${i}\nprint(x * 2)\n`, '', { timeLimit: 10 }));
    const recs = await Promise.all(runs);
    expect(recs.map((r) => r.exit.status)).toEqual(Array(8).fill('normal'));
    expect(recs.map((r) => r.stdout)).toEqual(Array.from({ length: 8 }, (_, i) => `${i * 2}\n`));
    expect(engines.size).toBeLessThanOrEqual(3);
  }, 240_000);

  it('keeps SPARES fresh processes: none loads beside the first requests, and later a replacement starts as soon as one is taken', async () => {
    pool = new ProcessPool({ max: 4 });
    const engines = pool;
    const first = engines.forOwner('session-0').record('print(0)\n', '', { timeLimit: 10 });
    await engines.whenReady();
    // the first request runs alone: no spare loads beside it
    expect(engines.spares).toEqual({ ready: 0, loading: 0 });
    expect((await first).stdout).toBe('0\n');
    // then the spares start, one after another
    for (let i = 0; i < 600 && engines.spares.ready < SPARES; i++) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(engines.spares).toEqual({ ready: SPARES, loading: 0 });
    expect(engines.size).toBe(SPARES + 1);
    const run = engines.forOwner('session-1').record('print(1)\n', '', { timeLimit: 10 });
    // taken: its replacement is already starting, before the run has ended
    expect(engines.size).toBe(SPARES + 2);
    expect(engines.spares).toEqual({ ready: SPARES - 1, loading: 1 });
    expect((await run).stdout).toBe('1\n');
  }, 240_000);

  it('refills while a long run holds the cores, after REFILL_DEFER_MS', async () => {
    pool = new ProcessPool({ max: 4 });
    const engines = pool;
    await engines.whenReady();
    const run = engines.forOwner('session-1').record('import time\ntime.sleep(4)\nprint(1)\n', '', { timeLimit: 10 });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // the run goes on; the spares load anyway
    expect(engines.spares.ready + engines.spares.loading).toBeGreaterThan(0);
    expect((await run).stdout).toBe('1\n');
  }, 240_000);

  it('tells a request that every engine is busy with other sessions when none is free within its wait', async () => {
    pool = new ProcessPool({ max: 2, waitMs: 1_500 });
    const engines = pool;
    await engines.whenReady();
    const slow = 'import time\ntime.sleep(6)\nprint("slept")\n';
    const holding = [engines.forOwner('a').record(slow, '', { timeLimit: 10 }), engines.forOwner('b').record(slow, '', { timeLimit: 10 })];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await expect(engines.forOwner('c').record('print(1)\n', '', { timeLimit: 10 })).rejects.toThrow(EngineBusy);
    const held = await Promise.all(holding);
    expect(held.map((r) => r.stdout)).toEqual(['slept\n', 'slept\n']);
    // once they are done, the third is served
    expect((await engines.forOwner('c').record('print(1)\n', '', { timeLimit: 10 })).stdout).toBe('1\n');
  }, 240_000);
});
