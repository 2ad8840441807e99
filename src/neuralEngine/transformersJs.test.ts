// The exported model folder as transformers.js loads it in Node: same token ids as the Python
// tokenizer, same logits as PyTorch.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, env } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { wrapTokenizer } from './hfTokenizer';

describe('an exported model in transformers.js', () => {
  it('gives PyTorch’s logits for the Python tokenizer’s ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-hf-'));
    execFileSync('/usr/bin/python3', ['-m', 'training.tests.make_tiny_model_dir', dir], { cwd: REPO_ROOT, stdio: 'pipe' });
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as { prompt: string; ids: number[]; logits_last: number[] };
    env.allowRemoteModels = false;
    env.localModelPath = `${dir}/`;
    const tokenizer = await AutoTokenizer.from_pretrained('model');
    const ids = tokenizer.encode(expected.prompt, { add_special_tokens: false });
    expect(ids).toEqual(expected.ids);
    // The wrapper the engines use: the same ids, their text back, and '' for none (a state the
    // model ended at once), where transformers.js itself throws.
    const wrapped = wrapTokenizer(tokenizer);
    expect(wrapped.encode(expected.prompt)).toEqual(expected.ids);
    expect(wrapped.decode(expected.ids)).toBe(expected.prompt);
    expect(wrapped.decode([])).toBe('');
    const model = await AutoModelForCausalLM.from_pretrained('model', { dtype: 'fp32' });
    const inputs = tokenizer(expected.prompt, { add_special_tokens: false });
    const out = (await model(inputs)) as { logits: { dims: number[]; data: Float32Array } };
    const [, seq, vocab] = out.logits.dims as [number, number, number];
    const last = out.logits.data.slice((seq - 1) * vocab, seq * vocab);
    expect(vocab).toBe(expected.logits_last.length);
    let maxDiff = 0;
    expected.logits_last.forEach((v, i) => (maxDiff = Math.max(maxDiff, Math.abs(v - last[i]!))));
    expect(maxDiff).toBeLessThan(1e-3);
    // and greedy generation runs through transformers.js's own loop with the KV cache
    const generated = (await model.generate({ ...inputs, max_new_tokens: 4, do_sample: false })) as { dims: number[] };
    expect(generated.dims[1]).toBe(seq + 4);
  }, 120_000);
});
