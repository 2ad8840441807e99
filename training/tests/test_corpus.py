"""The corpus of real code: extraction of units and calls, varied inputs, refusals, the held-out
split by file. A small corpus is written by the test itself, in the layout of ../shared/corpus."""

from __future__ import annotations

import ast
import io
import random
import tarfile
from pathlib import Path

import pytest

from training.data import corpus
from training.data.generator import is_held_out
from training.real_engine import tracer

SORTS = '''"""Sorting."""
import math

LIMIT = 3


def bubble(items: list) -> list:
    """
    >>> bubble([3, 1, 2])
    [1, 2, 3]
    >>> bubble([])
    []
    """
    items = list(items)
    for i in range(len(items)):
        for j in range(len(items) - 1 - i):
            if items[j] > items[j + 1]:
                items[j], items[j + 1] = items[j + 1], items[j]
    return items


def scaled(nums: list[int], k: int) -> list[int]:
    return [n * k + LIMIT for n in nums]


def uses_clock():
    import time
    return time.time()


class Stack:
    """
    >>> s = Stack()
    >>> s.push(4)
    >>> s.push(5)
    >>> s.pop()
    5
    """

    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()
'''

NEEDS_NUMPY = '''import numpy as np


def norm(v):
    """
    >>> norm([3, 4])
    5.0
    """
    return float(np.linalg.norm(v))
'''

EXAMPLE = '''def slices(series, length):
    if length > len(series):
        raise ValueError("too long")
    return [series[i:i + length] for i in range(len(series) - length + 1)]
'''

TESTS = '''import unittest
from series import slices


class SeriesTest(unittest.TestCase):
    def test_one(self):
        self.assertEqual(slices("123", 1), ["1", "2", "3"])

    def test_raises(self):
        with self.assertRaises(ValueError):
            slices("12", 3)
'''


def _archive(path: Path, files: dict[str, str]) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"./{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("corpus")
    _archive(d / "thealgorithms-python.tar.gz", {"sorts/bubble.py": SORTS, "maths/norm.py": NEEDS_NUMPY})
    _archive(d / "exercism-python.tar.gz", {
        "exercises/practice/series/series.py": "def slices(series, length):\n    pass\n",
        "exercises/practice/series/.meta/example.py": EXAMPLE,
        "exercises/practice/series/series_test.py": TESTS,
    })
    _archive(d / "keon-algorithms.tar.gz", {"algorithms/__init__.py": ""})
    return d


def test_missing_corpus_says_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(corpus.CorpusMissing, match=r"thealgorithms-python\.tar\.gz.*NDB_CORPUS"):
        corpus.extract(tmp_path)


def test_extracts_doctest_calls_scripts_test_calls_and_typed_inputs(small_corpus: Path) -> None:
    ex = corpus.extract(small_corpus)
    by_name = {(u.path, u.name): u for u in ex.units}
    bubble = by_name[("sorts/bubble.py", "bubble")]
    assert bubble.origin == "doctest" and bubble.calls == ["bubble([3, 1, 2])", "bubble([])"]
    assert "def bubble" in bubble.source and '"""' not in bubble.source  # docstrings dropped
    script = next(u for u in ex.units if u.origin == "script")
    assert script.calls == [""] and "class Stack" in script.source and "print(s.pop())" in script.source
    slices = by_name[("exercises/practice/series/.meta/example.py", "slices")]
    assert slices.origin == "tests" and sorted(slices.calls) == ["slices('12', 3)", "slices('123', 1)"]
    scaled = by_name[("sorts/bubble.py", "scaled")]
    assert scaled.origin == "typed" and all(c.startswith("scaled([") for c in scaled.calls)
    assert "LIMIT = 3" in scaled.source  # the constant it needs comes along
    # numpy and the clock are refused, and counted
    assert ("maths/norm.py", "norm") not in by_name and ("sorts/bubble.py", "uses_clock") not in by_name
    assert ex.stats["skips"]["import"] == 1  # norm, for numpy
    assert ex.stats["files_read"] == 6 and ex.stats["units"]["doctest"] >= 1


def test_every_extracted_program_runs_under_the_tracer(small_corpus: Path) -> None:
    for unit in corpus.extract(small_corpus).units:
        for call in unit.calls:
            rec = tracer.record(unit.source, call, max_events=2000)
            assert rec["events"], (unit.name, call)
            assert rec["exit"]["status"] in ("normal", "exception"), rec["exit"]


def test_varied_calls_change_literals_and_stay_calls() -> None:
    rng = random.Random(7)
    calls = {corpus.vary_call(rng, "bubble([5, 3, 8, 1], key='ab', n=4)") for _ in range(60)}
    assert len(calls) > 20
    for c in calls:
        node = ast.parse(c, mode="eval").body
        assert isinstance(node, ast.Call) and ast.unparse(node.func) == "bubble"
    assert any("[]" in c for c in calls) and any(c.count(",") > 5 for c in calls)  # empty and longer lists
    assert corpus.vary_call(rng, "f(x)") == "f(x)"  # nothing literal to vary


def test_refusals() -> None:
    assert corpus.refusal("import random\nx = random.random()\n") == "import"
    assert corpus.refusal("def f(p):\n    return open(p).read()\n") == "io_or_eval"
    assert corpus.refusal("from .sibling import g\n") == "local_import"
    assert corpus.refusal("import math\nfrom collections import deque\n") is None


def test_held_out_split_is_by_file(small_corpus: Path) -> None:
    units = corpus.extract(small_corpus).units
    per_file: dict[str, set[bool]] = {}
    for u in units:
        per_file.setdefault(u.path, set()).add(is_held_out(u.split_id))
    assert all(len(v) == 1 for v in per_file.values())
    rng = random.Random(3)
    programs = [corpus.make_program(rng, directory=small_corpus) for _ in range(40)]
    assert all(p is not None and p.origin == "corpus" and p.split_id for p in programs)
    # 6 calls in all: varied inputs give other programs
    assert len({p.program_id for p in programs if p}) > 6


def test_real_functions_are_posed_as_cruxeval_items() -> None:
    from training.make_real_functions import as_item

    code, inputs = as_item("def total(xs, k):\n    return sum(xs) * k\n", "total([1, 2], k=3)") or ("", "")
    assert (code, inputs) == ("", "")  # keywords cannot be passed as CruxEval's positional input
    made = as_item("def total(xs, k):\n    return sum(xs) * k\n", "total([1, 2], 3)")
    assert made is not None
    code, inputs = made
    assert code.endswith("\n\n\nf = total\n") and inputs == "[1, 2], 3"
    assert tracer.record(code, f"f({inputs})")["exit"]["value"] == "9"
    assert as_item("def g(x):\n    return x\n", "g(h(1))") is None  # not a literal argument
