"""Weight-only quantized variants of an exported model, written with onnx + numpy alone:

- ``int8`` (``model_int8.onnx``): every MatMul with a weight initializer becomes
  DynamicQuantizeLinear + MatMulInteger (per-column symmetric weights in [-INT8_WEIGHT_MAX,
  INT8_WEIGHT_MAX], 7 bits: see below), fast on WASM;
- ``q4`` (``model_q4.onnx``): the same MatMuls become ``com.microsoft.MatMulNBits`` (4-bit blocks of
  32 with a scale each), for WebGPU. The output projection (the MatMul that writes ``logits``) stays
  fp32: at 4 bits its errors shift the logit of the token that ends a state, and the model stopped
  states early.

`python3 -m training.quantize public/models/NAME [--only int8|q4]`
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

# The largest magnitude of an int8 weight. DynamicQuantizeLinear makes the activations uint8 (0..255),
# and onnxruntime's x86 kernels without VNNI (AVX2: vpmaddubsw) add the products of two adjacent
# u8 x s8 pairs in a saturating int16 before widening. With 8-bit weights that sum reaches
# 2 * 255 * 127 = 64,770 and clips at 32,767: on an AMD EPYC of these machines (AVX2, no VNNI) the
# tiny test model's int8 logits correlated 0.777 with fp32. With |w| <= 63 the sum is at most
# 2 * 255 * 63 = 32,130, so no x86 kernel can saturate (onnxruntime's quantizer calls this
# reduce_range); VNNI and WASM compute in int32 and only lose the eighth bit's precision.
INT8_WEIGHT_MAX = 63


def _weight_matmuls(model: onnx.ModelProto) -> list[tuple[onnx.NodeProto, np.ndarray]]:
    inits = {i.name: i for i in model.graph.initializer}
    found = []
    for node in model.graph.node:
        if node.op_type == "MatMul" and node.input[1] in inits:
            w = numpy_helper.to_array(inits[node.input[1]])
            if w.ndim == 2 and w.dtype == np.float32:
                found.append((node, w))
    return found


def _drop_unused_initializers(model: onnx.ModelProto) -> None:
    used = {name for node in model.graph.node for name in node.input}
    keep = [i for i in model.graph.initializer if i.name in used]
    del model.graph.initializer[:]
    model.graph.initializer.extend(keep)


def _replace(model: onnx.ModelProto, old: onnx.NodeProto, new_nodes: list[onnx.NodeProto]) -> None:
    nodes = list(model.graph.node)
    at = nodes.index(old)
    nodes[at : at + 1] = new_nodes
    del model.graph.node[:]
    model.graph.node.extend(nodes)


def quantize_columns(w: np.ndarray, limit: int = INT8_WEIGHT_MAX) -> tuple[np.ndarray, np.ndarray]:
    """W [K, N] -> (int8 [K, N] in [-limit, limit], float32 scale [N]): one symmetric scale a column
    (an output feature), so that w ~= q * scale."""
    scale = (np.abs(w).max(axis=0) / float(limit)).astype(np.float32)
    scale[scale == 0] = 1.0
    q = np.clip(np.round(w / scale), -limit, limit).astype(np.int8)
    return q, scale


def quantize_int8(src: Path, dst: Path) -> int:
    model = onnx.load(str(src))
    count = 0
    for node, w in _weight_matmuls(model):
        base = node.output[0].replace("/", "_").strip("_")
        q, scale = quantize_columns(w)
        model.graph.initializer.extend(
            [
                numpy_helper.from_array(q, f"{base}_wq"),
                numpy_helper.from_array(scale.astype(np.float32), f"{base}_ws"),
                numpy_helper.from_array(np.array(0, dtype=np.int8), f"{base}_wzp"),
            ]
        )
        a = node.input[0]
        new = [
            helper.make_node("DynamicQuantizeLinear", [a], [f"{base}_aq", f"{base}_as", f"{base}_azp"], name=f"{base}_dql"),
            helper.make_node("MatMulInteger", [f"{base}_aq", f"{base}_wq", f"{base}_azp", f"{base}_wzp"], [f"{base}_acc"], name=f"{base}_mmi"),
            helper.make_node("Cast", [f"{base}_acc"], [f"{base}_accf"], to=TensorProto.FLOAT, name=f"{base}_cast"),
            helper.make_node("Mul", [f"{base}_accf", f"{base}_as"], [f"{base}_scaled"], name=f"{base}_mul_a"),
            helper.make_node("Mul", [f"{base}_scaled", f"{base}_ws"], [node.output[0]], name=f"{base}_mul_w"),
        ]
        _replace(model, node, new)
        count += 1
    _drop_unused_initializers(model)
    onnx.save(model, str(dst))
    return count


def pack_q4(w: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """W [K, N] → (packed uint8 [N, K/block, block/2], scales float32 [N * K/block]).

    Each block of ``block`` weights along K gets scale = max|w| / 7; values are stored as
    unsigned 4-bit q + 8 (MatMulNBits' default zero point), two per byte, low nibble first."""
    k, n = w.shape
    blocks = k // block
    wt = w.T.reshape(n, blocks, block)
    scale = np.abs(wt).max(axis=2) / 7.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(wt / scale[:, :, None]), -8, 7).astype(np.int16) + 8
    q = q.astype(np.uint8)
    packed = (q[:, :, 0::2] | (q[:, :, 1::2] << 4)).astype(np.uint8)
    return packed, scale.reshape(-1).astype(np.float32)


def quantize_q4(src: Path, dst: Path, block: int = 32, keep_logits: bool = True) -> int:
    model = onnx.load(str(src))
    count = 0
    for node, w in _weight_matmuls(model):
        k, n = w.shape
        if k % block or (keep_logits and node.output[0] == "logits"):
            continue
        base = node.output[0].replace("/", "_").strip("_")
        packed, scales = pack_q4(w, block)
        model.graph.initializer.extend(
            [numpy_helper.from_array(packed, f"{base}_q4"), numpy_helper.from_array(scales, f"{base}_q4s")]
        )
        new = helper.make_node(
            "MatMulNBits",
            [node.input[0], f"{base}_q4", f"{base}_q4s"],
            [node.output[0]],
            name=f"{base}_nbits",
            domain="com.microsoft",
            K=k,
            N=n,
            bits=4,
            block_size=block,
        )
        _replace(model, node, [new])
        count += 1
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    _drop_unused_initializers(model)
    onnx.save(model, str(dst))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("--only", choices=["int8", "q4"])
    parser.add_argument("--q4-logits", action="store_true", help="quantize the output projection to 4 bits too")
    args = parser.parse_args(argv)
    src = args.model_dir / "onnx" / "model.onnx"
    if not src.exists():
        parser.error(f"{src} not found: export the model first (python3 -m training.export)")
    if args.only in (None, "int8"):
        print(f"int8: {quantize_int8(src, src.with_name('model_int8.onnx'))} MatMuls quantized")
    if args.only in (None, "q4"):
        print(f"q4: {quantize_q4(src, src.with_name('model_q4.onnx'), keep_logits=not args.q4_logits)} MatMuls quantized")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
