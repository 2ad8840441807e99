"""Depth growth keeps what the model computes, and the wsd schedule holds then decays."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from training.grow import grow_checkpoint, grown_state
from training.model import Decoder, ModelConfig
from training.train import lr_at


def grown_pair(tmp_path: Path, layers: int, new_layers: int, seed: int) -> tuple[Decoder, Decoder, dict[str, object]]:
    """A small model with trained-looking weights (none of them zero), and itself grown: both in
    eval mode, after checking that they give the same logits."""
    torch.manual_seed(seed)
    cfg = ModelConfig(vocab_size=64, dim=32, n_layers=layers, n_heads=4, n_kv_heads=2, hidden_dim=48, max_seq_len=64)
    small = Decoder(cfg)
    with torch.no_grad():
        for p in small.parameters():
            p.add_(0.02 * torch.randn_like(p))
    path = tmp_path / "small.pt"
    torch.save({"model": small.state_dict(), "model_config": cfg.to_dict()}, path)
    grown = grow_checkpoint(path, new_layers)
    big = Decoder(ModelConfig.from_dict(grown["model_config"]))  # type: ignore[arg-type]
    big.load_state_dict(grown["model"])  # type: ignore[arg-type]
    assert big.num_parameters() > small.num_parameters()
    ids = torch.randint(0, 64, (2, 20))
    small.eval()
    big.eval()
    with torch.no_grad():
        assert torch.allclose(small(ids), big(ids), atol=1e-5)
    return small, big, grown


def test_a_grown_model_gives_the_same_logits_and_its_new_blocks_can_learn(tmp_path: Path) -> None:
    _, big, _ = grown_pair(tmp_path, 2, 4, seed=0)
    ids = torch.randint(0, 64, (2, 20))
    # the new blocks' output projections start at zero and get gradients at once
    big.train()
    big(ids).sum().backward()
    new_out = dict(big.named_parameters())["layers.1.self_attn.o_proj.weight"]
    assert float(new_out.abs().sum()) == 0.0 and new_out.grad is not None and float(new_out.grad.abs().sum()) > 0


def test_growth_to_a_depth_that_is_no_multiple_keeps_the_logits(tmp_path: Path) -> None:
    """8 -> 12 as the lease's size comparison grows it (issue 45, item 9): every other block copied."""
    small, _, grown = grown_pair(tmp_path, 4, 6, seed=1)
    state = grown["model"]
    assert isinstance(state, dict)
    # blocks 0, 2, 3, 5 are the originals 0, 1, 2, 3; blocks 1 and 4 zero-output copies of 0 and 2
    zero = [j for j in range(6) if float(state[f"layers.{j}.mlp.down_proj.weight"].abs().sum()) == 0.0]
    assert zero == [1, 4]
    assert torch.equal(state["layers.3.mlp.up_proj.weight"], small.state_dict()["layers.2.mlp.up_proj.weight"])


def test_growth_never_shrinks() -> None:
    with pytest.raises(ValueError):
        grown_state({}, 4, 3)


def test_wsd_warms_up_holds_and_decays_linearly_to_the_end() -> None:
    cfg = {"warmup": 10, "lr": 2e-4, "min_lr": 2e-5, "steps": 1_000, "schedule": "wsd", "decay_steps": 200}
    assert lr_at(0, cfg) == pytest.approx(2e-5)
    assert lr_at(500, cfg) == pytest.approx(2e-4)
    assert lr_at(799, cfg) == pytest.approx(2e-4)
    assert lr_at(900, cfg) == pytest.approx(1.1e-4)
    assert lr_at(1_000, cfg) == pytest.approx(2e-5)
    # ending earlier: the same run with fewer steps decays from there
    assert lr_at(500, {**cfg, "steps": 700}) == pytest.approx(2e-4)
    assert lr_at(600, {**cfg, "steps": 700}) == pytest.approx(1.1e-4)
