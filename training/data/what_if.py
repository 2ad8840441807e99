"""What-if trajectories: a local is changed at a stop, and the run goes on from the new value.

In the app (issue 7) an edit re-runs the program with an assignment made in the live frame, and
the model's history gets the edited stop in place of the real one; from there its predictions
must follow the new value, not the one the call implies. A model trained only on untouched runs
has never seen a state that disagrees with the states before it, and goes on as if nothing had
changed. These trajectories show it: a forward trajectory of the original run up to a stop, where
one local gets a new value of the same type (the tracer's ``edits``), then actions drawn over the
edited run. The transition into the edited stop is not predictable from the history (the value
was typed by a person); it is a small share of the states.
"""

from __future__ import annotations

import ast
import random
from typing import Any, Callable, Optional

from ..navigator import Navigator
from .trajectories import TrajectorySpec, extend_trajectory, policy_weights
from .values import rand_value, source_of

Recorder = Callable[[list[dict[str, Any]]], Optional[dict[str, Any]]]


def editable_locals(event: dict[str, Any]) -> list[tuple[str, Any]]:
    """Locals whose repr is a literal of a simple type (int, bool, str, list of ints or strs)."""
    out: list[tuple[str, Any]] = []
    for name, text in (event.get("locals") or {}).items():
        if text is None or len(text) > 80:
            continue
        value = _literal(text)
        if isinstance(value, (bool, int, str)) or (
            isinstance(value, list) and all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in value)
        ):
            out.append((name, value))
    return out


def new_value(value: Any, rng: random.Random) -> Any:
    """A different value of the same type, of the kind a person would try."""
    for _ in range(10):
        if isinstance(value, bool):
            new: Any = not value
        elif isinstance(value, int):
            new = rng.choice([value + rng.randint(1, 5), value - rng.randint(1, 5), -value, 0, rng.randint(0, 20), value * 10])
        elif isinstance(value, str):
            new = rng.choice([rand_value(rng, "word"), value[::-1], value.upper(), value + rand_value(rng, "word")[:2], ""])
        elif all(isinstance(v, str) for v in value) and value:
            new = rng.choice([value[1:], value[::-1], [*value, rand_value(rng, "word")], rand_value(rng, "list_str")])
        else:
            new = rng.choice([value[1:], value[::-1], [*value, rng.randint(-3, 20)], rand_value(rng, "list_int"), []])
        if new != value or type(new) is not type(value):
            return new
    return None


def draw_what_if(rec: dict[str, Any], spec: TrajectorySpec, rng: random.Random, record: Recorder,
                 max_actions: int = 24) -> Optional[tuple[dict[str, Any], TrajectorySpec, dict[str, Any]]]:
    """From a forward trajectory ``spec`` over ``rec``: (the edit, the what-if trajectory, the edited
    recording), or None when no stop of ``spec`` has a local to edit or the re-run fails."""
    events = rec["events"]
    if spec.direction != "forward":
        return None
    stops = [
        (j, pos, editable) for j, pos in enumerate(spec.positions)
        if 0 <= pos < len(events) and events[pos]["event"] == "line" and (editable := editable_locals(events[pos]))
    ]  # fmt: skip
    if not stops:
        return None
    j, pos, editable = rng.choice(stops)
    name, value = rng.choice(editable)
    new = new_value(value, rng)
    if new is None:
        return None
    edit = {"at": pos, "name": name, "expr": source_of(new)}
    edited = record([edit])
    if edited is None or len(edited["events"]) <= pos or not edited["events"][pos].get("edits"):
        return None
    # Python < 3.13 does not write f_locals through to the frame (PEP 667): the stop would show the
    # old value. And the run must be the same up to the edit, stop for stop.
    shown = edited["events"][pos]["locals"].get(name)
    if shown is None or _literal(shown) != new:
        return None
    if [_stop(e) for e in edited["events"][:pos]] != [_stop(e) for e in events[:pos]]:
        return None
    # The run is the same up to the edited event, so the prefix of actions stops at the same places.
    what_if = TrajectorySpec("what_if", spec.policy, None, breakpoints=list(spec.breakpoints))
    nav = Navigator(edited, what_if.breakpoints)
    for action in spec.actions[: j + 1]:
        what_if.actions.append(action)
        what_if.positions.append(nav.apply(action))
    if what_if.positions != spec.positions[: j + 1]:
        return None
    # max_actions more after the edit: the point is the run from the new value
    return edit, extend_trajectory(what_if, nav, edited, rng, policy_weights(what_if), j + 1 + max_actions), edited


def _literal(text: str) -> Any:
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _stop(event: dict[str, Any]) -> tuple[Any, ...]:
    return event["event"], event["line"], event["frame"], event["function"], event.get("locals")
