"""Where training batches come from.

A ``TokenSource`` yields (inputs, targets, weights) tensors of shape [batch, seq]. ``ShardSource``
reads the sharded token arrays that the dataset builder writes (``shard_writer.py``): a folder with
``meta.json`` (``vocab_size``, ``dtype``, ``train`` and ``val`` file lists) and flat binary token
files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Protocol

import numpy as np
import torch


class TokenSource(Protocol):
    vocab_size: int

    def batch(self, batch_size: int, seq_len: int, split: str = "train") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        ...


class ShardSource:
    def __init__(self, folder: Path, seed: int = 0) -> None:
        meta_path = folder / "meta.json"
        if not meta_path.exists():
            raise FileNotFoundError(f"{meta_path} not found: build a dataset first (python3 -m training.build_dataset)")
        meta = json.loads(meta_path.read_text())
        self.vocab_size = int(meta["vocab_size"])
        dtype = np.dtype(meta.get("dtype", "uint16"))
        self.arrays = {
            split: [np.memmap(folder / name, dtype=dtype, mode="r") for name in meta[split]]
            for split in ("train", "val")
        }
        for split, arrays in self.arrays.items():
            if not arrays:
                raise ValueError(f"{folder}: no {split} shards")
        self.rng = np.random.default_rng(seed)
        # Windows start at a document (a trajectory) when the end-of-text id is known, so that
        # every window shows the source context its states refer to. A folder that only lists the
        # shards of other datasets (a mix) finds it beside those shards.
        eos = meta.get("eos_id")
        if eos is None:
            places = [folder, *sorted({(folder / name).parent for split in ("train", "val") for name in meta[split]})]
            eos = next((e for e in map(self._eos_from_tokenizer, places) if e is not None), None)
        if eos is None:
            print(f"warning: {folder}: no end-of-text id (meta.json eos_id or a tokenizer/ folder): "
                  "windows start anywhere, not at a trajectory", file=sys.stderr)
        self.starts: dict[str, list[np.ndarray]] | None = None
        if eos is not None:
            self.starts = {
                split: [np.concatenate([[0], np.flatnonzero(np.asarray(a) == eos) + 1]) for a in arrays]
                for split, arrays in self.arrays.items()
            }

    @staticmethod
    def _eos_from_tokenizer(folder: Path) -> int | None:
        config = folder / "tokenizer" / "tokenizer_config.json"
        if not config.exists():
            return None
        eos = json.loads(config.read_text()).get("ndb_special_ids", {}).get("eos")
        return int(eos) if eos is not None else None

    def batch(self, batch_size: int, seq_len: int, split: str = "train") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        arrays = self.arrays[split]
        sizes = np.array([len(a) for a in arrays], dtype=np.float64)
        rows = np.zeros((batch_size, seq_len + 1), dtype=np.int64)
        weights = np.ones((batch_size, seq_len), dtype=np.float32)
        for i in range(batch_size):
            which = int(self.rng.choice(len(arrays), p=sizes / sizes.sum()))
            shard = arrays[which]
            if self.starts is not None and len(shard) > seq_len + 1:
                starts = self.starts[split][which]
                starts = starts[starts < len(shard) - seq_len - 1]
                if len(starts):
                    start = int(starts[int(self.rng.integers(0, len(starts)))])
                    rows[i] = shard[start : start + seq_len + 1]
                    continue
            if len(shard) <= seq_len + 1:
                piece = np.asarray(shard, dtype=np.int64)
                rows[i, : len(piece)] = piece
                weights[i, max(0, len(piece) - 1):] = 0.0
            else:
                start = int(self.rng.integers(0, len(shard) - seq_len - 1))
                rows[i] = shard[start : start + seq_len + 1]
        x = torch.from_numpy(rows[:, :-1].copy())
        y = torch.from_numpy(rows[:, 1:].copy())
        return x, y, torch.from_numpy(weights)
