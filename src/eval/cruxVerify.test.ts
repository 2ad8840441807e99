// Input prediction with the checker (`ndb eval cruxeval --task input --verify K`, issue 45): the
// greedy call first, then sampled ones, each run in the real engine; reported apart from pass@1,
// on the tiny handmade set of fixtures/eval (not CruxEval) with the shipped model.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultModelDir, loadNodeModel, type LoadedModel } from '../neuralEngine/nodeModel';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { evalCruxeval, type CruxItemResult } from './cruxeval';
import type { CruxItem } from './items';

const items = readFileSync(new URL('../../fixtures/eval/baselines_tiny.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as CruxItem);

let engine: PythonHost;
let model: LoadedModel;
beforeAll(async () => {
  engine = await loadInProcessHost();
  model = await loadNodeModel(defaultModelDir(), 'int8');
}, 120_000);

describe('CruxEval input prediction with the checker', () => {
  it('counts an item when one of up to K calls returns the output, never fewer than pass@1, the same each run', async () => {
    const seen: CruxItemResult[] = [];
    const result = await evalCruxeval(model, engine, items, { task: 'input', verify: 4 }, (r) => seen.push(r));
    expect(result.verified).toMatchObject({ k: 4 });
    const v = result.verified!;
    expect(v.passed).toBeGreaterThanOrEqual(result.passed);
    expect(v.pass_with_checker).toBeCloseTo(v.passed / items.length);
    expect(v.calls_run).toBeLessThanOrEqual(4 * items.length);
    for (const r of seen) {
      expect(r.verified!.tried).toBeLessThanOrEqual(4);
      if (r.passed) expect(r.verified).toMatchObject({ passed: true, predicted: r.predicted, tried: 1 });
      if (r.verified!.passed) expect(await engine.sameValue(String((await engine.record(items.find((i) => i.id === r.id)!.code, `f(${r.verified!.predicted})`)).exit.value), items.find((i) => i.id === r.id)!.output)).toBe(true);
    }
    // seeded: the same calls again
    const again = await evalCruxeval(model, engine, items, { task: 'input', verify: 4 });
    expect(again.verified).toEqual(result.verified);
  }, 300_000);
});
