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
from training.data.programs import is_held_out
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


# A library in the layout of toolz's archive (one folder around everything): modules that import
# each other relatively and absolutely, with an alias, Python 2/3 shims and an import of a module
# the archive does not have.
TOOLZ = {
    "toolz/toolz/__init__.py": "from .itertoolz import *\n",
    "toolz/toolz/utils.py": "no_default = '__no__default__'\n",
    "toolz/toolz/recipes.py": "def take(n, seq):\n    return list(seq)[:n]\n",
    "toolz/toolz/compat.py": """import sys
if sys.version_info[0] < 3:
    text_type = unicode
else:
    text_type = str
try:
    from math import sumprod
except ImportError:
    def sumprod(xs, ys):
        return sum(x * y for x, y in zip(xs, ys))
""",
    "toolz/toolz/itertoolz.py": '''from .utils import no_default
from .compat import text_type as _text, sumprod
from toolz.recipes import take as _take
from .missing import nothing


def last(seq, default=no_default):
    """
    >>> last([1, 2, 3])
    3
    """
    items = list(seq)
    if not items:
        if default == no_default:
            raise IndexError("empty")
        return default
    return items[-1]


def first_words(text, n):
    """
    >>> first_words('a b c', 2)
    ['a', 'b']
    """
    return _take(n, _text(text).split())


def dot(xs, ys):
    """
    >>> dot([1, 2], [3, 4])
    11
    """
    return sumprod(xs, ys)


def broken(x):
    """
    >>> broken(1)
    1
    """
    return nothing(x)
''',
    "toolz/toolz/tests/test_itertoolz.py": """import toolz
from toolz import itertoolz as it
from toolz.itertoolz import last


def test_last():
    assert last([4, 5]) == 5
    assert it.first_words('x y', 1) == ['x']


def test_words():
    words = it.first_words('p q r', 2)
    assert len(words) == 2
    assert last(words) == 'q'
""",
}

# boltons' sentinel: the try body imports a helper that needs ``sys``, so its fallback is taken.
BOLTONS = {
    "boltons/boltons/typeutils.py": """import sys


def make_sentinel(name='_MISSING', var_name=None):
    return sys._getframe(1)
""",
    "boltons/boltons/listutils.py": '''try:
    from .typeutils import make_sentinel
    _MISSING = make_sentinel(var_name='_MISSING')
except ImportError:
    _MISSING = object()


def head(xs, default=_MISSING):
    """
    >>> head([], 0)
    0
    """
    if not xs:
        if default is _MISSING:
            raise ValueError('empty')
        return default
    return xs[0]
''',
}

# pygorithm: a class extends a class of another module, named through that module; a method that
# needs ``inspect`` is left out of the class.
PYGORITHM = {
    "pygorithm/pygorithm/data_structures/queue.py": """import inspect


class Queue(object):
    def __init__(self):
        self.items = []

    def enqueue(self, x):
        self.items.append(x)

    @staticmethod
    def get_code():
        return inspect.getsource(Queue)
""",
    "pygorithm/pygorithm/data_structures/heap.py": """from pygorithm.data_structures import queue


class Heap(queue.Queue):
    def insert(self, x):
        self.enqueue(x)
        self.items.sort()
""",
    "pygorithm/tests/test_heap.py": """import unittest
from pygorithm.data_structures import heap


class TestHeap(unittest.TestCase):
    def test_heap(self):
        h = heap.Heap()
        h.insert(3)
        h.insert(1)
        self.assertEqual(h.items, [1, 3])

    def test_needs_self(self):
        self.assertEqual(self.h.items, [])
""",
}

SNIPPET = """---
title: Add
tags: [math]
---

Adds two numbers.

```py
def add(a, b = 1):
  return a + b
```

```py
add(1, 2) # 3
add(4)
# 5
```
"""

SNIPPET_SETUP = """Days between two dates.

```py
def days_diff(start, end):
  return (end - start).days
```

```py
from datetime import date

days_diff(date(2020, 10, 25), date(2020, 10, 28)) # 3
```
"""

SNIPPET_RANDOM = """```py
from random import choice

def sample(lst):
  return choice(lst)
```

```py
sample([3, 7, 9, 11]) # 9
```
"""


