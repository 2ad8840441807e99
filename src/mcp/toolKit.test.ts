// The cap on every answer: fitResult cuts whatever makes a result long, and says it did.

import { describe, expect, it } from 'vitest';
import { fitResult } from './toolKit';

const size = (value: unknown): number => JSON.stringify(value).length;

describe('fitResult', () => {
  it('leaves a result that fits as it is', () => {
    const result = { state: { line: 3, locals: { x: '1' } } };
    expect(fitResult(result, 1_000)).toBe(result);
  });

  it('cuts long strings first, keeping their start', () => {
    const fitted = fitResult({ stdout: 'x'.repeat(50_000), line: 4 }, 10_000);
    expect(size(fitted)).toBeLessThanOrEqual(10_000);
    expect(fitted).toMatchObject({ line: 4, truncated: true, stdout: expect.stringMatching(/^x+… \(cut\)/) });
  });

  it('keeps the first part of a long list of small items (a page of events)', () => {
    const events = Array.from({ length: 5_000 }, (_, index) => ({ index, event: 'line', line: 2, locals: { i: String(index), total: String(index * 2) } }));
    const fitted = fitResult({ events, total: 5_000 }, 20_000);
    expect(size(fitted)).toBeLessThanOrEqual(20_000);
    const kept = fitted.events as typeof events;
    expect(kept.length).toBeGreaterThan(10);
    expect(kept).toEqual(events.slice(0, kept.length));
    expect(fitted).toMatchObject({ total: 5_000, truncated: true });
  });

  it('fits an object of many small fields and a deep nesting', () => {
    const locals = Object.fromEntries(Array.from({ length: 4_000 }, (_, i) => [`name_${i}`, `value ${i}`]));
    expect(size(fitResult({ state: { locals } }, 5_000))).toBeLessThanOrEqual(5_000);
    let deep: Record<string, unknown> = { leaf: 'x'.repeat(100) };
    for (let i = 0; i < 500; i++) deep = { function: `f${i}`, line: i, caller: deep };
    expect(size(fitResult({ frames: deep }, 3_000))).toBeLessThanOrEqual(3_000);
  });
});
