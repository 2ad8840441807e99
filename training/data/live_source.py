"""A ``TokenSource`` that draws trajectories on the fly from worker processes: for GPU training
with no dataset on disk (a CUDA machine has Python but no Node: docs/architecture.md#python-versions).

Workers run the dataset builder's pipeline on a recipe (``training/data/recipe.py``: the same
sources and shares, trajectories, window and tracer limits as ``training.build_dataset``; programs
traced in-process by ``src/realEngine/python/tracer.py`` through ``training.real_engine``) over an endless
stream of program indices, taken back in program order with duplicates skipped as the builder
skips them. Rank 0 draws the recipe's own seed stream, so it sees the programs and documents a
dataset built from the same recipe holds; other ranks (DDP) draw streams of their own.
Documents (each followed by ``<|endoftext|>``) go to a rolling buffer per split (train, or val for
held-out programs, ``DocBuffer``); ``batch`` samples windows that start at a document, as
``ShardSource`` does, never at a random offset: a window's states always come after their source.
It takes in whatever the workers have finished without waiting, and waits only while a buffer is
too small (saying so in the log every 30 s). When the trainer consumes tokens faster than the
workers make them, windows are reused from the buffer rather than stalling; ``produced_tokens``
says how many fresh ones there were. A program that hangs a worker is given up after the recipe's
``hard_timeout`` (``workers.py``). ``stats`` counts what was drawn as the builder's ``stats.json`` does.

Needs Python ≥ 3.12 to trace: older interpreters trace differently (docs/architecture.md#python-versions).
This process may be older when ``worker_python`` names a Python ≥ 3.12 for the workers (the CPU
rehearsal of a GPU lease: training on Debian's torch, tracing under pyenv's 3.12).

    LiveSource(Path("tokenizer_dir"), Recipe.load("training/recipes/data80m_s15.json"), workers=8)
"""

from __future__ import annotations

import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable, Iterable, Optional

import numpy as np
import torch

from ..tokenizer import NdbTokenizer
from ..trace_backend import IN_PROCESS
from .dataset_stats import Stats
from .recipe import Recipe
from .workers import Dedup, ProgramStream, python_version


class LiveSourceError(RuntimeError):
    pass


class DocBuffer:
    """The newest documents of one split, back to back with ``<|endoftext|>`` after each, and where
    each starts. Trimmed at a document's start, so that every start it holds is one."""

    # int32: each flush copies the whole buffer (a GPU step takes in new documents almost every
    # time), and 4 M tokens are 16 MB so, not 32
    def __init__(self, eot: int, max_tokens: int) -> None:
        self.eot = eot
        self.max_tokens = max_tokens
        self.tokens = np.zeros(0, dtype=np.int32)
        self.starts = np.zeros(0, dtype=np.int64)
        self._pending: list[np.ndarray] = []
        self._pending_tokens = 0

    def add(self, doc: Any) -> None:
        self._pending.append(np.asarray(doc, dtype=np.int32))
        self._pending_tokens += len(self._pending[-1]) + 1

    def flush(self, force: bool = True) -> None:
        """Moves the added documents into the buffer. Unless ``force``, it waits until what is new is
        an eighth of what the buffer holds: each flush copies the whole buffer (4 M tokens: 20-40 ms
        here), and a GPU step that flushed every time would spend more on copies than on drawing its
        batch; growing by eighths keeps the copies at about 9 times the tokens kept, however large
        the buffer (the first lease's 4 M-token buffer was memorised: train loss 0.02, val 1.3)."""
        if not self._pending:
            return
        if not force and self._pending_tokens < min(len(self.tokens), self.max_tokens) // 8:
            return
        self._pending_tokens = 0
        lengths = np.array([len(d) + 1 for d in self._pending], dtype=np.int64)
        new_starts = len(self.tokens) + np.concatenate([[0], np.cumsum(lengths)[:-1]])
        eot = np.asarray([self.eot], dtype=np.int32)
        pieces = [p for d in self._pending for p in (d, eot)]
        self._pending.clear()
        tokens = np.concatenate([self.tokens, *pieces])
        starts = np.concatenate([self.starts, new_starts])
        if len(tokens) > self.max_tokens:
            # keep the newest documents: cut at the first start that leaves at most max_tokens
            keep = starts[starts >= len(tokens) - self.max_tokens]
            cut = int(keep[0]) if len(keep) else int(starts[-1])
            tokens, starts = tokens[cut:], starts[starts >= cut] - cut
        self.tokens, self.starts = tokens, starts

    def __len__(self) -> int:
        return len(self.tokens)

    def windows(self, rng: np.random.Generator, n: int, seq_len: int) -> np.ndarray:
        """``n`` rows of ``seq_len + 1`` tokens, each starting at a document drawn uniformly among
        those with a whole window after their start (one that runs past its document goes on into
        the next, which starts with its own source)."""
        room = self.starts[self.starts + seq_len + 1 <= len(self.tokens)]
        if not len(room):
            raise ValueError(f"no document starts with {seq_len + 1} tokens after it (the buffer holds {len(self.tokens)})")
        picks = room[rng.integers(0, len(room), size=n)]
        return np.stack([self.tokens[s : s + seq_len + 1] for s in picks]).astype(np.int64)


