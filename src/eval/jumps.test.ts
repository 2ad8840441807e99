import { describe, expect, it } from 'vitest';
import { jumpReport, type JumpCase } from './jumps';

const c = (direct: boolean, confidence: number, composed: boolean, steps = 3): JumpCase => ({ direct, confidence, composed, steps, reached: composed });

describe('the jumps report', () => {
  it('scores the direct answer, the composed one and the policy that composes below a confidence', () => {
    const cases = [c(true, 0.9, false), c(false, 0.3, true), c(false, 0.6, true), c(true, 0.1, false)];
    const r = jumpReport(cases, 30);
    expect(r.n).toBe(4);
    expect(r.skipped).toBe(0);
    expect(r.direct).toBe(0.5);
    expect(r.composed).toBe(0.5);
    const at = (t: number) => r.policy.find((p) => p.threshold === t)!;
    // below 0.35: the 0.3 and 0.1 cases are composed: right for 0.3 (composed), wrong for 0.1; 0.9 direct right; 0.6 direct wrong
    expect(at(0.35)).toEqual({ threshold: 0.35, right: 0.5, composed_share: 0.5 });
    // below 0.65: 0.6 also composed (right): 3 of 4
    expect(at(0.65)).toEqual({ threshold: 0.65, right: 0.75, composed_share: 0.75 });
    expect(r.steps_mean).toBe(3);
    expect(r.reached).toBe(0.5);
  });

  it('reports an empty set as zeros, not NaN', () => {
    const r = jumpReport([], 30, 2);
    expect(r).toMatchObject({ n: 0, skipped: 2, direct: 0, composed: 0, steps_mean: 0, reached: 0 });
  });
});
