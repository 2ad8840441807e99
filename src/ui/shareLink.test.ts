// Share links round-trip, and a hand-edited link never breaks the app: what is malformed is dropped.

import { describe, expect, it } from 'vitest';
import { MAX_LINKED_EDITS, decodeHash, encodeHash, type SharedState } from './shareLink';

const state: SharedState = {
  source: 'def f(xs):\n    return sum(xs)  # ünïcode\n',
  call: 'f([1, 2])',
  input: 'Ada\n36 & more=#\n',
  breakpoints: [5, 2],
  position: 3,
  conditions: { 2: { condition: 'xs[0] > 1', hitCount: 2 } },
  watches: ['len(xs)', 'xs[0] & 1'],
  edits: [
    { at: 2, name: 'xs', expr: '[5, 6]' },
    { at: 2, name: 'xs', expr: "xs + ['&=#']" },
    { at: 4, name: 'total', expr: '0' },
  ],
};

describe('share links', () => {
  it('round-trip code, call, breakpoints, conditions, watches, edits and position', async () => {
    const hash = await encodeHash(state);
    expect(hash).toMatch(/^#code=[A-Za-z0-9_-]+&call=/);
    expect(await decodeHash(hash)).toEqual({ ...state, breakpoints: [2, 5] });
  });

  it('leave the input, conditions, watches and edits out when there are none', async () => {
    const hash = await encodeHash({ ...state, input: '', conditions: {}, watches: [], edits: [] });
    expect(hash).not.toMatch(/in=|cond=|watch=|edit=/);
    expect(await decodeHash(hash)).toMatchObject({ input: '', conditions: {}, watches: [], edits: [] });
  });

  it('keep the well-formed edits before the first malformed one', async () => {
    const params = new URLSearchParams((await encodeHash({ ...state, edits: [] })).slice(1));
    const decodedWith = async (edits: unknown): Promise<unknown> => {
      params.set('edit', typeof edits === 'string' ? edits : JSON.stringify(edits));
      return (await decodeHash(`#${params.toString()}`))?.edits;
    };
    const good = { at: 3, name: 'n', expr: '10' };
    // Each later edit was made in the recording of the ones before: what follows a bad one is dropped.
    expect(await decodedWith([good, { at: 5, name: 'n', expr: ' ' }, { at: 6, name: 'n', expr: '1' }])).toEqual([good]);
    expect(await decodedWith([good, { at: 2, name: 'n', expr: '1' }])).toEqual([good]);
    expect(await decodedWith([good, { at: 4, name: 'not a name', expr: '1' }])).toEqual([good]);
    expect(await decodedWith([{ at: -1, name: 'n', expr: '1' }, good])).toEqual([]);
    expect(await decodedWith([{ at: 1.5, name: 'n', expr: '1' }])).toEqual([]);
    expect(await decodedWith([{ at: '3', name: 'n', expr: '1' }])).toEqual([]);
    expect(await decodedWith([good, 'n = 1'])).toEqual([good]);
    expect(await decodedWith({ at: 3, name: 'n', expr: '1' })).toEqual([]);
    expect(await decodedWith('[{not json')).toEqual([]);
    // Extra keys are not carried.
    expect(await decodedWith([{ ...good, extra: 1 }])).toEqual([good]);
    // Each edit is a run of the program: a link carries a bounded number.
    expect(await decodedWith(Array.from({ length: MAX_LINKED_EDITS + 5 }, () => good))).toHaveLength(MAX_LINKED_EDITS);
  });

  it('drop what a hand-edited link gets wrong', async () => {
    const hash = await encodeHash({ ...state, conditions: {}, watches: [], edits: [] });
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
