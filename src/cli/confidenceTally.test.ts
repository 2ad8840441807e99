// The calibration a tally fits: Platt scaling where it narrows the gap between confidence and
// accuracy, the model's own probabilities where they are already closer.

import { describe, expect, it } from 'vitest';
import { ConfidenceTally } from './confidenceTally';

function tally(rightWhen: (x: number, u: number) => boolean): ConfidenceTally {
  let seed = 5;
  const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const t = new ConfidenceTally();
  for (let i = 0; i < 5_000; i++) {
    const x = rand() < 0.4 ? -0.02 * rand() : -6 * rand();
    t.samples.state.push({ x, confidence: Math.exp(x), right: rightWhen(x, rand()) });
  }
  return t;
}

describe('ConfidenceTally.fit', () => {
  it('keeps the fit where it brings the confidence to the accuracy', () => {
    // right half as often as the model says: too sure
    const c = tally((x, u) => u < Math.exp(x) / 2).fit(['made up']);
    expect(c.state).not.toEqual({ a: 1, b: 0 });
    expect(c.n?.state).toBe(5_000);
  });

  it("keeps the model's own probabilities where they are already calibrated", () => {
    const t = tally((x, u) => u < Math.exp(x));
    const fitted = t.fit(['made up']);
    // either the identity, or a fit that is no worse on the same samples
    const before = t.report().state.ece;
    expect(before).toBeLessThan(0.03);
    if (fitted.state.a !== 1 || fitted.state.b !== 0) expect(Math.abs(fitted.state.a - 1)).toBeLessThan(0.2);
  });
});
