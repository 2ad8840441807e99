"""The Python-construct families (classes, closures, generators, exceptions, decorators, context
managers, lambdas, recursion, printing, module-level scripts): every family compiles, programs run
to a normal end under the real tracer within the event budget, deterministically, and module-level
programs and class programs trace as they should."""

from __future__ import annotations

import ast
import builtins
import collections
import io
import json
import random
from contextlib import redirect_stdout
from functools import lru_cache

import pytest

from training.data import python_families as pf
from training.data.recipe import Recipe
from training.data.sources import draw_program
from training.real_engine import tracer

MAX_EVENTS = 2000
CLASS_FAMILIES = [n for n in pf.FAMILY_NAMES if n.startswith("class_")] + ["linked_list", "tree", "objects_interact"]


def _record(p) -> dict:  # noqa: ANN001 - a Program
    return tracer.record(p.source, p.call, max_events=MAX_EVENTS, time_limit=10.0)


@lru_cache(maxsize=None)
def _sample(seed: int, n: int) -> tuple:
    return tuple(pf.generate(seed, n))


@lru_cache(maxsize=None)
def _family_programs(family: str, n: int = 25) -> tuple:
    return tuple(pf.make_family_program(random.Random(f"{family}:{i}"), family) for i in range(n))


@pytest.mark.parametrize("family", pf.FAMILY_NAMES)
def test_every_family_compiles_and_names_itself(family: str) -> None:
    for p in _family_programs(family):
        compile(p.source, "main.py", "exec")
        assert p.family == family and p.origin == "python" and len(p.program_id) == 40
        if p.call:
            call = ast.parse(p.call, mode="eval").body
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == p.entry
        else:
            assert p.entry == "<module>"


def test_a_sample_runs_to_a_normal_end_within_the_event_budget() -> None:
    programs = _sample(1, 200)
    caught = 0
    for p in programs:
        rec = _record(p)
        assert rec["exit"]["status"] == "normal", (p.family, rec["exit"], p.source, p.call)
        assert 0 < len(rec["events"]) < MAX_EVENTS
        # exceptions raised on purpose are caught by the program itself
        caught += any(e["event"] == "exception" for e in rec["events"])
    assert caught >= 10
    lines = sorted(p.source.count("\n") for p in programs)
    assert 6 <= lines[len(lines) // 2] <= 30 and lines[-1] <= 60


def test_every_family_has_a_program_within_budget_in_both_shapes() -> None:
    for family in pf.FAMILY_NAMES:
        for p in _family_programs(family):
            rec = _record(p)
            assert rec["exit"]["status"] == "normal", (family, rec["exit"], p.source, p.call)


def test_deterministic_for_a_seed() -> None:
    a, b, c = pf.generate(7, 40), pf.generate(7, 40), pf.generate(8, 40)
    assert [(p.source, p.call) for p in a] == [(p.source, p.call) for p in b] != [(p.source, p.call) for p in c]
    for p in a[:20]:
        r1, r2 = _record(p), _record(p)
        assert (r1["stdout"], r1["exit"], len(r1["events"])) == (r2["stdout"], r2["exit"], len(r2["events"]))
        assert [e["locals"] for e in r1["events"]] == [e["locals"] for e in r2["events"]]


def test_every_family_appears_and_programs_are_distinct() -> None:
    programs = _sample(3, 600)
    families = collections.Counter(p.family for p in programs)
    assert set(families) == set(pf.FAMILY_NAMES)
    assert min(families.values()) >= 8
    assert len({p.program_id for p in programs}) == len(programs)


def test_module_level_programs_run_in_module_frame() -> None:
    programs = [p for p in _sample(1, 200) if p.call == ""]
    assert len(programs) > 30
    assert all(p.entry == "<module>" for p in programs)
    families = {p.family for p in programs}
    assert "script" in families and len(families) >= 8  # scripts, and other families written at the top level
    for p in programs[:40]:
        rec = _record(p)
        top = [e for e in rec["events"] if e["depth"] == 0]
        assert top and all(e["function"] == "<module>" for e in top)
        assert rec["events"][0]["function"] == "<module>" and rec["stdout"]  # a script prints
    scripts = [p for p in _sample(3, 600) if p.family == "script"]
    assert scripts and all(p.call == "" for p in scripts)


def test_class_programs_show_attributes_changing() -> None:
    for family in CLASS_FAMILIES:
        changed = 0
        for p in _family_programs(family, 10):
            rec = _record(p)
            seen: dict[int, set[str]] = collections.defaultdict(set)
            for e in rec["events"]:
                if "self" in e["locals"]:
                    seen[e["frame"]].add(e["locals"]["self"])
            # an attribute set or changed inside a method shows up in `self`'s repr
            changed += any(len(reprs) > 1 for reprs in seen.values())
        assert changed >= 5, family


def test_constructs_are_written() -> None:
    text = "\n".join(p.source for p in _sample(3, 600))
    for construct in ["class ", "super().__init__(", "@property", ".setter", "__repr__", "@staticmethod", "@classmethod",
                      "nonlocal ", "yield ", "yield from ", ".send(", "next(", "raise ", "finally:", "else:", "except ",
                      "@functools.wraps", "with ", "__enter__", "__exit__", "@contextmanager", "lambda ", "key=lambda",
                      "map(", "filter(", "print(", "isinstance("]:  # fmt: skip
        assert construct in text, construct


def test_names_vary_widely_and_never_shadow_builtins() -> None:
    programs = _sample(3, 600)
    classes: set[str] = set()
    drawn: collections.Counter = collections.Counter()
    attrs: set[str] = set()
    for p in programs:
        tree = ast.parse(p.source)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes.add(node.name)
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                drawn[node.name] += 1
            elif isinstance(node, ast.arg):
                drawn[node.arg] += 1
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                drawn[node.id] += 1
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                attrs.add(node.attr)  # an attribute (`self.next`) shadows nothing
    assert len(classes) > 100
    assert len(drawn) > 800 and len(attrs) > 150
    assert not {n for n in drawn if hasattr(builtins, n) and not n.startswith("__")}


def test_cli_prints_jsonl() -> None:
    buf = io.StringIO()
    with redirect_stdout(buf):
        assert pf.main(["--n", "5", "--seed", "1"]) == 0
    rows = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert len(rows) == 5
    assert {"source", "call", "entry", "family", "program_id", "origin"} <= set(rows[0])


def test_a_recipe_draws_families_only_with_a_python_share() -> None:
    without = [draw_program(random.Random(f"0:{i}"), Recipe(stdlib_share=0.25)) for i in range(100)]
    assert all(p is not None and p.origin != "python" for p in without)
    drawn = [draw_program(random.Random(f"0:{i}"), Recipe(stdlib_share=0.0, python_share=0.5)) for i in range(200)]
    ours = [p for p in drawn if p is not None and p.origin == "python"]
    assert 60 < len(ours) < 140 and all(p.family in pf.FAMILY_NAMES for p in ours)
    # the other half is the function generator's, labelled as such
    assert all(p.origin == "generated" and p.family not in pf.FAMILY_NAMES for p in drawn if p is not None and p.origin != "python")
    every = [draw_program(random.Random(f"1:{i}"), Recipe(stdlib_share=0.0, python_share=1.0)) for i in range(20)]
    assert all(p is not None and p.origin == "python" and p.family in pf.FAMILY_NAMES for p in every)
