"""A lease's output back into a checkpoint: the parts put together (every hash checked), the bf16
weights widened to fp32, written as a checkpoint that ``training.export`` exports and
``training.train --init`` starts from (no optimizer state: the lease brings none back).

    python3 -m training.lease.unpack OUT --checkpoint runs/leases/NAME/checkpoint.pt

``training/lease.sh --import OUT MODEL_DIR`` runs this, then the export and the quantization.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Optional

import torch

from training.lease.parts import PartsError, read_parts
from training.model import Decoder, ModelConfig


def unpack(folder: Path, checkpoint: Path, tokenizer: Optional[Path] = None) -> dict:
    arrays, manifest = read_parts(folder)
    if tokenizer is not None:
        want = manifest.get("tokenizer", {}).get("tokenizer_json_sha256")
        have = hashlib.sha256((tokenizer / "tokenizer.json").read_bytes()).hexdigest()
        if want is not None and want != have:
            raise PartsError(f"the lease trained with another tokenizer than {tokenizer} (tokenizer.json sha256 {want}, this one {have})")
    model = Decoder(ModelConfig.from_dict(manifest["model_config"]))
    from training.lease.run import load_named

    load_named(model, {k: torch.from_numpy(v) for k, v in arrays.items()})
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "model_config": model.cfg.to_dict(), "step": manifest.get("step", 0),
                "config": manifest.get("config", {}), "tokens": manifest.get("tokens"),
                "from_lease": {k: manifest.get(k) for k in ("step", "tokens", "fresh_tokens", "final", "device", "precision",
                                                             "compile", "val_loss", "val_loss_bf16_weights", "sha256")}},
               checkpoint)
    return manifest


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.lease.unpack", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a lease's output ($OUT: manifest.json and weights-NN.bin)")
    ap.add_argument("--checkpoint", type=Path, required=True)
    ap.add_argument("--tokenizer", type=Path, default=None, help="check that the lease trained with this tokenizer")
    args = ap.parse_args(argv)
    try:
        manifest = unpack(args.folder, args.checkpoint, args.tokenizer)
    except (PartsError, OSError, ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    note = "" if manifest.get("final") else " (a snapshot taken before the end: its learning rate had not decayed)"
    print(f"{args.checkpoint}: step {manifest.get('step')}, {manifest.get('tokens'):,} tokens, "
          f"{manifest.get('parameters'):,} parameters from {len(manifest['parts'])} part(s), hashes checked{note}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
