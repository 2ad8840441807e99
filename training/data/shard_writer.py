"""Writes token shards, the layout ``token_source.ShardSource`` reads: a folder with ``meta.json``
(``vocab_size``, ``dtype``, the ``train`` and ``val`` file lists) and flat binary token files
``{split}_{i:03d}.bin`` (uint16 when the vocabulary fits, else uint32).

``ShardWriter`` writes a stream of documents as shards fill (the dataset builder); ``write_shards``
writes whole arrays at once (tests).
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import numpy as np


class ShardWriter:
    """Writes token shards as they fill, in the layout of ``write_shards`` (flat
    ``{split}_{i:03d}.bin`` files and ``meta.json``); each split's stream starts with
    ``<|endoftext|>`` and every document is followed by one."""

    def __init__(self, out: Path, vocab_size: int, shard_tokens: int, eot: int) -> None:
        self.out = out
        self.vocab_size = vocab_size
        self.dtype = np.uint16 if vocab_size <= 65535 else np.uint32
        self.shard_tokens = max(2, shard_tokens)
        self.eot = eot
        self.parts: dict[str, list[np.ndarray]] = {s: [np.asarray([eot], dtype=self.dtype)] for s in ("train", "val")}
        self.sizes = {s: 1 for s in ("train", "val")}
        self.files: dict[str, list[str]] = {"train": [], "val": []}
        self.written = collections.Counter()
        for old in list(out.glob("train_*.bin")) + list(out.glob("val_*.bin")):
            old.unlink()

    def add(self, split: str, doc: np.ndarray) -> None:
        self.parts[split].append(np.asarray(doc, dtype=self.dtype))
        self.parts[split].append(np.asarray([self.eot], dtype=self.dtype))
        self.sizes[split] += len(doc) + 1
        if self.sizes[split] >= self.shard_tokens:
            self._flush(split, final=False)

    def _flush(self, split: str, final: bool) -> None:
        flat = np.concatenate(self.parts[split]) if self.parts[split] else np.zeros(0, dtype=self.dtype)
        while len(flat) >= self.shard_tokens or (final and len(flat)):
            piece, flat = flat[: self.shard_tokens], flat[self.shard_tokens :]
            name = f"{split}_{len(self.files[split]):03d}.bin"
            piece.tofile(self.out / name)
            self.files[split].append(name)
            self.written[split] += len(piece)
        self.parts[split] = [flat] if len(flat) else []
        self.sizes[split] = len(flat)

    def close(self) -> None:
        for split in ("train", "val"):
            self._flush(split, final=True)
        meta = {"vocab_size": self.vocab_size, "dtype": np.dtype(self.dtype).name, **self.files}
        (self.out / "meta.json").write_text(json.dumps(meta, indent=2))


def write_shards(folder: Path, vocab_size: int, train: list[np.ndarray], val: list[np.ndarray]) -> None:
    """Writes token arrays in the layout ShardSource reads (used by the builder and by tests)."""
    folder.mkdir(parents=True, exist_ok=True)
    dtype = np.uint16 if vocab_size <= 65535 else np.uint32
    meta: dict[str, object] = {"vocab_size": vocab_size, "dtype": np.dtype(dtype).name, "train": [], "val": []}
    for split, arrays in (("train", train), ("val", val)):
        for i, arr in enumerate(arrays):
            name = f"{split}_{i:03d}.bin"
            np.asarray(arr, dtype=dtype).tofile(folder / name)
            meta[split].append(name)  # type: ignore[union-attr]
    (folder / "meta.json").write_text(json.dumps(meta, indent=2))
