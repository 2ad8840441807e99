"""Programs for the worker tests (test_lease.py), run in place of ``program_docs.run_program`` by
``ProgramStream(runner="training.tests.lease_runners:NAME")``: no tracing, documents made of
known tokens, and programs that hang, die or fail at a known index."""

from __future__ import annotations

import hashlib
import os
import time
from array import array
from typing import Any, Optional

from training.data.program_docs import ProgramResult

CONTEXT = 0  # <|trace_context_start|>: the first token of every document, as in the real ones


def _result(seed: Any, i: int) -> ProgramResult:
    """Program ``i``: two documents, [CONTEXT, 100 + i, ...] of lengths 30 + i % 7 and 5, held out
    when i % 5 == 4."""
    pid = hashlib.sha256(f"fake:{seed}:{i}".encode()).hexdigest()
    r = ProgramResult(i, pid, "fake", "fake", i % 5 == 4, "normal", events=3)
    r.docs = [array("I", [CONTEXT] + [100 + i] * (29 + i % 7)), array("I", [CONTEXT, 100 + i, 100 + i, 100 + i, 100 + i])]
    return r


def fake(seed: Any, i: int, recipe: Any, tok: Any, backend: Any) -> Optional[ProgramResult]:
    return _result(seed, i)


def hangs_at_5(seed: Any, i: int, recipe: Any, tok: Any, backend: Any) -> Optional[ProgramResult]:
    if i == 5:
        time.sleep(3600)  # what a program stuck in C code looks like from outside: no answer
    return _result(seed, i)


def dies_at_2(seed: Any, i: int, recipe: Any, tok: Any, backend: Any) -> Optional[ProgramResult]:
    if i == 2:
        os._exit(3)  # a crash of the interpreter (a segfault in an extension, say)
    return _result(seed, i)


def fails_at_3(seed: Any, i: int, recipe: Any, tok: Any, backend: Any) -> Optional[ProgramResult]:
    if i == 3:
        raise ValueError("a bug in the pipeline")
    return _result(seed, i)
