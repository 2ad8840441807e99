// The quantized variants written by training/quantize.py, run by onnxruntime: int8 stays close to
// fp32, and the 4-bit packing is exactly what MatMulNBits reads.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../realEngine/node';

const py = (...args: string[]) => execFileSync('/usr/bin/python3', args, { cwd: REPO_ROOT, stdio: 'pipe' });

function feeds(): Record<string, ort.Tensor> {
  const ids = [5n, 9n, 2n, 31n, 7n];
  const f: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids), [1, 5]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(5).fill(1n), [1, 5]),
    position_ids: new ort.Tensor('int64', BigInt64Array.from([0n, 1n, 2n, 3n, 4n]), [1, 5]),
  };
  for (let i = 0; i < 2; i++) for (const k of ['key', 'value']) f[`past_key_values.${i}.${k}`] = new ort.Tensor('float32', new Float32Array(0), [1, 2, 0, 8]);
  return f;
}

function correlation(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb);
}

describe('quantized models', () => {
  it('int8 (MatMulInteger) follows fp32', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-q-'));
    py('-m', 'training.tests.make_tiny_onnx', join(dir, 'onnx/model.onnx'));
    py('-m', 'training.quantize', dir, '--only', 'int8');
    const logits: Float32Array[] = [];
    for (const name of ['model.onnx', 'model_int8.onnx']) {
      const s = await ort.InferenceSession.create(join(dir, 'onnx', name));
      logits.push((await s.run(feeds())).logits!.data as Float32Array);
    }
    expect(correlation(logits[0]!, logits[1]!)).toBeGreaterThan(0.99);
  }, 60_000);

  it('q4 (MatMulNBits) computes exactly the dequantized product', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-q4-'));
    py('-m', 'training.tests.make_quant_check', dir);
    const check = JSON.parse(readFileSync(join(dir, 'check.json'), 'utf8')) as { a: number[]; y: number[] };
    const s = await ort.InferenceSession.create(join(dir, 'mm_q4.onnx'));
    const y = (await s.run({ a: new ort.Tensor('float32', Float32Array.from(check.a), [2, 64]) })).y!.data as Float32Array;
    expect(y.length).toBe(check.y.length);
    check.y.forEach((v, i) => expect(y[i]).toBeCloseTo(v, 3));
  }, 60_000);
});
