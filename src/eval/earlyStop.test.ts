// The timing summary `ndb eval early-stop` reports for each variant.

import { describe, expect, it } from 'vitest';
import { quantile } from '../util/quantile';
import { timingSummary } from './earlyStop';

describe('quantiles and timing summaries', () => {
  it('takes the nearest rank, and the mean of the slowest 5 %', () => {
    const ms = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(quantile(ms, 0.5)).toBe(20);
    expect(quantile(ms, 0.95)).toBe(38);
    expect(quantile([], 0.5)).toBe(0);
    const s = timingSummary(ms, [2, 4], 1);
    expect(s).toMatchObject({ n: 40, ms_median: 20, ms_p95: 38, ms_slowest_5pct_mean: 39.5, ms_mean: 20.5, new_tokens_mean: 3, length_stops: 1 });
  });
});