class LiveSource:
    def __init__(self, tokenizer_dir: Path, recipe: Optional[Recipe] = None, workers: int = 4, rank: int = 0,
                 buffer_tokens: int = 4_000_000, task_size: int = 16, wait_timeout: float = 600.0, allow_node: bool = False,
                 worker_python: Optional[str] = None, program_timeout: Optional[float] = None, runner: Optional[str] = None,
                 log: Optional[Callable[[str], None]] = None) -> None:
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        if worker_python is not None:
            version = python_version(worker_python)
            if version < (3, 12):
                raise LiveSourceError(f"worker_python {worker_python} is Python {version[0]}.{version[1]}: live data traces with Python >= 3.12")
        elif not IN_PROCESS and not allow_node:
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
        self.docs = {s: DocBuffer(self.eot, buffer_tokens) for s in ("train", "val")}
        self.produced_tokens = 0  # fresh train tokens taken in so far (documents and their end-of-text)
        self.carried: dict[str, DocBuffer] = {}  # documents built ahead (carry), by split
        self.carried_tokens = 0  # train tokens of those
        self.stats = Stats()  # what has been drawn, counted as the dataset builder counts it
        self.dedup = Dedup()
        if self.recipe.corpus_share > 0:
            from . import corpus

            # Fail here, saying where it looked, when the corpus is missing. Only its files are
            # checked: each worker loads it itself, from the extraction that lease.sh --pack carries
            # beside the archives (or the cache) in 0.1 s, else extracting it (in parallel; 40-70 s
            # on a loaded core); an extraction here as well would hold the workers' start back.
            missing = [c for c in corpus.COLLECTIONS if not (corpus.corpus_dir() / f"{c}.tar.gz").is_file()]
            if missing:
                raise LiveSourceError(f"the corpus of real code is missing: {', '.join(missing)} not found in {corpus.corpus_dir()} "
                                      "(expected ../shared/corpus beside the repository; set NDB_CORPUS to another folder)")
        # the workers are fresh interpreters (workers.py): never a fork of a trainer holding a CUDA context
        extra = {"runner": runner} if runner is not None else {}
        self.stream = ProgramStream(self.recipe, Path(tokenizer_dir), self.seed, workers, task_size, python=worker_python,
                                    program_timeout=program_timeout, log=self.log, **extra)
        self.stream.submit()

    @property
    def buffers(self) -> dict[str, np.ndarray]:
        """The tokens of each split's buffer."""
        return {split: buf.tokens for split, buf in self.docs.items()}

    # -- workers ---------------------------------------------------------------------------------

    def _take(self, block: bool) -> bool:
        """Moves finished results into the buffers, in program order; True if any was taken."""
        took = False
        while True:
            results = self.stream.next_task(block=block and not took, timeout=5.0)
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
                    self.docs[split].add(doc)
                    if split == "train":
                        self.produced_tokens += len(doc) + 1
        if took:
            for buf in self.docs.values():
                buf.flush(force=False)
        return took

    def fill(self, split: str, need: int) -> None:
        """Waits until the split's buffer holds ``need`` tokens, saying so every 30 s: a starving
        stream is never silent."""
        self._take(block=False)
        started = noted = time.time()
        if len(self.docs[split]) < need:
            self.docs[split].flush()  # when the buffer is short, whatever has come in counts at once
        while len(self.docs[split]) < need:
            now = time.time()
            if now - started > self.wait_timeout:
                raise LiveSourceError(f"the workers made only {len(self.docs[split])} {split} tokens in {self.wait_timeout:g} s "
                                      f"({self.stream.busy_note()})")
            if now - noted >= 30:
                noted = now
                self.log(f"live data: starving: waited {now - started:.0f} s for {need:,} {split} tokens, "
                         f"{len(self.docs[split]):,} so far; {self.stream.busy_note()}")
            self._take(block=True)
            self.docs[split].flush()

    # -- TokenSource -----------------------------------------------------------------------------

    def carry(self, docs: Iterable[np.ndarray], split: str = "train") -> int:
        """Documents built ahead (``training/ahead.py``'s shards, carried to a lease) drawn beside
        the live ones: each batch row comes from the carried or the live buffer in proportion to
        the tokens each holds, so that every fresh token, made here or ahead, is read about as often.
        Returns the tokens taken in (``carried_tokens`` counts them)."""
        buf = self.carried.setdefault(split, DocBuffer(self.eot, 1 << 62))
        before = len(buf)
        for arr in docs:
            # a shard is a stream of documents, each followed by <|endoftext|>: split it there
            ends = np.flatnonzero(arr == self.eot)
            start = 0
            for end in ends:
                if end > start:
                    buf.add(arr[start:end])
                start = end + 1
            if start < len(arr):
                buf.add(arr[start:])
            buf.flush()
        taken = len(buf) - before
        if split == "train":
            self.carried_tokens += taken
        return taken

    def batch(self, batch_size: int, seq_len: int, split: str = "train") -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        carried = self.carried.get(split)
        if carried is not None and len(carried) > seq_len + 1:
            self._take(block=False)
            live_n = len(self.docs[split])
            share = len(carried) / (len(carried) + live_n)
            from_carried = int(self.rng.binomial(batch_size, share)) if live_n > seq_len + 1 else batch_size
            parts = []
            if from_carried:
                parts.append(carried.windows(self.rng, from_carried, seq_len))
            if batch_size - from_carried:
                self.fill(split, seq_len + 2)
                parts.append(self.docs[split].windows(self.rng, batch_size - from_carried, seq_len))
            rows = np.concatenate(parts)
            x = torch.from_numpy(rows[:, :-1].copy())
            y = torch.from_numpy(rows[:, 1:].copy())
            return x, y, torch.ones(batch_size, seq_len, dtype=torch.float32)
        self.fill(split, seq_len + 2)
        rows = self.docs[split].windows(self.rng, batch_size, seq_len)
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
    """What ``training.train --live`` builds: one worker per spare core, ranks drawing apart
    (``kw``: LiveSource's other options, e.g. ``worker_python``)."""
    import os

    rank = int(os.environ.get("RANK", 0))
    local = max(1, int(os.environ.get("LOCAL_WORLD_SIZE", 1)))
    n = workers if workers is not None else max(1, ((os.cpu_count() or 2) - local) // local)
    return LiveSource(Path(tokenizer_dir), recipe, workers=n, rank=rank, **kw)
