"""The decoder, the trainer and the ONNX export on a tiny model (seconds on a CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import torch

from training.data.shard_writer import write_shards
from training.data.token_source import ShardSource
from training.export import export_onnx
from training.model import Decoder, ModelConfig
from training.train import load_config, load_model, train

TINY = Path(__file__).resolve().parents[1] / "configs" / "tiny.json"


def counting_data(folder: Path) -> ShardSource:
    rng = np.random.default_rng(0)

    def seq(n: int) -> np.ndarray:
        out: list[int] = []
        while len(out) < n:
            start = int(rng.integers(1, 40))
            out += list(range(start, start + 16))
        return np.array(out[:n])

    write_shards(folder, 64, [seq(8000)], [seq(2000)])
    return ShardSource(folder)


def test_cached_forward_matches_full_forward() -> None:
    torch.manual_seed(0)
    cfg = ModelConfig(vocab_size=50, dim=32, n_layers=2, n_heads=4, n_kv_heads=2, hidden_dim=64)
    model = Decoder(cfg).eval()
    x = torch.randint(0, 50, (2, 9))
    empty = [(torch.zeros(2, 2, 0, 8), torch.zeros(2, 2, 0, 8)) for _ in range(2)]
    with torch.no_grad():
        full = model(x)
        a, past = model.forward_cached(x[:, :5], torch.ones(2, 5, dtype=torch.long), torch.arange(5).expand(2, 5), empty)
        b, _ = model.forward_cached(x[:, 5:], torch.ones(2, 9, dtype=torch.long), torch.arange(5, 9).expand(2, 4), past)
    assert torch.allclose(full[:, :5], a, atol=1e-5)
    assert torch.allclose(full[:, 5:], b, atol=1e-5)


def test_training_lowers_the_loss_and_resumes(tmp_path: Path) -> None:
    source = counting_data(tmp_path / "data")
    config = load_config(TINY)
    out = tmp_path / "run"
    ckpt = train(config, source, out)
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert log[-1]["loss"] < log[0]["loss"] * 0.7
    assert "val_loss" in log[-1]
    assert (out / "loss.svg").read_text().startswith("<svg")
    config["train"]["steps"] = 35
    train(config, source, out, resume=True)
    assert torch.load(ckpt)["step"] == 35


def test_validation_loss_is_measured_on_the_same_batches(tmp_path: Path) -> None:
    """With a learning rate of 0 the weights never change, so every val-loss point must be equal."""
    source = counting_data(tmp_path / "data")
    config = load_config(TINY)
    config["train"].update(lr=0.0, min_lr=0.0, steps=12, log_every=3, eval_every=3, weight_decay=0.0)
    train(config, source, tmp_path / "run")
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    losses = [e["val_loss"] for e in log if "val_loss" in e]
    assert len(losses) == 4 and max(losses) - min(losses) < 1e-6


def test_export_has_the_transformers_js_inputs(tmp_path: Path) -> None:
    source = counting_data(tmp_path / "data")
    config = load_config(TINY)
    config["train"]["steps"] = 2
    ckpt = train(config, source, tmp_path / "run")
    model = load_model(ckpt)
    path = tmp_path / "onnx" / "model.onnx"
    export_onnx(model, path)
    graph = onnx.load(str(path)).graph
    names = [i.name for i in graph.input]
    assert names[:3] == ["input_ids", "attention_mask", "position_ids"]
    assert "past_key_values.1.value" in names
    assert [o.name for o in graph.output][:2] == ["logits", "present.0.key"]
    kv = next(i for i in graph.input if i.name == "past_key_values.0.key")
    dims = [d.dim_value or d.dim_param for d in kv.type.tensor_type.shape.dim]
    assert dims[1] == model.cfg.n_kv_heads and dims[3] == model.cfg.head_dim


def test_ddp_on_two_cpu_processes(tmp_path: Path) -> None:
    # Two ranks with the gloo backend, started with the environment torchrun gives each process
    # (Debian's torch 1.13 torchrun fails on Python 3.11 before starting workers): the same code
    # path as several GPUs with nccl.
    counting_data(tmp_path / "data")
    out = tmp_path / "ddp"
    command = [sys.executable, "-m", "training.train", "--config", str(TINY), "--data", str(tmp_path / "data"), "--out", str(out), "--steps", "10"]
    port = str(29500 + os.getpid() % 1000)
    ranks = [
        subprocess.Popen(
            command,
            cwd=Path(__file__).resolve().parents[2],
            env={**os.environ, "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": port, "WORLD_SIZE": "2", "RANK": str(r), "LOCAL_RANK": str(r)},
            stderr=subprocess.PIPE,
            text=True,
        )
        for r in range(2)
    ]
    for proc in ranks:
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err[-2000:]
    assert torch.load(out / "checkpoint.pt")["step"] == 10
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert log[-1]["step"] == 10 and log[-1]["loss"] < log[0]["loss"]