def _archive(path: Path, files: dict[str, str], wrapped: bool = False) -> None:
    """An archive as in ../shared/corpus: members named ``./path``, or ``name/path`` for the ones
    that wrap everything in one folder (the libraries, 30-seconds-of-python)."""
    with tarfile.open(path, "w:gz") as tar:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name if wrapped else f"./{name}")
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
    _archive(d / "more-itertools.tar.gz", {"more-itertools/more_itertools/__init__.py": ""}, wrapped=True)
    _archive(d / "toolz.tar.gz", TOOLZ, wrapped=True)
    _archive(d / "boltons.tar.gz", BOLTONS, wrapped=True)
    _archive(d / "pygorithm.tar.gz", PYGORITHM, wrapped=True)
    _archive(d / "30-seconds-of-python.tar.gz", {
        "30-seconds-of-python/snippets/add.md": SNIPPET,
        "30-seconds-of-python/snippets/days-diff.md": SNIPPET_SETUP,
        "30-seconds-of-python/snippets/sample.md": SNIPPET_RANDOM,
        "30-seconds-of-python/LICENSE": "CC-BY-4.0\n",
    }, wrapped=True)
    return d


@pytest.fixture(scope="module")
def small_extraction(small_corpus: Path) -> corpus.Extraction:
    return corpus.extract(small_corpus)


def test_missing_corpus_says_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(corpus.CorpusMissing, match=r"thealgorithms-python\.tar\.gz.*30-seconds-of-python\.tar\.gz.*NDB_CORPUS"):
        corpus.extract(tmp_path)


def test_extracts_doctest_calls_scripts_test_calls_and_typed_inputs(small_extraction: corpus.Extraction) -> None:
    ex = small_extraction
    by_name = {(u.path, u.name): u for u in ex.units}
    bubble = by_name[("sorts/bubble.py", "bubble")]
    assert bubble.origin == "doctest" and bubble.calls == ["bubble([3, 1, 2])", "bubble([])"]
    assert "def bubble" in bubble.source and '"""' not in bubble.source  # docstrings dropped
    script = next(u for u in ex.units if u.origin == "script" and u.collection == "thealgorithms-python")
    assert script.calls == [""] and "class Stack" in script.source and "print(s.pop())" in script.source
    slices = by_name[("exercises/practice/series/.meta/example.py", "slices")]
    assert slices.origin == "tests" and sorted(slices.calls) == ["slices('12', 3)", "slices('123', 1)"]
    scaled = by_name[("sorts/bubble.py", "scaled")]
    assert scaled.origin == "typed" and all(c.startswith("scaled([") for c in scaled.calls)
    assert "LIMIT = 3" in scaled.source  # the constant it needs comes along
    # numpy and the clock are refused, and counted
    assert ("maths/norm.py", "norm") not in by_name and ("sorts/bubble.py", "uses_clock") not in by_name
    algorithms = ex.stats["per_collection"]["thealgorithms-python"]
    assert algorithms["skips"]["import"] == 1  # norm, for numpy
    assert algorithms["files"] == 2 and algorithms["units_by_origin"]["doctest"] >= 1


def test_stats_per_collection_for_all_eight(small_extraction: corpus.Extraction) -> None:
    per = small_extraction.stats["per_collection"]
    assert list(per) == list(corpus.COLLECTIONS) and len(per) == 8
    for name, counts in per.items():
        assert set(counts) >= {"files", "units", "calls", "skips"}, name
        assert counts["calls"] >= counts["units"]  # every unit has a call
    assert per["toolz"]["files"] == 6 and per["30-seconds-of-python"]["files"] == 3  # .md only, not LICENSE
    assert per["toolz"]["skips"]["local_import_unresolved"] == 1  # broken(): toolz/missing.py is not there
    assert per["30-seconds-of-python"]["skips"]["import"] == 1  # sample() draws random numbers
    assert sum(c["units"] for c in per.values()) == len(small_extraction.units)


