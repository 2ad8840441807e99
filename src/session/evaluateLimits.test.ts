// evaluate runs the program again to the stop and evaluates the expression once there: when that
// run hits a limit before it has the value, the answer names the limit (not "the program ran
// differently").

import { describe, expect, it } from 'vitest';
import { loadInProcessHost } from '../realEngine/pythonHost';
import { LiveSession } from './liveSession';

describe('evaluate at its limits', () => {
  it('names the time limit its run hit', async () => {
    const host = await loadInProcessHost();
    const source = 'total = 0\nfor i in range(200):\n    total += i\n';
    const live = await LiveSession.start(host, source, '', { engine: 'real', limits: { timeLimit: 1 } });
    const at = live.recording.events.length - 5;
    // time.sleep stops a run at its limit (tracer.py), here while the expression is evaluated
    const answer = await live.evaluate('__import__("time").sleep(5) or 1', at);
    expect(answer).toEqual({ error: expect.stringMatching(/runs the program again to this stop, and that run hit its time limit \(1 s\) before it had the value/) });
    // an expression that takes a while but ends is evaluated once: its value comes
    expect(await live.evaluate('sum(range(2 * 10**6))', at)).toEqual({ value: String((2 * 10 ** 6 * (2 * 10 ** 6 - 1)) / 2) });
    // a cheap expression at the same stop is answered
    expect(await live.evaluate('total + 1', at)).toHaveProperty('value');
  }, 60_000);
});
