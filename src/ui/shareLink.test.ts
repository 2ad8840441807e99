// Share links round-trip, and a hand-edited link never breaks the app: what is malformed is dropped.

import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash, type SharedState } from './shareLink';

const state: SharedState = {
  source: 'def f(xs):\n    return sum(xs)  # ünïcode\n',
  call: 'f([1, 2])',
  breakpoints: [5, 2],
  position: 3,
  conditions: { 2: { condition: 'xs[0] > 1', hitCount: 2 } },
  watches: ['len(xs)', 'xs[0] & 1'],
};

describe('share links', () => {
  it('round-trip code, call, breakpoints, conditions, watches and position', async () => {
    const hash = await encodeHash(state);
    expect(hash).toMatch(/^#code=[A-Za-z0-9_-]+&call=/);
    expect(await decodeHash(hash)).toEqual({ ...state, breakpoints: [2, 5] });
  });

  it('leave conditions and watches out when there are none', async () => {
    const hash = await encodeHash({ ...state, conditions: {}, watches: [] });
    expect(hash).not.toMatch(/cond=|watch=/);
    expect(await decodeHash(hash)).toMatchObject({ conditions: {}, watches: [] });
  });

  it('drop what a hand-edited link gets wrong', async () => {
    const hash = await encodeHash({ ...state, conditions: {}, watches: [] });
    const params = new URLSearchParams(hash.slice(1));
    params.set('cond', JSON.stringify({ 2: { condition: 7, hitCount: 3 }, 9: { condition: 'x' }, 5: 'x', abc: { condition: 'y' } }));
    params.set('watch', '[1, "ok", "", "ok"]');
    const decoded = await decodeHash(`#${params.toString()}`);
    // Line 9 has no breakpoint; a non-string condition is dropped but its hit count kept.
    expect(decoded?.conditions).toEqual({ 2: { hitCount: 3 } });
    expect(decoded?.watches).toEqual(['ok']);
    params.set('cond', '{not json');
    params.set('watch', '{"a": 1}');
    expect(await decodeHash(`#${params.toString()}`)).toMatchObject({ conditions: {}, watches: [] });
    expect(await decodeHash('#code=%%%')).toBeNull();
    expect(await decodeHash('#call=f()')).toBeNull();
  });
});
