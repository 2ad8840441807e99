"""What-if trajectories: an edit at a stop, and a run that goes on from the new value."""

from __future__ import annotations

import ast
import json
import random
import subprocess
from pathlib import Path

import pytest

from training import trace_backend as tb
from training.actions import Action
from training.data.trajectories import TrajectorySpec
from training.format import render_trajectory
from training.data.what_if import draw_what_if, editable_locals, new_value
from training.navigator import Navigator
from training.tests.test_build_dataset import needs_tracer

ROOT = Path(__file__).resolve().parents[2]

SOURCE = """def f(xs):
    total = 0
    for x in xs:
        total += x * 2
    return total
"""


def test_new_values_keep_the_type_and_differ() -> None:
    rng = random.Random(0)
    for value in [0, 7, -3, True, False, "", "abc", [], [1, 2], ["a", "b"]]:
        for _ in range(20):
            new = new_value(value, rng)
            assert new != value or type(new) is not type(value)
            assert isinstance(new, type(value)) or (isinstance(value, list) and isinstance(new, list))


def test_editable_locals_are_simple_literals() -> None:
    event = {"locals": {"n": "3", "s": "'hi'", "xs": "[1, 2]", "obj": "<Foo object>", "d": "{'a': 1}", "u": None, "f": "1.5"}}
    assert dict(editable_locals(event)) == {"n": 3, "s": "hi", "xs": [1, 2]}


@pytest.fixture(scope="module")
def backend() -> tb.TraceBackend:
    b = tb.TraceBackend()
    yield b
    b.close()


@needs_tracer
def test_the_run_goes_on_from_the_edited_value(backend: tb.TraceBackend) -> None:
    call = "f([1, 2, 3])"
    rec, err = backend.record(SOURCE, call)
    assert rec is not None, err
    spec = TrajectorySpec("forward", "steps", None)
    nav = Navigator(rec, [])
    for _ in range(6):
        spec.actions.append(Action("step_into"))
        spec.positions.append(nav.apply(Action("step_into")))
    drawn = None
    for seed in range(10):  # a draw can fail (no change possible); some seed gives an edit
        drawn = draw_what_if(rec, spec, random.Random(seed), lambda edits: backend.record(SOURCE, call, edits)[0])
        if drawn is not None:
            break
    assert drawn is not None
    edit, what_if, edited = drawn
    at = edit["at"]
    assert at in spec.positions
    # the same run up to the edit, the new value at the edited stop
    assert edited["events"][:at] == rec["events"][:at]
    assert ast.literal_eval(edited["events"][at]["locals"][edit["name"]]) == ast.literal_eval(edit["expr"])
    assert ast.literal_eval(rec["events"][at]["locals"][edit["name"]]) != ast.literal_eval(edit["expr"])
    # the trajectory replays the original actions up to the edit, then goes on over the edited run
    j = spec.positions.index(at)
    assert what_if.direction == "what_if" and what_if.actions[: j + 1] == spec.actions[: j + 1]
    assert what_if.positions[: j + 1] == spec.positions[: j + 1]
    # the model sees the edited stop: the text up to it differs from the original run's
    upto = spec.actions[: j + 1]
    assert render_trajectory(edited, upto) != render_trajectory(rec, upto)
    assert render_trajectory(edited, upto[:j]) == render_trajectory(rec, upto[:j])


@needs_tracer
def test_an_edit_that_the_program_cannot_take_gives_no_trajectory(backend: tb.TraceBackend) -> None:
    rec, _ = backend.record(SOURCE, "f([1])")
    assert rec is not None
    spec = TrajectorySpec("forward", "steps", None)
    nav = Navigator(rec, [])
    for _ in range(3):
        spec.actions.append(Action("step_into"))
        spec.positions.append(nav.apply(Action("step_into")))
    rerun = lambda edits: backend.record(SOURCE, "f([1])", edits)[0]  # noqa: E731
    assert draw_what_if(rec, spec, random.Random(0), rerun) is not None
    inverse = TrajectorySpec("inverse", "steps", len(rec["events"]), list(spec.actions), positions=list(spec.positions))
    assert draw_what_if(rec, inverse, random.Random(0), rerun) is None  # inverse trajectories: never
    assert draw_what_if(rec, spec, random.Random(0), lambda edits: None) is None  # the re-run failed
    unedited = lambda edits: backend.record(SOURCE, "f([1])")[0]  # noqa: E731  (as Python < 3.13 would show it)
    assert draw_what_if(rec, spec, random.Random(0), unedited) is None


def test_an_edit_sticks_under_python_312_as_under_pyodide() -> None:
    """Before 3.13 f_locals is a snapshot: the tracer writes an edit through (PyFrame_LocalsToFast),
    or the device's 3.12 workers would make almost no what-if trajectories (90 of ~26,000 before)."""
    from training.tests.test_lease import PY312

    if PY312 is None:
        pytest.skip("no Python >= 3.12 here")
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); from training.real_engine import tracer\n"
        "src = 'def f(n):\\n    s = 0\\n    for i in range(n):\\n        s += i\\n    return s\\n'\n"
        "ed = tracer.record(src, 'f(3)', edits=[{'at': 4, 'name': 's', 'expr': '100'}])\n"
        "print(json.dumps([ed['events'][4]['locals']['s'], ed['exit']['value']]))\n"
    )
    out = subprocess.run([PY312, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout) == ["100", "103"]
