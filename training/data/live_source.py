"""A ``TokenSource`` that draws trajectories on the fly from worker processes: for GPU training
with no dataset on disk (a CUDA machine has Python but no Node: docs/architecture.md#python-versions).

Workers run the dataset builder's pipeline (``training.build_dataset``: programs from the generator
and the standard library, traced in-process by ``src/realEngine/tracer.py`` (through ``training.real_engine``), trajectories drawn with the
data policy, tokenized) on an endless stream of program indices. Their documents (each followed by
``<|endoftext|>``) go to a rolling buffer per split (train, or val for the generator's held-out
programs); ``batch`` samples windows from the buffer, taking in whatever the workers have finished
without waiting, and waits only while a buffer is too small. When the trainer consumes tokens
faster than the workers make them, windows are reused from the buffer rather than stalling.

Needs Python ≥ 3.12: older interpreters trace differently (docs/architecture.md#python-versions). Under DDP give each rank
its own ``rank`` so that ranks draw different programs.

    LiveSource(Path("tokenizer_dir"), workers=8)
"""

from __future__ import annotations

import collections
import multiprocessing as mp
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Optional

import numpy as np
import torch

from ..tokenizer import NdbTokenizer


class LiveSourceError(RuntimeError):
    pass


class LiveSource:
    def __init__(self, tokenizer_dir: Path, workers: int = 4, seed: int = 0, rank: int = 0, stdlib_share: float = 0.25,
                 per_program: int = 2, max_tokens: int = 2048, what_if_share: float = 0.1, buffer_tokens: int = 4_000_000, task_size: int = 16,
                 wait_timeout: float = 600.0, allow_node: bool = False) -> None:
        from .. import build_dataset as bd

        if not bd.IN_PROCESS and not allow_node:
            raise LiveSourceError(
                f"live data needs Python >= 3.12 (this is {sys.version.split()[0]}, whose traces differ: docs/architecture.md, Python versions); "
                "build a dataset with `python3 -m training.build_dataset` and train with --data instead"
            )
        self.tok = NdbTokenizer.load(Path(tokenizer_dir))
        self.vocab_size = self.tok.vocab_size
        self.eot = self.tok.eot_id
        self.seed = f"{seed}-r{rank}"
        self.opts = {"stdlib_share": stdlib_share, "per_program": per_program, "max_tokens": max_tokens,
                     "what_if_share": what_if_share}
        self.task_size = task_size
        self.buffer_tokens = buffer_tokens
        self.wait_timeout = wait_timeout
        self.workers = max(1, workers)
        self.rng = np.random.default_rng(zlib.crc32(self.seed.encode()))
        self.buffers: dict[str, np.ndarray] = {s: np.zeros(0, dtype=np.int64) for s in ("train", "val")}
        self.pending: dict[str, list[np.ndarray]] = {"train": [], "val": []}
        self.stats = collections.Counter()
        self._next = 0
        # spawn: the trainer may already hold a CUDA context, which must not be forked
        ctx = mp.get_context("spawn")
        backend_kw = {"max_events": 2000, "time_limit": 5.0, "hard_timeout": 30.0}
        self.pool = ctx.Pool(self.workers, initializer=bd._worker_init, initargs=(str(tokenizer_dir), backend_kw))
        self.inflight: collections.deque = collections.deque()
        self._work = bd._work
        self._top_up()

    # -- workers ---------------------------------------------------------------------------------

    def _top_up(self) -> None:
        while len(self.inflight) < 2 * self.workers:
            task = (self.seed, self._next, self.task_size, self.opts)
            self.inflight.append(self.pool.apply_async(self._work, (task,)))
            self._next += self.task_size

    def _take(self, block: bool) -> bool:
        """Moves finished results into the buffers; True if any was taken."""
        took = False
        while self.inflight and (self.inflight[0].ready() or (block and not took)):
            results = self.inflight.popleft().get(timeout=self.wait_timeout)
            took = True
            for r in results:
                self.stats["programs"] += 1
                self.stats[f"exit:{r.status}"] += 1
                split = "val" if r.held_out else "train"
                for doc in r.docs:
                    self.pending[split].append(doc.astype(np.int64))
                    self.pending[split].append(np.asarray([self.eot], dtype=np.int64))
                    self.stats[f"tokens:{split}"] += len(doc) + 1
                    self.stats["trajectories"] += 1
        self._top_up()
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
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None  # type: ignore[assignment]

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass


def live_source_from_args(tokenizer_dir: str, workers: Optional[int] = None, seed: int = 0, **kw: Any) -> LiveSource:
    """What ``training.train --live`` builds: one worker per spare core, ranks drawing apart."""
    import os

    rank = int(os.environ.get("RANK", 0))
    local = max(1, int(os.environ.get("LOCAL_WORLD_SIZE", 1)))
    n = workers if workers is not None else max(1, ((os.cpu_count() or 2) - local) // local)
    return LiveSource(Path(tokenizer_dir), workers=n, seed=seed, rank=rank, **kw)
