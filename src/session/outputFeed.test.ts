// The program's output printed once, as it was printed, whichever way the debugger moves.

import { describe, expect, it } from 'vitest';
import { OutputFeed } from './outputFeed';

describe('OutputFeed', () => {
  it('prints what is new at each stop, nothing when stepping back, and says when an edited run differs', () => {
    const feed = new OutputFeed();
    expect(feed.at('')).toBeNull();
    expect(feed.at('row 0\n')).toEqual({ text: 'row 0\n' });
    expect(feed.at('row 0\nrow 1\n')).toEqual({ text: 'row 1\n' });
    expect(feed.at('row 0\n')).toBeNull();
    expect(feed.at('row 0\nrow 1\n')).toBeNull();
    expect(feed.at('row 0\nrow 9\n')).toEqual({ text: '9\n', rewritten: true });
  });

  it('goes back to a snapshot when what it answered was never shown', () => {
    const feed = new OutputFeed();
    const before = feed.snapshot();
    feed.at('lost\n');
    feed.restore(before);
    expect(feed.at('lost\n')).toEqual({ text: 'lost\n' });
  });
});
