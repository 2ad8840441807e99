import { describe, expect, it } from 'vitest';
import { PendingRequests } from './requests';

describe('PendingRequests', () => {
  it('settles each request by its id, once, and drops answers nobody waits for', async () => {
    const requests = new PendingRequests<string>();
    const settled: number[] = [];
    const a = requests.open(() => settled.push(1));
    const b = requests.open(() => settled.push(2));
    expect(b.id).toBe(a.id + 1);
    expect(requests.resolve(b.id, 'B')).toBe(true);
    expect(requests.resolve(b.id, 'again')).toBe(false);
    expect(requests.resolve(99, 'stale')).toBe(false);
    expect(await b.answer).toBe('B');
    expect(requests.has(a.id)).toBe(true);
    expect(requests.reject(a.id, new Error('superseded'))).toBe(true);
    await expect(a.answer).rejects.toThrow('superseded');
    expect(settled).toEqual([2, 1]);
  });

  it('fails every request that waits when the channel is gone', async () => {
    const requests = new PendingRequests<number>();
    const all = [requests.open(), requests.open()];
    requests.rejectAll(new Error('worker replaced'));
    for (const r of all) await expect(r.answer).rejects.toThrow('worker replaced');
    expect(all.some((r) => requests.has(r.id))).toBe(false);
  });
});
