"""What every program source makes: a ``Program`` (source, call, where it came from), its id and the
held-out split.

The sources (``generator.py``, ``python_families.py``, ``stdlib_funcs.py``, ``corpus.py``) all
import from here and from nowhere else for these, so that the id that drives deduplication and the
split is computed one way for all of them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from dataclasses import asdict, dataclass
from typing import Callable, Iterable


@dataclass
class Program:
    source: str
    call: str  # "" for module-level code
    entry: str
    family: str
    program_id: str
    origin: str = "generated"  # which source made it: generated, python, stdlib or corpus (the stats count by it)


_COMMENT = re.compile(r"#.*$", re.M)


def normalize(source: str) -> str:
    """The source without comments, trailing blanks and blank lines (for deduplication)."""
    lines = [l.rstrip() for l in _COMMENT.sub("", source).split("\n")]
    return "\n".join(l for l in lines if l)


def program_hash(source: str) -> str:
    return hashlib.sha1(normalize(source).encode("utf-8")).hexdigest()


def is_held_out(program_id: str, percent: float = 5.0) -> bool:
    """The held-out split: by program (hash of the normalized source), never by trajectory."""
    return int(program_id[:8], 16) % 10_000 < percent * 100


def print_programs(prog: str, generate_fn: Callable[[int, int], Iterable[Program]], argv: list[str] | None = None) -> int:
    """The command of a program source: ``--n`` programs of ``--seed`` as JSONL."""
    ap = argparse.ArgumentParser(prog=prog)
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for p in generate_fn(args.seed, args.n):
        sys.stdout.write(json.dumps(asdict(p)) + "\n")
    return 0
