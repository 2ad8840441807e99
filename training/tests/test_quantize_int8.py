"""int8 weights that no x86 kernel of onnxruntime can saturate (issue 32, item 0).

The failure needs a CPU with AVX2 and without VNNI (an AMD EPYC of these machines), so it cannot be
reproduced by running onnxruntime on a machine with VNNI; instead the arithmetic of that kernel is
emulated here: vpmaddubsw multiplies unsigned activation bytes by signed weight bytes and adds each
two adjacent products in a saturating int16 before the int32 sums.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper

from training.quantize import INT8_WEIGHT_MAX, quantize_columns, quantize_int8

INT16_MAX, INT16_MIN = 32767, -32768


def avx2_u8s8(a: np.ndarray, q: np.ndarray) -> np.ndarray:
    """a [M, K] uint8 x q [K, N] int8 as the AVX2 path computes it: products of adjacent k pairs
    summed with int16 saturation, then summed in int32."""
    prod = a.astype(np.int32)[:, :, None] * q.astype(np.int32)[None, :, :]  # [M, K, N]
    pairs = prod[:, 0::2, :] + prod[:, 1::2, :]
    return np.clip(pairs, INT16_MIN, INT16_MAX).sum(axis=1)


def test_the_weight_range_cannot_saturate_a_pair() -> None:
    assert 2 * 255 * INT8_WEIGHT_MAX <= INT16_MAX
    assert 2 * 255 * 127 > INT16_MAX  # the 8-bit range did


def test_quantized_columns_match_the_exact_product_under_avx2_arithmetic() -> None:
    rng = np.random.default_rng(3)
    w = rng.standard_normal((64, 32)).astype(np.float32)
    # activations near the top of the byte range, as DynamicQuantizeLinear makes for large inputs
    a = rng.integers(200, 256, size=(8, 64)).astype(np.uint8)
    exact = lambda q: a.astype(np.int64) @ q.astype(np.int64)  # noqa: E731
    q7, scale = quantize_columns(w)
    assert q7.min() >= -INT8_WEIGHT_MAX and q7.max() <= INT8_WEIGHT_MAX
    assert np.array_equal(avx2_u8s8(a, q7), exact(q7))
    # the 8-bit weights of before, on the same inputs, do saturate (the bug this range avoids)
    q8, _ = quantize_columns(w, limit=127)
    assert not np.array_equal(avx2_u8s8(a, q8), exact(q8))
    # and the 7-bit weights still describe w closely (per-column scale)
    err = np.abs(q7 * scale - w).max(axis=0)
    assert (err <= scale / 2 + 1e-6).all()


def test_quantized_model_has_only_non_saturating_weights(tmp_path: Path) -> None:
    import torch

    from training.export import export_onnx
    from training.model import Decoder, ModelConfig

    torch.manual_seed(0)
    model = Decoder(ModelConfig(vocab_size=64, dim=32, n_layers=2, n_heads=4, n_kv_heads=2, hidden_dim=64, max_seq_len=64))
    src = tmp_path / "model.onnx"
    export_onnx(model, src)
    n = quantize_int8(src, tmp_path / "model_int8.onnx")
    q = onnx.load(str(tmp_path / "model_int8.onnx"))
    inits = {i.name: i for i in q.graph.initializer}
    weights = [numpy_helper.to_array(inits[node.input[1]]) for node in q.graph.node if node.op_type == "MatMulInteger"]
    assert len(weights) == n > 0
    for wq in weights:
        assert wq.dtype == np.int8 and wq.min() >= -INT8_WEIGHT_MAX and wq.max() <= INT8_WEIGHT_MAX
