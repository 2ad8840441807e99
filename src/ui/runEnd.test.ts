// Raising the limits of a run: by steps, never past the documented ceiling.

import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIMIT_CEILING, raisedLimits } from './runEnd';

describe('raisedLimits', () => {
  it('raises the limit that cut the run off, up to the ceiling, and then no more', () => {
    const once = raisedLimits(DEFAULT_LIMITS, 'budget');
    expect(once).toEqual({ maxEvents: 100_000, timeLimit: DEFAULT_LIMITS.timeLimit });
    expect(raisedLimits(once!, 'budget')).toBeNull();
    const slow = raisedLimits(DEFAULT_LIMITS, 'timeout');
    expect(slow).toEqual({ maxEvents: DEFAULT_LIMITS.maxEvents, timeLimit: 16 });
    expect(raisedLimits(slow!, 'timeout')).toEqual({ maxEvents: DEFAULT_LIMITS.maxEvents, timeLimit: LIMIT_CEILING.timeLimit });
    expect(raisedLimits({ ...DEFAULT_LIMITS, timeLimit: LIMIT_CEILING.timeLimit }, 'timeout')).toBeNull();
  });
});
