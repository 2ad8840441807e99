"""Standard-library programs: extracted with their helpers, runnable, deterministic, split by function."""

from __future__ import annotations

import ast
import random
import shutil
from pathlib import Path

import pytest

from training.data import stdlib_funcs as sf

ROOT = Path(__file__).resolve().parents[2]


def test_enough_functions_from_many_modules_are_usable() -> None:
    usable = sf.available()
    assert len(usable) >= 35
    assert len({m for m, _, _, _ in usable}) >= 12
    if sf.STDLIB_ZIP.exists():
        assert sf.source_origin().startswith("pyodide")


def test_sources_hold_their_helpers_and_no_docstrings() -> None:
    heappop = sf.build_source("heapq", "heappop")
    assert heappop is not None
    tree = ast.parse(heappop)
    assert sorted(f.name for f in tree.body if isinstance(f, ast.FunctionDef)) == ["_siftdown", "_siftup", "heappop"]  # module order
    assert '"""' not in heappop
    normpath = sf.build_source("posixpath", "normpath")
    assert normpath is not None and "_path_normpath" not in normpath and "def splitroot(" in normpath  # the pure fallback
    # module-level code that fills a table comes along, before the functions that read it
    ord2 = sf.build_source("_pydatetime", "_ord2ymd")
    assert ord2 is not None and "_DAYS_BEFORE_MONTH.append(dbm)" in ord2 and ord2.index("dbm = 0") < ord2.index("for dim")
    assert sf.build_source("heapq", "no_such_function") is None


def test_programs_run_and_behave_like_the_library() -> None:
    rng = random.Random(1)
    seen_raise = 0
    for i in range(200):
        p = sf.make_program(random.Random(f"t:{i}"))
        assert p is not None and p.origin == "stdlib"
        ns: dict = {}
        exec(compile(p.source, "main.py", "exec"), ns)
        try:
            eval(p.call, ns)
        except (NameError, ImportError, SyntaxError):
            raise
        except Exception:  # noqa: BLE001  (bad inputs may raise, as in real use)
            seen_raise += 1
    assert seen_raise < 60
    del rng


def test_deterministic_and_split_by_function() -> None:
    a = [sf.make_program(random.Random(f"s:{i}")) for i in range(60)]
    b = [sf.make_program(random.Random(f"s:{i}")) for i in range(60)]
    assert [(p.source, p.call) for p in a] == [(p.source, p.call) for p in b]
    by_func: dict[str, set] = {}
    for p in a:
        by_func.setdefault(p.family, set()).add((p.split_id, p.program_id))
    multi = [v for v in by_func.values() if len(v) > 1]
    assert multi, "some function should be drawn twice"
    for v in multi:
        assert len({s for s, _ in v}) == 1  # one split id per function
        assert len({pid for _, pid in v}) == len(v)  # other inputs: another program


@pytest.mark.skipif(shutil.which("node") is None and not __import__("sys").version_info >= (3, 12), reason="no tracer")
def test_traced_stdlib_program_steps_into_its_helpers() -> None:
    from training.trace_backend import TraceBackend

    source = sf.build_source("heapq", "heappop")
    backend = TraceBackend()
    try:
        rec, err = backend.record(source, "heappop([1, 3, 2, 7, 5])")
    finally:
        backend.close()
    assert err is None and rec["exit"]["status"] == "normal" and rec["exit"]["value"] == "1"
    functions = {e["function"] for e in rec["events"]}
    assert {"heappop", "_siftup", "_siftdown"} <= functions
    assert max(e["depth"] for e in rec["events"]) == 2
