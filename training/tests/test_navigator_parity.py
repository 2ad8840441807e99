"""training/navigator.py against src/core/navigator.ts: the Python navigator labels the training
data, so it must stop wherever the app's navigator (checked against CPython's bdb) stops.

fixtures/navigator/sequences.jsonl holds, for real recordings, random debugger sessions and the
stops that the TypeScript navigator gives (``npx tsx fixtures/navigator/generate.ts`` writes it;
src/core/navigator.parity.test.ts replays it on the TypeScript side)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from training.actions import parse_action
from training.navigator import BreakCondition, Navigator

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures/navigator/sequences.jsonl"
ENTRIES: list[dict[str, Any]] = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]


def replay(rec: dict[str, Any], seq: dict[str, Any]) -> list[int]:
    """The position after each step of ``seq``, as the Python navigator gives it."""
    nav = Navigator(rec, seq["breakpoints"])
    for line, spec in seq.get("conditions", {}).items():
        nav.set_condition(int(line), BreakCondition(spec.get("condition"), spec.get("hitCount")))
    if "start" in seq:
        nav.jump(seq["start"])
    stops: list[int] = []
    for step in seq["steps"].split(",") if seq["steps"] else []:
        if step.startswith("break:"):
            nav.add_breakpoint(int(step[len("break:") :]))
        elif step.startswith("clear:"):
            nav.remove_breakpoint(int(step[len("clear:") :]))
        else:
            nav.apply(parse_action(step))
        stops.append(nav.position)
    return stops


def _mismatches(entry: dict[str, Any]) -> Iterator[str]:
    for k, seq in enumerate(entry["sequences"]):
        got = replay(entry["recording"], seq)
        if got != seq["stops"]:
            at = next(i for i, (a, b) in enumerate(zip(got, seq["stops"])) if a != b)
            steps = seq["steps"].split(",")
            yield (
                f"sequence {k}: breakpoints {seq['breakpoints']}, conditions {seq.get('conditions')}, "
                f"start {seq.get('start')}\n  steps {','.join(steps[: at + 1])}\n"
                f"  python {got[: at + 1]}\n  ts     {seq['stops'][: at + 1]}"
            )


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["name"] for e in ENTRIES])
def test_same_stops_as_the_typescript_navigator(entry: dict[str, Any]) -> None:
    bad = list(_mismatches(entry))
    assert not bad, f"{len(bad)} of {len(entry['sequences'])} sequences differ; the first:\n{bad[0]}"


def test_the_fixture_covers_what_it_should() -> None:
    sequences = [s for e in ENTRIES for s in e["sequences"]]
    steps = [step.split(":")[0] for s in sequences for step in s["steps"].split(",")]
    assert len(ENTRIES) >= 100 and len(sequences) >= 2000
    depths = [max((ev["depth"] for ev in e["recording"]["events"]), default=0) for e in ENTRIES]
    assert sum(d >= 2 for d in depths) >= 15  # three frames and more on the stack
    generators = [e for e in ENTRIES if any(c["generator"] for c in e["recording"]["codes"])]
    exceptions = [e for e in ENTRIES if any(ev["event"] == "exception" for ev in e["recording"]["events"])]
    assert len(generators) >= 5 and len(exceptions) >= 5
    for kind in ("step_into", "step_over", "step_return", "continue", "breakpoint", "inv_step_into", "inv_step_over", "inv_step_call", "break", "clear"):
        assert steps.count(kind) >= 500, kind
    assert sum("conditions" in s for s in sequences) >= 200
    assert sum("start" in s for s in sequences) >= 200


def _entry(name: str) -> dict[str, Any]:
    return next(e for e in ENTRIES if e["name"] == name)


def test_a_breakpoint_set_while_stopped_traces_the_frames_already_running() -> None:
    """Issue 15 §4. Stopped in inner() (main → middle → inner) at its gutter breakpoint, reached by
    `continue`: middle() was entered while no breakpoint was in its code, so bdb did not trace it.
    `breakpoint:L` at a line of middle() sets a breakpoint, and bdb's set_break gives f_trace to
    every frame on the stack whose code has one: the run stops at L in the running middle()."""
    rec = _entry("fixtures/navigator/programs/continue_then_breakpoint.py")["recording"]
    events = rec["events"]
    source = rec["source"].splitlines()
    inner_line = next(i for i, t in enumerate(source, 1) if t.strip() == "y = x * 2")
    middle_line = next(i for i, t in enumerate(source, 1) if t.strip() == "total += 1")
    nav = Navigator(rec, [inner_line])
    first = nav.apply(parse_action("continue"))
    assert (events[first]["event"], events[first]["function"], events[first]["line"], events[first]["depth"]) == ("line", "inner", inner_line, 2)
    second = nav.apply(parse_action(f"breakpoint:{middle_line}"))
    assert second < len(events), "ran to the end: middle() was not traced"
    assert (events[second]["event"], events[second]["function"], events[second]["line"], events[second]["depth"]) == ("line", "middle", middle_line, 1)
    # The same through a gutter breakpoint set while stopped, then continue.
    nav = Navigator(rec, [inner_line])
    nav.apply(parse_action("continue"))
    nav.add_breakpoint(middle_line)
    nav.remove_breakpoint(inner_line)
    assert nav.apply(parse_action("continue")) == second
