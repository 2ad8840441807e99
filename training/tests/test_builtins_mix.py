"""The builtins mix (training/data/builtins_mix.py): programs deterministic per seed and under any
string hash seed, diverse (most of the API of str, list, dict, set and tuple and many builtins over
2,000 programs), running to a normal end under the real tracer, returning builtin calls; and the
recipe's ``methods_share``: 0 draws what recipes drew before, more draws its share and the stats
count its origin."""

from __future__ import annotations

import ast
import builtins
import collections
import json
import math
import os
import random
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Optional

import pytest

from training.data import builtins_mix as bm
from training.data import corpus
from training.data.generator import generate_program
from training.data.programs import Program
from training.data.recipe import Recipe
from training.data.sources import draw_program
from training.real_engine import tracer
from training.tests.test_build_dataset import needs_tracer

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "training" / "recipes"
TYPES = {"str": str, "list": list, "dict": dict, "set": set, "tuple": tuple}


def _api(t: type) -> set[str]:
    return {n for n in dir(t) if not n.startswith("_")}


@lru_cache(maxsize=None)
def _drawn(seed: int, n: int) -> tuple:
    return tuple(bm.draw(random.Random(f"{seed}:{i}")) for i in range(n))


def _record(p: Program) -> dict:
    return tracer.record(p.source, p.call, max_events=2000, time_limit=10.0)


# ----------------------------------------------------------------------------------------------
# The programs


def test_deterministic_per_seed() -> None:
    a, b, c = list(bm.generate(7, 40)), list(bm.generate(7, 40)), list(bm.generate(8, 40))
    assert [(p.source, p.call, p.family) for p in a] == [(p.source, p.call, p.family) for p in b]
    assert [p.source for p in a] != [p.source for p in c]
    assert [sorted(d.tags) for d in _drawn(7, 30)] == [sorted(bm.draw(random.Random(f"7:{i}")).tags) for i in range(30)]


def test_programs_are_functions_with_literal_calls_or_scripts() -> None:
    drawn = _drawn(1, 400)
    scripts = 0
    for d in drawn:
        p = d.program
        tree = ast.parse(p.source)
        assert p.origin == "methods" and len(p.program_id) == 40 and "_" in p.family
        assert p.source.count("\n") <= bm.MAX_LINES
        if p.call:
            assert p.entry in [f.name for f in tree.body if isinstance(f, ast.FunctionDef)]
            call = ast.parse(p.call, mode="eval").body
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == p.entry
            for arg in call.args:  # data, not code
                if isinstance(arg, ast.Call):
                    assert isinstance(arg.func, ast.Name) and arg.func.id == "set" and not arg.args
                else:
                    ast.literal_eval(arg)
        else:
            scripts += 1
            assert p.entry == "<module>" and "print(" in p.source
    assert 0.15 * len(drawn) <= scripts <= 0.35 * len(drawn)
    assert len({d.program.program_id for d in drawn}) == len(drawn)


def test_diverse_over_2000_programs() -> None:
    drawn = _drawn(0, 2000)
    tags = collections.Counter(t for d in drawn for t in d.tags)
    text = "\n".join(d.program.source for d in drawn)
    per_type = {}
    for name, t in TYPES.items():
        methods = {tag.split(".", 1)[1] for tag in tags if tag.startswith(name + ".")}
        assert methods <= _api(t), (name, methods - _api(t))
        for m in methods:  # the tag is written where the program calls it
            assert f".{m}(" in text, (name, m)
        per_type[name] = methods
    assert len(per_type["str"]) >= 40, sorted(_api(str) - per_type["str"])
    assert per_type["list"] == _api(list)  # all 11
    assert per_type["dict"] == _api(dict)  # all 11
    assert len(per_type["set"]) >= 16, sorted(_api(set) - per_type["set"])
    assert per_type["tuple"] == _api(tuple)
    builtin_funcs = {tag.split(".", 1)[1] for tag in tags if tag.startswith("builtin.")}
    assert len(builtin_funcs) >= 30 and builtin_funcs <= set(dir(builtins))
    for f in ("len", "sorted", "reversed", "enumerate", "zip", "map", "filter", "sum", "min", "max", "any", "all", "abs", "round",
              "divmod", "int", "str", "float", "bool", "chr", "ord", "list", "tuple", "set", "dict", "range", "isinstance"):
        assert f in builtin_funcs, f
    # each method is used by many programs, not once
    assert sum(1 for t in tags if (t.startswith(("str.", "list.", "dict.", "set.", "tuple.")) and tags[t] >= 10)) >= 75
    # what the brief asks for, in the source text
    for construct in ("maxsplit=", ".rsplit(", ".partition(", ".rpartition(", ".strip(", ".zfill(", ".translate(str.maketrans(",
                      ".format(", ".splitlines(", ".expandtabs(", ".insert(-", ".pop()", ".sort(key=", "del ", "[::-1]",
                      ".setdefault(", ".popitem()", "dict.fromkeys(", ".symmetric_difference(", ".issubset(", "key=", "reverse=True",
                      "default=", "enumerate(", "zip(", "lambda", "try:", "except ValueError", "except KeyError", "round(", "divmod(",
                      "range(", "isinstance(", "for ", "if ", "print("):
        assert construct in text, construct
    families = collections.Counter(d.program.family for d in drawn)
    assert len(families) >= 15 and {"str_steps", "str_loop", "list_mutate", "dict_mutate", "set_steps", "tuple_steps"} <= set(families)
    assert tags["loop"] >= 500 and tags["try"] >= 150 and tags["alias"] >= 40


