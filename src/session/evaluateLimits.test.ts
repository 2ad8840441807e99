// evaluate runs the program again with the expression at every event: when that run hits a limit
// before the stop, the answer names the limit (not "the program ran differently").

import { describe, expect, it } from 'vitest';
import { loadInProcessHost } from '../realEngine/pythonHost';
import { LiveSession } from './liveSession';

describe('evaluate at its limits', () => {
  it('names the time limit its run hit', async () => {
    const host = await loadInProcessHost();
    const source = 'total = 0\nfor i in range(200):\n    total += i\n';
    const live = await LiveSession.start(host, source, '', { engine: 'real', limits: { timeLimit: 1 } });
    const at = live.recording.events.length - 5;
    const answer = await live.evaluate('sum(range(2 * 10**6))', at);
    expect(answer).toEqual({ error: expect.stringMatching(/runs the program again, and that run hit its time limit \(1 s\) before this stop/) });
    // a cheap expression at the same stop is answered
    expect(await live.evaluate('total + 1', at)).toHaveProperty('value');
  }, 60_000);
});
