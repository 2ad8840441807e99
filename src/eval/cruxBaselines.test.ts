// The baselines as `ndb eval cruxeval` measures them: Python's value equality and f run in
// Pyodide, on the tiny handmade set of fixtures/eval (not CruxEval).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { cruxBaselines } from './cruxBaselines';
import type { CruxItem } from './items';

const items = readFileSync(new URL('../../fixtures/eval/baselines_tiny.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as CruxItem);

let engine: PythonHost;
beforeAll(async () => {
  engine = await loadInProcessHost();
}, 120_000);

describe('CruxEval baselines in Pyodide', () => {
  it('output: the most common answer and the first argument, compared as Python values', async () => {
    expect(await engine.firstArgument('{1: (2, 3)}, "x,y"')).toBe('{1: (2, 3)}');
    expect(await engine.firstArgument('')).toBeNull();
    expect(await engine.callArguments(['[1, 2]', "'a'"])).toBe("[1, 2], 'a'");
    expect(await engine.callArguments(['[1, 2]', 'Box(n=1)'])).toBeNull();
    expect(await cruxBaselines(items, 'output', engine)).toEqual({
      most_common_answer: { answer: 'True', passed: 3, pass_at_1: 3 / 7 },
      // t1 (3) and t7 ([1.0, 2] == [1, 2] in Python)
      first_argument: { passed: 2, pass_at_1: 2 / 7 },
    });
  });

  it('input: f called with the most common input, and with the expected output', async () => {
    expect(await cruxBaselines(items, 'input', engine)).toEqual({
      // f(3): t1 → 3, t5 → True, t6 → True
      most_common_input: { input: '3', passed: 3, pass_at_1: 3 / 7 },
      // t1 f(3), t3 f('AB'), t5 f(True) → True, t7 f([1, 2])
      output_as_input: { passed: 4, pass_at_1: 4 / 7 },
    });
  });
});
