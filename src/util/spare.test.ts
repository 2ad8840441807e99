import { describe, expect, it } from 'vitest';
import { Spare } from './spare';

describe('Spare', () => {
  it('hands the one made early to the first taker only, and makes the rest on demand', () => {
    let made = 0;
    const spare = new Spare(() => ++made);
    spare.prepare();
    spare.prepare();
    expect(made).toBe(1);
    expect(spare.take()).toBe(1);
    expect(spare.take()).toBe(2);
    expect(new Spare(() => 'fresh').take()).toBe('fresh');
  });
});
