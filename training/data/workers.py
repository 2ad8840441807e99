"""Worker processes that run programs through the pipeline (``program_docs.run_program``), for the
dataset builder and the live source alike.

``ProgramStream`` hands out the results of programs 0, 1, 2, ... of a seed's stream in that order,
a task of ``task_size`` programs at a time, whatever the number of workers: a dataset built with 8
workers is the one built with 1, and a live source draws the programs a dataset of the same recipe
and seed holds.
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing as mp
import os
import sys
from pathlib import Path
from typing import Any, Iterator, Optional

from ..tokenizer import NdbTokenizer
from ..trace_backend import IN_PROCESS, TraceBackend
from .program_docs import ProgramResult, run_program
from .recipe import Recipe

_WORKER: dict[str, Any] = {}


@contextlib.contextmanager
def hash_seed_for_children() -> Iterator[None]:
    """PYTHONHASHSEED=0 for the interpreters started meanwhile (spawned workers), this one's
    environment left as it was."""
    old = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        yield
    finally:
        if old is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = old


def worker_init(tok_dir: str, recipe: Recipe) -> None:
    _WORKER["tok"] = NdbTokenizer.load(Path(tok_dir))
    _WORKER["backend"] = TraceBackend(**recipe.tracer_limits())
    _WORKER["recipe"] = recipe


def work(task: tuple[int | str, int, int]) -> list[ProgramResult]:
    seed, start, count = task
    results = (run_program(seed, i, _WORKER["recipe"], _WORKER["tok"], _WORKER["backend"]) for i in range(start, start + count))
    return [r for r in results if r is not None]


class ProgramStream:
    """Tasks of a seed's stream submitted to a pool ahead of need (two a worker) and taken back in
    order. ``start_method``: "spawn" for a parent that may hold a CUDA context, which must not be
    forked; by default as the tracer needs (below)."""

    def __init__(self, recipe: Recipe, tok_dir: Path, seed: int | str, workers: int = 1, task_size: int = 32,
                 start_method: Optional[str] = None, max_index: Optional[int] = None) -> None:
        self.seed = seed
        self.workers = max(1, workers)
        self.task_size = task_size
        self.max_index = max_index
        self.next_index = 0
        # In-process tracing runs programs in the workers' own interpreter: spawn them, with a fixed
        # string hash seed, so that a set of strings shows its items in the same order in every
        # build (the Node tracer fixes its own: pyodide_trace.mjs). Fork shares what the parent
        # loaded (the corpus) and is the default otherwise.
        method = start_method or ("spawn" if IN_PROCESS or sys.platform == "win32" else "fork")
        with hash_seed_for_children():
            self.pool = mp.get_context(method).Pool(self.workers, initializer=worker_init, initargs=(str(tok_dir), recipe))
        self.pending: collections.deque = collections.deque()

    def submit(self) -> None:
        """Keeps two tasks a worker in flight."""
        while len(self.pending) < 2 * self.workers and (self.max_index is None or self.next_index < self.max_index):
            self.pending.append(self.pool.apply_async(work, ((self.seed, self.next_index, self.task_size),)))
            self.next_index += self.task_size

    def next_task(self, block: bool = True, timeout: Optional[float] = None) -> Optional[list[ProgramResult]]:
        """The results of the oldest task: waits for it when ``block``, else None unless it is done.
        None too once ``max_index`` programs have been handed out."""
        self.submit()
        if not self.pending or not (block or self.pending[0].ready()):
            return None
        results = self.pending.popleft().get(timeout=timeout)
        self.submit()
        return results

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None  # type: ignore[assignment]

    def __enter__(self) -> "ProgramStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Dedup:
    """Programs already taken, by the first 64 bits of their id: about 70 bytes a program (a live
    source that draws 10 M programs holds 0.7 GB of them)."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def first_time(self, r: ProgramResult) -> bool:
        key = int(r.program_id[:16], 16)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True
