// The confidence's arithmetic: raw scores per field from the chosen tokens, Platt scaling (fitted
// back from data made with known parameters), and the reliability of a set of confidences.
import { describe, expect, it } from 'vitest';
import { confidenceOf, confidenceSentence, confidenceText, confidenceWords, fitPlatt, logOdds, reliability, sigmoid, stateScores, type ChosenToken } from './confidence';

describe('stateScores', () => {
  it('sums log-probabilities per field; unchanged locals share the score of ".."', () => {
    const chosen: ChosenToken[] = [
      { part: 'position', logp: -0.1 },
      { part: 'position', logp: -0.2 },
      { part: { entry: 0 }, logp: -1 },
      { part: { entry: 0 }, logp: -0.5 },
      { part: { entry: 1 }, logp: -0.05 },
    ];
    const state = { event: 'line' as const, inverse: false, line: 3, src: '', locals: { xs: '[1]', s: '2' } };
    const scores = stateScores(chosen, ['s', '..'], state);
    expect(scores.state).toBeCloseTo(-1.85);
    expect(scores.position).toBeCloseTo(-0.3);
    expect(scores.locals.s).toBeCloseTo(-1.5);
    expect(scores.locals.xs).toBeCloseTo(-0.05);
    // without calibration the confidence is the model's own probability
    expect(confidenceOf(scores).state).toBeCloseTo(Math.exp(-1.85));
    const c = confidenceOf(scores, { state: { a: 2, b: 1 }, position: { a: 1, b: 0 }, local: { a: 1, b: 0 }, value: { a: 1, b: 0 } });
    expect(c.state).toBeCloseTo(sigmoid(2 * logOdds(-1.85) + 1));
    // a = 1, b = 0 is the model's own probability
    const identity = { a: 1, b: 0 };
    for (const x of [-12, -1.85, -0.01, 0]) expect(confidenceOf({ state: x, position: 0, locals: {} }, { state: identity, position: identity, local: identity, value: identity }).state).toBeCloseTo(Math.exp(x), 6);
  });
});

describe('fitPlatt', () => {
  it('recovers the parameters the data was made with', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const xs: number[] = [];
    const ys: boolean[] = [];
    for (let i = 0; i < 20_000; i++) {
      const x = -6 * rand();
      xs.push(x);
      ys.push(rand() < sigmoid(0.8 * x + 1.5));
    }
    const p = fitPlatt(xs, ys);
    expect(p.a).toBeCloseTo(0.8, 1);
    expect(p.b).toBeCloseTo(1.5, 1);
  });

  it('keeps a calibrated model as it is, and raises an underconfident one', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const calibratedXs: number[] = [];
    const calibratedYs: boolean[] = [];
    const overXs: number[] = [];
    const overYs: boolean[] = [];
    for (let i = 0; i < 20_000; i++) {
      // many near-certain states and a long tail, as a model's scores are
      const x = rand() < 0.4 ? -0.02 * rand() : -8 * rand();
      calibratedXs.push(x);
      calibratedYs.push(rand() < Math.exp(x));
      // right as often as exp(x / 2) says: exp(x) is too unsure
      overXs.push(x);
      overYs.push(rand() < Math.exp(x / 2));
    }
    const same = fitPlatt(calibratedXs.map(logOdds), calibratedYs);
    expect(same.a).toBeCloseTo(1, 1);
    expect(Math.abs(same.b)).toBeLessThan(0.15);
    const raised = fitPlatt(overXs.map(logOdds), overYs);
    expect(sigmoid(raised.a * logOdds(-2) + raised.b)).toBeGreaterThan(Math.exp(-2) + 0.1);
  });
});

describe('reliability', () => {
  it('bins confidences, weighs the gaps by bin size and counts the sure ones', () => {
    const r = reliability([0.95, 0.95, 0.95, 0.95, 0.15, 0.15], [true, true, true, false, false, false]);
    expect(r.ece).toBeCloseTo((4 / 6) * 0.2 + (2 / 6) * 0.15);
    expect(r.sure).toEqual({ share: 4 / 6, accuracy: 0.75, n: 4 });
    expect(r.bins[9]).toMatchObject({ n: 4, accuracy: 0.75 });
  });

  it('says it in words', () => {
    expect([0.95, 0.8, 0.6, 0.2].map(confidenceWords)).toEqual(['sure', 'sure', 'likely', 'a guess']);
    // the word agrees with the percentage shown beside it (issue 46)
    expect([0.797, 0.7949, 0.495, 0.4949].map(confidenceText)).toEqual(['sure (80 %)', 'likely (79 %)', 'likely (50 %)', 'a guess (49 %)']);
    for (let i = 0; i <= 1000; i++) {
      const [word, percent] = /^(.*) \((\d+) %\)$/.exec(confidenceText(i / 1000))!.slice(1);
      expect(word).toBe(Number(percent) >= 80 ? 'sure' : Number(percent) >= 50 ? 'likely' : 'a guess');
    }
    expect(confidenceSentence(0.01)).toBe('Before the truth was shown, the model was only guessing: it gave this whole answer a 1 % chance of being right.');
    expect(confidenceSentence(0.62)).toMatch(/thought its answer was likely right: it gave this whole answer a 62 % chance/);
    expect(confidenceSentence(0.93)).toMatch(/was sure of its answer: it gave this whole answer a 93 % chance/);
  });
});