def test_intra_package_imports_are_inlined_into_runnable_programs(small_extraction: corpus.Extraction) -> None:
    by_name = {(u.path, u.name): u for u in small_extraction.units if u.origin != "test_script"}
    words = by_name[("toolz/itertoolz.py", "first_words")]
    # ``from toolz.recipes import take as _take``: take is inlined and given its other name
    assert "def take(n, seq):" in words.source and "_take = take" in words.source
    assert "text_type = str" in words.source and "unicode" not in words.source  # the Python 3 branch
    assert {"toolz/recipes.py", "toolz/compat.py"} <= set(words.files)
    assert "first_words('x y', 1)" in words.calls  # ``it.first_words(…)`` of the test file, unqualified
    rec = tracer.record(words.source, "first_words('a b c', 2)", max_events=2000)
    assert rec["exit"] == {"status": "normal", "value": "['a', 'b']"}
    last = by_name[("toolz/itertoolz.py", "last")]
    assert "no_default = '__no__default__'" in last.source and "last([4, 5])" in last.calls
    assert tracer.record(last.source, "last([])", max_events=2000)["exit"]["exc_type"] == "IndexError"
    # a try/except ImportError shim of the standard library is kept whole: it runs on any version
    dot = by_name[("toolz/itertoolz.py", "dot")]
    assert "try:\n    from math import sumprod\nexcept ImportError:" in dot.source
    assert tracer.record(dot.source, "dot([1, 2], [3, 4])")["exit"]["value"] == "11"
    assert ("toolz/itertoolz.py", "broken") not in by_name
    # boltons: make_sentinel needs sys, so the module's own fallback stands in
    head = by_name[("boltons/listutils.py", "head")]
    assert "_MISSING = object()" in head.source and "make_sentinel" not in head.source
    assert tracer.record(head.source, "head([], 0)")["exit"]["value"] == "0"


def test_test_functions_become_scripts_with_module_names_resolved(small_extraction: corpus.Extraction) -> None:
    scripts = {u.path: u for u in small_extraction.units if u.origin == "test_script"}
    heap = scripts["pygorithm/data_structures/heap.py"]
    # ``class Heap(queue.Queue)`` of another module: Queue inlined, the name unqualified
    assert "class Heap(Queue):" in heap.source and "class Queue(object):" in heap.source
    assert "get_code" not in heap.source and "inspect" not in heap.source  # the method that needs inspect
    assert "h = Heap()" in heap.source and "print(h.items)" in heap.source
    assert "tests/test_heap.py" in heap.files  # a held-out test file holds its scripts out too
    rec = tracer.record(heap.source, "", max_events=2000)
    assert rec["exit"]["status"] == "normal" and rec["stdout"] == "[1, 3]\n"
    words = [u for u in small_extraction.units if u.origin == "test_script" and u.collection == "toolz"]
    assert any("print(len(words))" in u.source and "print(last(words))" in u.source for u in words)
    assert small_extraction.stats["per_collection"]["pygorithm"]["skips"]["test_function_unusable"] == 1  # self.h


def test_markdown_snippets_give_entry_calls(small_extraction: corpus.Extraction) -> None:
    by_name = {(u.path, u.name): u for u in small_extraction.units}
    add = by_name[("snippets/add.md", "add")]
    assert add.origin == "snippet" and add.calls == ["add(1, 2)", "add(4)"]  # results in comments dropped
    assert add.source == "def add(a, b = 1):\n  return a + b\n"
    days = by_name[("snippets/days-diff.md", "days_diff")]
    # the example's set-up stays in the program, so that the call can use it (and be varied)
    assert days.calls == ["days_diff(date(2020, 10, 25), date(2020, 10, 28))"] and "from datetime import date" in days.source
    assert tracer.record(days.source, days.calls[0])["exit"]["value"] == "3"
    assert ("snippets/sample.md", "sample") not in by_name


def test_version_checks_take_the_python3_branch() -> None:
    from training.data.corpus_imports import version_test

    def test(text: str) -> object:
        return version_test(ast.parse(text, mode="eval").body)

    assert test("sys.version_info[0] == 2") is False and test("sys.version_info >= (3, 0)") is True
    assert test("PY3") is True and test("not PY2") is True and test("sys.version_info[:2] < (3, 4)") is False
    assert test("hexversion >= 0x30D00A2") is False  # 3.13 only: the portable branch is kept
    assert test("TYPE_CHECKING") is None and test("sys.platform == 'win32'") is None


def test_every_extracted_program_runs_under_the_tracer(small_extraction: corpus.Extraction) -> None:
    for unit in small_extraction.units:
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


def _held_out_file(u: corpus.Unit, path: str) -> bool:
    return is_held_out(corpus.Unit(u.collection, path, "", "").split_id)


def test_held_out_split_is_by_file(small_extraction: corpus.Extraction, small_corpus: Path) -> None:
    units = small_extraction.units
    per_file: dict[str, set[bool]] = {}
    for u in units:
        if not u.files:
            per_file.setdefault(u.path, set()).add(is_held_out(u.split_id))
        # a unit is held out exactly when a file it draws on is: no held-out code is trained on
        assert is_held_out(u.split_id) == any(_held_out_file(u, p) for p in (u.path, *u.files))
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
