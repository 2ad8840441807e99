import { describe, expect, it } from 'vitest';
import { Spare } from './spare';

describe('Spare', () => {
  it('hands the one made early to the first taker only, and makes the rest on demand', () => {
    let made = 0;
    const spare = new Spare(() => ++made);
    expect(spare.prepare()).toBe(1);
    // the one waiting, not a new one
    expect(spare.prepare()).toBe(1);
    expect(made).toBe(1);
    expect(spare.take()).toBe(1);
    expect(spare.take()).toBe(2);
    expect(new Spare(() => 'fresh').take()).toBe('fresh');
  });
});
