import { beforeAll, describe, expect, it } from 'vitest';
import type { Recording } from '../core/trace';
import { loadNodeEngine } from '../realEngine/node/node';
import { classBreakpoints, crossesCall, jumpReport, programsOf, type JumpCase } from './jumps';

const c = (direct: boolean, confidence: number, composed: boolean, steps = 3): JumpCase => ({ direct, confidence, composed, steps, reached: composed });

describe('the jumps report', () => {
  it('scores the direct answer, the composed one and the policy that composes below a confidence', () => {
    const cases = [c(true, 0.9, false), c(false, 0.3, true), c(false, 0.6, true), c(true, 0.1, false)];
    const r = jumpReport(cases, 30);
    expect(r.n).toBe(4);
    expect(r.skipped).toBe(0);
    expect(r.direct).toBe(0.5);
    expect(r.composed).toBe(0.5);
    // where composing reached no stop (here: where it was wrong), the direct answer is shown
    expect(r.composed_or_direct).toBe(1);
    const at = (t: number) => r.policy.find((p) => p.threshold === t)!;
    // below 0.35: the 0.3 and 0.1 cases: 0.3 composed (right), 0.1 unreached so direct (right); 0.9 direct right; 0.6 direct wrong
    expect(at(0.35)).toEqual({ threshold: 0.35, right: 0.75, composed_share: 0.5 });
    // below 0.65: 0.6 also composed (right): 4 of 4
    expect(at(0.65)).toEqual({ threshold: 0.65, right: 1, composed_share: 0.75 });
    expect(r.steps_mean).toBe(3);
    expect(r.reached).toBe(0.5);
    expect(r).not.toHaveProperty('trivial');
    // composed right where direct was wrong: the 0.3 and 0.6 cases; never the other way
    expect(r.discordant).toEqual({ composed_only: 2, direct_only: 0 });
    // with a cap of 2 steps no composition (3 steps each) reaches its stop: the direct answers
    expect(r.by_cap.find((b) => b.cap === 2)!.right).toBe(0.5);
    expect(r.by_cap.find((b) => b.cap === 4)!.right).toBe(1);
  });

  it("reports the trivial answer and how the composed confidences fit where composing reached a stop", () => {
    const cases: JumpCase[] = [
      { direct: false, confidence: 0.2, composed: true, steps: 2, reached: true, product: 0.5, min: 0.8, trivial: true },
      { direct: false, confidence: 0.2, composed: false, steps: 2, reached: true, product: 0.1, min: 0.6, trivial: false },
      { direct: true, confidence: 0.9, composed: false, steps: 30, reached: false, product: 0.01, min: 0.1, trivial: false },
    ];
    const r = jumpReport(cases, 30);
    expect(r.trivial).toBeCloseTo(1 / 3);
    expect(r.composed_confidence!.n).toBe(2);
    expect(r.composed_confidence!.right).toBe(0.5);
    expect(r.composed_confidence!.product_mean).toBeCloseTo(0.3);
    expect(r.composed_confidence!.product_brier).toBeCloseTo((0.25 + 0.01) / 2);
    expect(r.composed_confidence!.min_brier).toBeCloseTo((0.04 + 0.36) / 2);
  });

  it('reports an empty set as zeros, not NaN', () => {
    const r = jumpReport([], 30, 2);
    expect(r).toMatchObject({ n: 0, skipped: 2, direct: 0, composed: 0, composed_or_direct: 0, steps_mean: 0, reached: 0, discordant: { composed_only: 0, direct_only: 0 } });
  });
});

const SOURCE = [
  'def square(x):',
  '    """A docstring."""',
  '    return x * x',
  '',
  'def main(items):',
  '    total = 0',
  '    for i in items:',
  '        # a comment',
  '',
  '        total += square(i)',
  '    while total > 100: total -= 1',
  '    return total',
  '',
].join('\n');

let rec: Recording;
beforeAll(async () => {
  rec = (await loadNodeEngine()).record(SOURCE, 'main([1, 2])');
}, 120_000);

describe('how a class uses Continue and Step over', () => {
  it("puts a breakpoint on the first line of code of each function's and each loop's body", () => {
    // square's docstring holds no code (its body's first line is 3); a loop on one line has no body line
    expect(classBreakpoints(SOURCE, rec.program)).toEqual([3, 6, 10]);
    // without the program's shape: the first line that is neither blank nor a comment
    expect(classBreakpoints(SOURCE, null)).toEqual([2, 6, 10]);
  });

  it('scores the step overs that skip a call of the program', () => {
    const crossing = rec.events.flatMap((e, i) => (crossesCall(rec, i) ? [e.line] : []));
    expect(crossing).toEqual([10, 10]);
  });

  it('takes each program once', () => {
    const item = (source: string, call: string, id: string) => ({ id, source, call, actions: [] });
    expect(programsOf([item('a', 'f()', '1'), item('a', 'f()', '2'), item('a', 'g()', '3'), item('b', 'f()', '4')]).map((i) => i.id)).toEqual(['1', '3', '4']);
  });
});
