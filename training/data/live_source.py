"""A ``TokenSource`` that draws trajectories on the fly from worker processes: for GPU training
with no dataset on disk (a CUDA machine has Python but no Node: docs/architecture.md#python-versions).

Workers run the dataset builder's pipeline on a recipe (``training/data/recipe.py``: the same
sources and shares, trajectories, window and tracer limits as ``training.build_dataset``; programs
traced in-process by ``src/realEngine/tracer.py`` through ``training.real_engine``) over an endless
stream of program indices, taken back in program order with duplicates skipped as the builder
skips them. Rank 0 draws the recipe's own seed stream, so it sees the programs and documents a
dataset built from the same recipe holds; other ranks (DDP) draw streams of their own.
Documents (each followed by ``<|endoftext|>``) go to a rolling buffer per split (train, or val for
held-out programs); ``batch`` samples windows from the buffer, taking in whatever the workers have
finished without waiting, and waits only while a buffer is too small. When the trainer consumes
tokens faster than the workers make them, windows are reused from the buffer rather than stalling.
``stats`` counts what was drawn as the builder's ``stats.json`` does.

Needs Python ≥ 3.12: older interpreters trace differently (docs/architecture.md#python-versions).

    LiveSource(Path("tokenizer_dir"), Recipe.load("training/recipes/data80m_s15.json"), workers=8)
"""

from __future__ import annotations

import sys
import time
import zlib
from pathlib import Path
from typing import Any, Optional

import numpy as np
import torch

from ..tokenizer import NdbTokenizer
from ..trace_backend import IN_PROCESS
from .dataset_stats import Stats
from .recipe import Recipe
from .workers import Dedup, ProgramStream


class LiveSourceError(RuntimeError):
    pass


class LiveSource:
    def __init__(self, tokenizer_dir: Path, recipe: Optional[Recipe] = None, workers: int = 4, rank: int = 0,
                 buffer_tokens: int = 4_000_000, task_size: int = 16, wait_timeout: float = 600.0, allow_node: bool = False) -> None:
        if not IN_PROCESS and not allow_node:
            raise LiveSourceError(
                f"live data needs Python >= 3.12 (this is {sys.version.split()[0]}, whose traces differ: docs/architecture.md, Python versions); "
                "build a dataset with `python3 -m training.build_dataset` and train with --data instead"
            )
        self.recipe = recipe if recipe is not None else Recipe()
        self.tok = NdbTokenizer.load(Path(tokenizer_dir))
        self.vocab_size = self.tok.vocab_size
        self.eot = self.tok.eot_id
        # rank 0 draws the recipe's own stream (the programs a dataset of this recipe holds); other
        # ranks draw streams of their own
        self.seed: int | str = self.recipe.seed if rank == 0 else f"{self.recipe.seed}-r{rank}"
        self.buffer_tokens = buffer_tokens
        self.wait_timeout = wait_timeout
        self.rng = np.random.default_rng(zlib.crc32(str(self.seed).encode()))
        self.buffers: dict[str, np.ndarray] = {s: np.zeros(0, dtype=np.int64) for s in ("train", "val")}
        self.pending: dict[str, list[np.ndarray]] = {"train": [], "val": []}
        self.stats = Stats()  # what has been drawn, counted as the dataset builder counts it
        self.dedup = Dedup()
        if self.recipe.corpus_share > 0:
            from . import corpus

            corpus.load()  # fails here, with where it looked, when the corpus is missing (spawned workers read it again)
        # spawn: the trainer may already hold a CUDA context, which must not be forked
        self.stream = ProgramStream(self.recipe, Path(tokenizer_dir), self.seed, workers, task_size, start_method="spawn")
        self.stream.submit()

    # -- workers ---------------------------------------------------------------------------------

    def _take(self, block: bool) -> bool:
        """Moves finished results into the buffers, in program order; True if any was taken."""
        took = False
        while True:
            results = self.stream.next_task(block=block and not took, timeout=self.wait_timeout)
            if results is None:
                break
            took = True
            for r in results:
                if not self.dedup.first_time(r):  # as the builder skips them: the same mix
                    self.stats.add_duplicate(r)
                    continue
                split = "val" if r.held_out else "train"
                self.stats.add(r, split)
                for doc in r.docs:
                    self.pending[split].append(doc.astype(np.int64))
                    self.pending[split].append(np.asarray([self.eot], dtype=np.int64))
        if took:
            for split, parts in self.pending.items():
                if parts:
                    buf = np.concatenate([self.buffers[split], *parts])
                    self.buffers[split] = buf[-self.buffer_tokens :]
                    parts.clear()
        return took

    def fill(self, split: str, need: int) -> None:
        self._take(block=False)
        started = time.time()
        while len(self.buffers[split]) < need:
            if time.time() - started > self.wait_timeout:
                raise LiveSourceError(f"the workers made only {len(self.buffers[split])} {split} tokens in {self.wait_timeout:g} s")
            self._take(block=True)

    # -- TokenSource -----------------------------------------------------------------------------

    def batch(self, batch_size: int, seq_len: int, split: str = "train") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        self.fill(split, seq_len + 2)
        buf = self.buffers[split]
        starts = self.rng.integers(0, len(buf) - seq_len - 1, size=batch_size)
        rows = np.stack([buf[s : s + seq_len + 1] for s in starts])
        x = torch.from_numpy(rows[:, :-1].copy())
        y = torch.from_numpy(rows[:, 1:].copy())
        return x, y, torch.ones(batch_size, seq_len, dtype=torch.float32)

    def close(self) -> None:
        if getattr(self, "stream", None) is not None:
            self.stream.close()
            self.stream = None  # type: ignore[assignment]

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


def live_source_from_args(tokenizer_dir: str, recipe: Optional[Recipe] = None, workers: Optional[int] = None, **kw: Any) -> LiveSource:
    """What ``training.train --live`` builds: one worker per spare core, ranks drawing apart."""
    import os

    rank = int(os.environ.get("RANK", 0))
    local = max(1, int(os.environ.get("LOCAL_WORLD_SIZE", 1)))
    n = workers if workers is not None else max(1, ((os.cpu_count() or 2) - local) // local)
    return LiveSource(Path(tokenizer_dir), recipe, workers=n, rank=rank, **kw)
