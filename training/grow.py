"""Deepens a trained model without changing what it computes: `python3 -m training.grow CKPT --layers 12 --out OUT.pt`.

Each original block is followed by copies of itself whose output projections (`o_proj`,
`down_proj`) are zero, so every new block adds nothing to the residual stream and the deeper model
gives the same logits as the one it grew from. Training then starts from everything the small
model knew, with the room of the large one: on a 2-core CPU that is far cheaper than training the
large one from scratch. (Copying the input-side weights rather than drawing them at random gives
the new blocks useful features from the first step; the zero output projections receive gradients
at once, the other weights as soon as those move.)
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import torch

from training.model import Decoder, ModelConfig

ZEROED = ("self_attn.o_proj.weight", "mlp.down_proj.weight")


def grown_state(state: dict[str, torch.Tensor], old_layers: int, new_layers: int) -> dict[str, torch.Tensor]:
    """The state dict of a `new_layers`-deep model whose block j copies block j * old // new: each
    old block in order, followed by its copies (8 -> 12: every other block gets one; 8 -> 16: each)."""
    if new_layers < old_layers:
        raise ValueError(f"can grow {old_layers} layers only to as many or more, not {new_layers}")
    source = [j * old_layers // new_layers for j in range(new_layers)]
    layer_key = re.compile(r"^layers\.(\d+)\.(.+)$")
    out: dict[str, torch.Tensor] = {}
    for key, value in state.items():
        match = layer_key.match(key)
        if match is None:
            out[key] = value.clone()
            continue
        old, rest = int(match.group(1)), match.group(2)
        for new, src in enumerate(source):
            if src != old:
                continue
            tensor = value.clone()
            # a copy (not the block's first place) adds nothing to the residual stream at first
            if new > 0 and source[new - 1] == src and rest in ZEROED:
                tensor.zero_()
            out[f"layers.{new}.{rest}"] = tensor
    return out


def grow_checkpoint(path: Path, new_layers: int) -> dict[str, object]:
    ckpt = torch.load(path, map_location="cpu")
    cfg = ModelConfig.from_dict(ckpt["model_config"])
    state = grown_state(ckpt["model"], cfg.n_layers, new_layers)
    new_cfg = ModelConfig.from_dict({**cfg.to_dict(), "n_layers": new_layers})
    model = Decoder(new_cfg)
    model.load_state_dict(state)  # strict: a missing or extra tensor is an error here, not later
    return {"model": model.state_dict(), "model_config": new_cfg.to_dict(), "grown_from": str(path), "step": 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("checkpoint", type=Path, help="a checkpoint of training.train or training.import_onnx")
    parser.add_argument("--layers", type=int, required=True, help="the new depth: at least the old one (8 -> 12 copies every other block)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        grown = grow_checkpoint(args.checkpoint, args.layers)
    except (ValueError, OSError, KeyError) as err:
        print(f"grow: {err}", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(grown, args.out)
    n = sum(t.numel() for k, t in grown["model"].items() if k != "lm_head.weight")  # type: ignore[union-attr]
    print(f"grew {args.checkpoint} to {args.layers} layers ({n:,} parameters): {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
