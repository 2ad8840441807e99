// The cached greedy loop against a plain full-sequence run of the same ONNX model.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { argmax, CausalLM, type TensorFactory } from './causalLm';

const SHAPE = { layers: 2, kvHeads: 2, headDim: 8 };
let session: ort.InferenceSession;

beforeAll(async () => {
  // A tiny random decoder exported by the training code itself (seconds).
  const dir = mkdtempSync(join(tmpdir(), 'ndb-lm-'));
  const path = join(dir, 'model.onnx');
  execFileSync('/usr/bin/python3', ['-m', 'training.tests.make_tiny_onnx', path], { cwd: REPO_ROOT, stdio: 'pipe' });
  expect(existsSync(path)).toBe(true);
  session = await ort.InferenceSession.create(path);
}, 120_000);

function lm(): CausalLM {
  return new CausalLM(ort.Tensor as unknown as TensorFactory, session, SHAPE);
}

async function fullGreedy(prompt: number[], steps: number): Promise<number[]> {
  const tokens = [...prompt];
  const out: number[] = [];
  for (let s = 0; s < steps; s++) {
    const fresh = lm();
    const { logits } = await fresh.prefill(tokens);
    const next = argmax(logits);
    out.push(next);
    tokens.push(next);
  }
  return out;
}

describe('CausalLM', () => {
  it('decodes with the cache exactly as without it', async () => {
    const prompt = [5, 9, 2, 31, 7];
    const model = lm();
    const got = await model.generate(prompt, { maxNewTokens: 8, stopIds: new Set() });
    expect(got.stoppedBy).toBe('length');
    expect(got.prefillTokens).toBe(prompt.length);
    expect(got.tokens).toEqual(await fullGreedy(prompt, 8));
  });

  it('prefills only what is new, and rewinds to a common prefix', async () => {
    const model = lm();
    const first = await model.generate([1, 2, 3, 4], { maxNewTokens: 3, stopIds: new Set() });
    const cont = [1, 2, 3, 4, ...first.tokens, 11, 12];
    const second = await model.generate(cont, { maxNewTokens: 4, stopIds: new Set() });
    // the last generated token was never run through the model, so it is new too
    expect(second.prefillTokens).toBe(3);
    expect(second.tokens).toEqual(await fullGreedy(cont, 4));
    const diverged = [1, 2, 40, 41];
    const third = await model.generate(diverged, { maxNewTokens: 3, stopIds: new Set() });
    expect(third.prefillTokens).toBe(2);
    expect(third.tokens).toEqual(await fullGreedy(diverged, 3));
  });

  it('counts the decode runs that carried one token apart from those a choice filled with several', async () => {
    const plain = await lm().generate([5, 9, 2], { maxNewTokens: 6, stopIds: new Set() });
    // the first token comes from the prefill: five one-token runs follow
    expect(plain.decodeSteps).toBe(5);
    expect(plain.singleRuns).toBe(5);
    expect(plain.singleRunMs).toBeGreaterThan(0);
    expect(plain.singleRunMs).toBeLessThanOrEqual(plain.decodeMs);
    // a choice that forces three tokens at a time, then one, then stops
    const choices = [[1, 2, 3], [4], [5, 6, 7]];
    const chosen = await lm().generate([5, 9, 2], { maxNewTokens: 50, stopIds: new Set(), choose: () => ({ tokens: choices.shift() ?? [], stop: choices.length === 0 }) });
    expect(chosen.tokens).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(chosen.decodeSteps).toBe(2);
    expect(chosen.singleRuns).toBe(1);
  });

  it('stops at a stop token', async () => {
    const model = lm();
    const free = await model.generate([3, 1, 4], { maxNewTokens: 5, stopIds: new Set() });
    const stop = free.tokens[2]!;
    const stopped = await lm().generate([3, 1, 4], { maxNewTokens: 5, stopIds: new Set([stop]) });
    expect(stopped.stoppedBy).toBe('stop');
    expect(stopped.tokens.length).toBeLessThanOrEqual(3);
    expect(stopped.tokens[stopped.tokens.length - 1]).toBe(stop);
  });
});

describe('sample', () => {
  it('draws from softmax(logits / temperature)', async () => {
    const { sample } = await import('./causalLm');
    const logits = Float32Array.from([0, 10, 0]);
    expect(sample(logits, 1, () => 0.5)).toBe(1);
    expect(sample(logits, 1, () => 0)).toBe(0);
    expect(sample(logits, 1, () => 0.999999999)).toBe(2);
    const draws = new Set(Array.from({ length: 200 }, (_, i) => sample(Float32Array.from([1, 1, 1]), 1, () => (i + 0.5) / 200)));
    expect([...draws].sort()).toEqual([0, 1, 2]);
  });

  it('samples through generate with a temperature, greedy without', async () => {
    const model = lm();
    const greedy = await model.generate([3, 4, 5], { maxNewTokens: 6, stopIds: new Set() });
    let seed = 1;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const sampled = await model.generate([3, 4, 5], { maxNewTokens: 6, stopIds: new Set(), temperature: 5, random });
    expect(sampled.tokens).toHaveLength(6);
    const again = await model.generate([3, 4, 5], { maxNewTokens: 6, stopIds: new Set() });
    expect(again.tokens).toEqual(greedy.tokens);
  });
});