def test_literals_are_messy() -> None:
    calls = "\n".join(d.program.call + d.program.source for d in _drawn(0, 2000))
    for piece in ("''", "[]", "{}", "set()", "  ", "\\n", "\\t", "-", "é"):
        assert piece in calls, piece
    values = []
    for d in _drawn(0, 2000):
        if d.program.call:
            values += [ast.literal_eval(a) for a in ast.parse(d.program.call, mode="eval").body.args if not isinstance(a, ast.Call)]
    lists = [v for v in values if isinstance(v, list) and v]
    assert sum(len(set(map(repr, v))) < len(v) for v in lists) >= 0.15 * len(lists)  # duplicates
    assert any(isinstance(v, list) and any(isinstance(e, int) and e < 0 for e in v) for v in values)
    strs = [v for v in values if isinstance(v, str)]
    assert sum(v != v.strip() for v in strs) >= 0.05 * len(strs) and sum(any(c.isupper() for c in v) and any(c.islower() for c in v) for v in strs) >= 0.1 * len(strs)


def test_returns_are_builtin_calls_and_values_change_in_place() -> None:
    drawn = _drawn(2, 600)
    funcs = [d.program for d in drawn if d.program.call]
    calls = 0
    for p in funcs:
        entry = next(f for f in ast.parse(p.source).body if isinstance(f, ast.FunctionDef) and f.name == p.entry)
        ret = entry.body[-1]
        assert isinstance(ret, ast.Return)
        calls += isinstance(ret.value, ast.Call)
    assert calls >= 0.6 * len(funcs)
    helpers = [p for p in funcs if p.source.count("def ") == 2]
    assert len(helpers) >= 30  # a helper whose return is itself a builtin call, applied in a loop
    # in-place changes: a list, dict or set changed by a statement that assigns nothing
    mutated = 0
    for d in drawn[:150]:
        rec = _record(d.program)
        lines = d.program.source.split("\n")
        frames: dict[int, dict] = {}
        for e in rec["events"]:
            before = frames.get(e["frame"])
            if before is not None and e["event"] == "line":
                changed = [k for k, v in e["locals"].items() if k in before and before[k] != v and str(v)[:1] in "[{"]
                mutated += bool(changed)
            frames[e["frame"]] = e["locals"]
    assert mutated >= 100


def test_runs_under_the_real_tracer() -> None:
    drawn = _drawn(5, 300)
    status = collections.Counter()
    events = []
    caught = 0
    for d in drawn:
        rec = _record(d.program)
        status[rec["exit"]["status"]] += 1
        events.append(len(rec["events"]))
        caught += any(e["event"] == "exception" for e in rec["events"])
    assert status["normal"] >= 0.95 * len(drawn), status
    events.sort()
    assert events[len(events) // 2] >= 8 and events[int(0.9 * len(events))] <= 300 and events[-1] <= 600
    assert caught >= 15  # exceptions raised on purpose, caught by the program


def test_the_same_under_any_string_hash_seed() -> None:
    """No value a program shows depends on the hash seed (sets hold ints; what came from a set of
    strings is sorted): two processes with different seeds draw and trace the same."""
    script = (
        "import json, random\n"
        "from training.data import builtins_mix as bm\n"
        "from training.real_engine import tracer\n"
        "out = []\n"
        "for i in range(80):\n"
        "    p = bm.make_program(random.Random(f'11:{i}'))\n"
        "    rec = tracer.record(p.source, p.call, max_events=2000, time_limit=10.0)\n"
        "    out.append([p.source, p.call, rec['stdout'], rec['exit']['status'], [e['locals'] for e in rec['events']]])\n"
        "print(json.dumps(out))\n"
    )
    runs = []
    for seed in ("1", "2"):
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=300,
                              env={**os.environ, "PYTHONHASHSEED": seed})
        assert proc.returncode == 0, proc.stderr[-2000:]
        runs.append(json.loads(proc.stdout))
    assert runs[0] == runs[1]


