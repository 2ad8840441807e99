// The quantized variants written by training/quantize.py, run by onnxruntime: int8 stays close to
// fp32 on every x86 kind, and the 4-bit packing is exactly what MatMulNBits reads.
//
// int8 on x86 without VNNI (an AMD EPYC of these machines: AVX2 only) adds two adjacent u8 x s8
// products in a saturating int16, so 8-bit weights made this model's logits correlate 0.777 with
// fp32 there while a VNNI machine saw 0.998. Logits alone cannot catch that on a VNNI machine, so the
// test also checks what rules the saturation out everywhere: every MatMulInteger weight is within
// [-64, 63] (2 x 255 x 64 = 32,640 <= 32,767); training/tests/test_quantize_int8.py emulates the
// AVX2 arithmetic.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';

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

const VOCAB = 64; // training/tests/make_tiny_onnx.py

function argmaxes(logits: Float32Array, vocab: number): number[] {
  const out: number[] = [];
  for (let p = 0; p < logits.length / vocab; p++) {
    let best = 0;
    for (let v = 1; v < vocab; v++) if (logits[p * vocab + v]! > logits[p * vocab + best]!) best = v;
    out.push(best);
  }
  return out;
}

// [min, max] of the weight input of every MatMulInteger node of an ONNX file.
const WEIGHT_RANGES = `
import json, sys, onnx
from onnx import numpy_helper
m = onnx.load(sys.argv[1])
inits = {i.name: i for i in m.graph.initializer}
w = [numpy_helper.to_array(inits[n.input[1]]) for n in m.graph.node if n.op_type == "MatMulInteger"]
print(json.dumps([[int(a.min()), int(a.max())] for a in w]))
`;

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
    expect(argmaxes(logits[1]!, VOCAB)).toEqual(argmaxes(logits[0]!, VOCAB));
    const ranges = JSON.parse(py('-c', WEIGHT_RANGES, join(dir, 'onnx/model_int8.onnx')).toString()) as Array<[number, number]>;
    expect(ranges.length).toBe(15); // every MatMul with a weight: 7 a layer x 2 layers + the output projection
    for (const [lo, hi] of ranges) {
      expect(lo).toBeGreaterThanOrEqual(-64);
      expect(hi).toBeLessThanOrEqual(63);
    }
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
