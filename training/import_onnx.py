"""Reads a shipped model folder (``config.json`` + ``onnx/model.onnx``, fp32) back into PyTorch
weights, so that training can go on from the model the app ships when its checkpoint is gone:

    python3 -m training.import_onnx public/models/ndb-cpu-6m --out runs/shipped.pt

The exporter names most weights after their graph nodes (``onnx::MatMul_1047``), not after the
module they came from, and stores them transposed. So the mapping is found, not assumed: a model
of the same configuration with random weights is exported by the same code, and each of its
initializers is matched to the parameter it holds; the shipped file, exported by that code from a
model of that configuration, uses the same names. Afterwards the imported weights are exported
again and compared with the shipped file, initializer by initializer.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from training.export import export_onnx
from training.model import Decoder, ModelConfig


def config_from_hf(hf: dict[str, Any]) -> ModelConfig:
    return ModelConfig.from_dict({
        "vocab_size": hf["vocab_size"], "dim": hf["hidden_size"], "n_layers": hf["num_hidden_layers"],
        "n_heads": hf["num_attention_heads"], "n_kv_heads": hf["num_key_value_heads"], "hidden_dim": hf["intermediate_size"],
        "max_seq_len": hf["max_position_embeddings"], "norm_eps": hf["rms_norm_eps"], "rope_theta": hf["rope_theta"],
        "tie_embeddings": hf["tie_word_embeddings"],
    })


def _initializers(path: Path) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}


def _mapping(model: Decoder) -> dict[str, tuple[str, bool]]:
    """{initializer name: (parameter name, stored transposed)} for this configuration's export."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "probe.onnx"
        export_onnx(model, path)
        inits = _initializers(path)
    params = {name: p.detach().numpy() for name, p in model.named_parameters()}
    out: dict[str, tuple[str, bool]] = {}
    for init_name, arr in inits.items():
        for name, p in params.items():
            if arr.shape == p.shape and np.array_equal(arr, p):
                out[init_name] = (name, False)
                break
            if arr.ndim == 2 and arr.shape == p.T.shape and np.array_equal(arr, p.T):
                out[init_name] = (name, True)
                break
    return out


def import_model(model_dir: Path) -> Decoder:
    cfg = config_from_hf(json.loads((model_dir / "config.json").read_text()))
    probe = Decoder(cfg)
    with torch.no_grad():  # distinct values everywhere (norms start as ones), so each match is unique
        for p in probe.parameters():
            p.copy_(torch.randn_like(p))
    mapping = _mapping(probe)
    shipped = _initializers(model_dir / "onnx" / "model.onnx")
    model = Decoder(cfg)
    state = model.state_dict()
    filled: set[str] = set()
    for init_name, (param, transposed) in mapping.items():
        if init_name not in shipped:
            raise ValueError(f"{model_dir}: the ONNX file has no initializer {init_name}: it was not exported by training/export.py from this configuration")
        arr = shipped[init_name].T if transposed else shipped[init_name]
        state[param].copy_(torch.from_numpy(np.ascontiguousarray(arr)))
        filled.add(param)
    missing = {n for n, _ in model.named_parameters()} - filled
    if missing:
        raise ValueError(f"{model_dir}: no weights found for {sorted(missing)}")
    model.load_state_dict(state)
    # the round trip: the imported weights must export to exactly the shipped ones
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "again.onnx"
        export_onnx(model, path)
        again = _initializers(path)
    for init_name in mapping:
        if not np.array_equal(again[init_name], shipped[init_name]):
            raise ValueError(f"{model_dir}: {init_name} differs after the round trip")
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.import_onnx", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_dir", type=Path, help="a model folder: config.json and onnx/model.onnx (fp32)")
    ap.add_argument("--out", type=Path, required=True, help="the checkpoint to write (train.py --init reads it)")
    args = ap.parse_args(argv)
    try:
        model = import_model(args.model_dir)
    except (OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "model_config": model.cfg.to_dict(), "step": 0,
                "imported_from": str(args.model_dir)}, args.out)
    print(f"{args.out}: {model.num_parameters():,} parameters from {args.model_dir}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