def test_the_command_prints_programs() -> None:
    proc = subprocess.run([sys.executable, "-m", "training.data.builtins_mix", "--n", "5", "--seed", "3"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 5 and all(r["origin"] == "methods" and r["source"] for r in rows)


# ----------------------------------------------------------------------------------------------
# The recipe's methods_share


def draw_before(rng: random.Random, recipe: Recipe) -> Optional[Program]:
    """``sources.draw_program`` as it was before the builtins mix (the reference)."""
    chances = recipe.draw_chances()
    if chances["python"] > 0 and rng.random() < chances["python"]:
        from training.data.python_families import generate_python_program

        return generate_python_program(rng)
    if chances["corpus"] > 0 and rng.random() < chances["corpus"]:
        p = corpus.make_program(rng)
        if p is not None:
            return p
    if chances["stdlib"] > 0 and rng.random() < chances["stdlib"]:
        from training.data import stdlib_funcs

        p = stdlib_funcs.make_program(rng)
        if p is not None:
            return p
    if chances.get("debian", 0.0) > 0 and rng.random() < chances["debian"]:
        from training.data import debian

        p = debian.make_program(rng)
        if p is not None:
            return p
    return generate_program(rng)


@pytest.fixture(scope="module")
def real_corpus() -> None:
    try:
        corpus.load()
    except corpus.CorpusMissing as exc:
        if os.environ.get("NDB_NO_SHARED") == "1":
            pytest.skip(f"NDB_NO_SHARED=1: {exc}")
        raise AssertionError(f"{exc}: put ../shared beside the repository (or set NDB_NO_SHARED=1 where it cannot be)")


def test_a_zero_share_draws_the_programs_drawn_before(real_corpus: None) -> None:
    phase12 = json.loads((RECIPES / "data80m_s15.json").read_text())
    assert "methods_share" not in phase12
    without = Recipe.from_dict(phase12)
    with_zero = Recipe.from_dict({**phase12, "methods_share": 0.0})
    assert without == with_zero and without.methods_share == 0.0
    assert "methods" not in without.shares() and "methods" not in without.draw_chances()
    for recipe, seed in ((without, 15), (with_zero, 16), (Recipe(python_share=0.3, stdlib_share=0.1), 3)):
        for i in range(250):
            old = draw_before(random.Random(f"{seed}:{i}"), recipe)
            new = draw_program(random.Random(f"{seed}:{i}"), recipe)
            assert old is not None and new is not None
            assert (old.program_id, old.call, old.origin) == (new.program_id, new.call, new.origin), i


def test_a_share_draws_its_share_and_the_recipe_file() -> None:
    recipe = Recipe(python_share=0.3, stdlib_share=0.0, methods_share=0.25)
    assert recipe.shares() == pytest.approx({"python": 0.3, "corpus": 0.0, "stdlib": 0.0, "methods": 0.25, "generated": 0.45})
    n = 2000
    drawn = collections.Counter(draw_program(random.Random(f"6:{i}"), recipe).origin for i in range(n))  # type: ignore[union-attr]
    for origin, share in recipe.shares().items():
        assert abs(drawn[origin] / n - share) <= 4 * math.sqrt(share * (1 - share) / n) + 1e-9, (origin, drawn)
    # the corpus left out (what a tokenizer is trained on): the later sources keep their chances
    bare = Recipe(python_share=0.3, corpus_share=0.2, stdlib_share=0.05, methods_share=0.25).without_corpus()
    assert bare.draw_chances()["methods"] == pytest.approx(Recipe(python_share=0.3, corpus_share=0.2, stdlib_share=0.05,
                                                                  methods_share=0.25).draw_chances()["methods"])
    with pytest.raises(ValueError):
        Recipe(python_share=0.5, corpus_share=0.3, methods_share=0.3)
    ahead = Recipe.load(RECIPES / "ahead_methods_s6000.json")
    assert ahead.shares() == pytest.approx({"python": 0.25, "corpus": 0.15, "stdlib": 0.04, "debian": 0.1, "methods": 0.25, "generated": 0.21})
    assert ahead.seed == 6000 and ahead.note


@needs_tracer
def test_the_stats_count_the_origin(tmp_path: Path) -> None:
    from training import build_dataset as bd

    recipe = Recipe(methods_share=0.7, stdlib_share=0.0, seed=4, tokenizer=str(ROOT / "public/models/ndb-cpu-6m"), window=1024)
    report = bd.build(recipe, tmp_path / "ds", workers=1, task_size=8, quiet=True, max_programs=16)
    progs = report["programs"]
    assert set(progs["per_source"]) == {"methods", "generated"} and progs["per_source"]["methods"] >= 6
    assert report["exits"]["methods"]["normal"] == progs["per_source"]["methods"]
    assert any(f.startswith("methods:") for f in report["families"])
