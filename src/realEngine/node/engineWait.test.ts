// "waiting for an engine (N s)": said once per request scope (or per process), only for a wait
// longer than WAIT_NOTICE_MS, and by the hosts when a request waits for an engine still loading.

import { afterEach, describe, expect, it } from 'vitest';
import { engineWaitHere, setEngineWaitNotice, WAIT_NOTICE_MS, withEngineWaits } from './engineWait';
import { ProcessHost } from './processHost';

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

afterEach(() => setEngineWaitNotice(null));

describe('the engine-wait notice', () => {
  it('says nothing of a short wait, and a long one once, with how long the engine has been starting', async () => {
    const said: string[] = [];
    const short = await withEngineWaits(
      (text) => said.push(text),
      async () => {
        const pending = after(50);
        engineWaitHere(pending, Date.now());
        await pending;
      },
    );
    expect(said).toEqual([]);
    expect(short.waitedMs).toBeLessThan(WAIT_NOTICE_MS);
    const long = await withEngineWaits(
      (text) => said.push(text),
      async () => {
        for (let i = 0; i < 2; i++) {
          const pending = after(WAIT_NOTICE_MS + 300);
          engineWaitHere(pending, Date.now() - 2_000); // an engine started 2 s before
          await pending;
        }
      },
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^waiting for an engine \([34] s\)$/); // 2 s before, then 1 s (a timer late on a loaded machine: 4)
    expect(long.waitedMs).toBeGreaterThanOrEqual(WAIT_NOTICE_MS);
  }, 20_000);

  it('tells the process-wide listener where no request sets one (a command, a debug adapter)', async () => {
    const said: string[] = [];
    setEngineWaitNotice((text) => said.push(text));
    const pending = after(WAIT_NOTICE_MS + 200);
    engineWaitHere(pending, Date.now());
    await pending;
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^waiting for an engine \([12] s\)$/);
  }, 20_000);

  it('is said by a host whose request waits for its engine to load, and not once it is ready', async () => {
    const host = new ProcessHost({ spare: false, snapshots: null }); // the plain load: seconds
    try {
      const said: string[] = [];
      const first = await withEngineWaits((text) => said.push(text), () => host.codeLines('x = 1\n'));
      expect(first.result).toEqual({ lines: [1] });
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^waiting for an engine \(\d+ s\)$/);
      const second = await withEngineWaits((text) => said.push(text), () => host.codeLines('y = 2\n'));
      expect(second.waitedMs).toBe(0);
      expect(said).toHaveLength(1);
    } finally {
      await host.close();
    }
  }, 180_000);
});
