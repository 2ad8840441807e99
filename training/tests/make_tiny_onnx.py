"""Writes a tiny random decoder as ONNX (for TypeScript tests): `python3 -m training.tests.make_tiny_onnx OUT.onnx`."""

from __future__ import annotations

import sys
from pathlib import Path

import torch

from training.export import export_onnx
from training.model import Decoder, ModelConfig


def main() -> None:
    torch.manual_seed(7)
    model = Decoder(ModelConfig(vocab_size=64, dim=32, n_layers=2, n_heads=4, n_kv_heads=2, hidden_dim=64, max_seq_len=256))
    # Larger weights make the greedy choices less tie-prone, so cache bugs show up as differences.
    with torch.no_grad():
        for p in model.parameters():
            p.mul_(8.0)
    export_onnx(model, Path(sys.argv[1]))


if __name__ == "__main__":
    main()
