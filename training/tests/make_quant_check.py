"""For the TypeScript quantization test: writes a one-MatMul model, its q4 variant, an input and the
exact output of the dequantized weights: `python3 -m training.tests.make_quant_check DIR`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from training.quantize import pack_q4, quantize_q4


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    w = rng.standard_normal((64, 16)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "w"], ["y"])],
        "one_matmul",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 16])],
        [numpy_helper.from_array(w, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(out / "mm.onnx"))
    quantize_q4(out / "mm.onnx", out / "mm_q4.onnx")
    packed, scales = pack_q4(w, 32)
    q = np.zeros((16, 2, 32))
    q[:, :, 0::2] = packed & 15
    q[:, :, 1::2] = packed >> 4
    dequantized = ((q - 8) * scales.reshape(16, 2, 1)).reshape(16, 64).T
    a = rng.standard_normal((2, 64)).astype(np.float32)
    (out / "check.json").write_text(json.dumps({"a": a.reshape(-1).tolist(), "y": (a @ dequantized).reshape(-1).tolist()}))


if __name__ == "__main__":
    main()
