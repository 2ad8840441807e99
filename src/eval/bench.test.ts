// `ndb bench` on the shipped model, kept small: one program, three actions, short states.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProgramHeader } from '../core/programHeader';
import { defaultModelDir, loadNodeModel } from '../neuralEngine/nodeModel';
import { REPO_ROOT } from '../util/repoRoot';
import { loadPythonHost } from '../realEngine/pythonHost';
import { medianResult, runBench } from './bench';

describe('ndb bench', () => {
  it('measures the engine beside a bare session and prefills only what is new', async () => {
    const model = await loadNodeModel(defaultModelDir(), 'fp32');
    const { call, body } = parseProgramHeader(readFileSync(join(REPO_ROOT, 'examples/01_loop_sum.py'), 'utf8'));
    const lines: Array<{ prompt_tokens: number; prefill_tokens: number }> = [];
    const r = await runBench(model, await loadPythonHost(), [{ id: '01_loop_sum', source: body, call }], {
      actions: ['step_into', 'step_over', 'step_over'],
      maxNewTokens: 24,
      onState: (l) => lines.push(l),
    });
    expect(r.states).toBe(3);
    expect(r.programs).toBe(1);
    expect(lines).toHaveLength(3);
    for (const key of ['tokens_per_s', 'raw_tokens_per_s', 'decoded_tokens_per_s', 'ms_per_state', 'prefill_tokens_per_state'] as const) {
      expect(r[key]).toBeGreaterThan(0);
    }
    // The first state runs its whole prompt; later ones only the action and the real state.
    expect(lines[0]!.prefill_tokens).toBe(lines[0]!.prompt_tokens);
    for (const l of lines.slice(1)) expect(l.prefill_tokens).toBeLessThan(l.prompt_tokens / 2);
    expect(model.predictor.maxNewTokens).toBe(384);
  }, 120_000);
});

describe('ndb bench --runs', () => {
  it('reports the median of each number', () => {
    const run = (ratio: number, ms: number) => ({ ...base, ratio, ms_per_state: ms });
    const base = { model: 'm', dtype: 'int8', programs: 6, states: 42, tokens_per_s: 1, raw_tokens_per_s: 1, decoded_tokens_per_s: 1, multi_token_runs: 0.3, ratio: 0, ms_per_state: 0, prefill_tokens_per_state: 25, prompt_tokens_per_state: 154, appended_tokens_per_state: 30, new_tokens_per_state: 24, raw_prefill_ms_per_state: 4, engine_prefill_ms_per_state: 3, threads: 2 };
    const m = medianResult([run(0.7, 30), run(0.99, 15), run(0.86, 18)]);
    expect(m).toMatchObject({ runs: 3, ratio: 0.86, ms_per_state: 18, model: 'm', states: 42 });
    expect(medianResult([run(0.7, 30), run(0.9, 10)]).ratio).toBe(0.8);
  });
});
