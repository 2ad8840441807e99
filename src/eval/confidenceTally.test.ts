// The calibration a tally fits: Platt scaling where it narrows the gap between confidence and
// accuracy, the model's own probabilities where they are already closer.

import { describe, expect, it } from 'vitest';
import { calibrated, reliability } from '../core/confidence';
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

  it("keeps the model's own probabilities where they are already calibrated, or a fit that is no worse", () => {
    const t = tally((x, u) => u < Math.exp(x));
    const fitted = t.fit(['made up']).state;
    const samples = t.samples.state as Array<{ x: number; right: boolean }>;
    const ece = (p: { a: number; b: number }) => reliability(samples.map((s) => calibrated(s.x, p)), samples.map((s) => s.right)).ece;
    expect(ece({ a: 1, b: 0 })).toBeLessThan(0.03);
    expect(ece(fitted)).toBeLessThanOrEqual(ece({ a: 1, b: 0 }));
  });

  it('never keeps a fit that widens the gap', () => {
    // as the phase-10 model's scores were: half the states near-certain and right 98.5 % of the
    // time, the rest right as often as exp(x) says. A line in log-odds bends the middle to meet
    // the near-certain ones and widens the gap there; the identity is closer and must be kept.
    let seed = 9;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const t = new ConfidenceTally();
    for (let i = 0; i < 5_000; i++) {
      const sure = rand() < 0.5;
      const x = sure ? -1e-4 * rand() : -6 * rand();
      t.samples.state.push({ x, confidence: Math.exp(x), right: rand() < (sure ? 0.985 : Math.exp(x)) });
    }
    const samples = t.samples.state as Array<{ x: number; right: boolean }>;
    const ece = (p: { a: number; b: number }) => reliability(samples.map((s) => calibrated(s.x, p)), samples.map((s) => s.right)).ece;
    expect(ece(t.fit(['made up']).state)).toBeLessThanOrEqual(ece({ a: 1, b: 0 }));
  });
});
