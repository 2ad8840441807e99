"""The stochastic action policy over forward and inverse trajectories."""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path

from training import format as fmt
from training.data.trajectories import sample_trajectory
from training.navigator import Navigator
from training.trace_jsonl import read_trace_jsonl

ROOT = Path(__file__).resolve().parents[2]
RECS = [json.loads(l)["recording"] for l in (ROOT / "fixtures/data/generated_recordings.jsonl").read_text().splitlines()]
RECS += [read_trace_jsonl(str(p)) for p in sorted((ROOT / "fixtures/format/traces").glob("*.jsonl"))]


def _sample(n: int, seed: int = 0):
    rng = random.Random(seed)
    for i in range(n):
        rec = RECS[i % len(RECS)]
        yield rec, sample_trajectory(rec, rng)


def test_action_mix_follows_the_policy() -> None:
    kinds: dict[str, collections.Counter] = {"mixed": collections.Counter(), "steps": collections.Counter()}
    directions = collections.Counter()
    for _, spec in _sample(3000):
        directions[spec.direction] += 1
        kinds[spec.policy].update(a.kind for a in spec.actions)
    assert 0.2 < directions["inverse"] / 3000 < 0.4
    steps = kinds["steps"]
    assert set(steps) <= {"step_into", "step_over", "inv_step_into", "inv_step_over"}
    assert 0.4 < steps["step_into"] / (steps["step_into"] + steps["step_over"]) < 0.6
    mixed = kinds["mixed"]
    assert {"step_into", "step_over", "step_return", "breakpoint", "continue", "inv_step_into", "inv_step_over", "inv_step_call"} <= set(mixed)
    fwd = sum(mixed[k] for k in ("step_into", "step_over", "step_return", "breakpoint", "continue"))
    assert 0.38 < mixed["step_into"] / fwd < 0.5  # .35 / .8 ≈ .44, ends of trajectories aside


def test_jump_share_draws_only_jumps_and_leaves_the_default_as_it_was() -> None:
    rng_a, rng_b, rng_j = random.Random(4), random.Random(4), random.Random(4)
    policies = collections.Counter()
    kinds = collections.Counter()
    for i in range(600):
        rec = RECS[i % len(RECS)]
        a, b = sample_trajectory(rec, rng_a), sample_trajectory(rec, rng_b, jump_share=0.0)
        assert (a.policy, a.start, a.actions) == (b.policy, b.start, b.actions)
        j = sample_trajectory(rec, rng_j, jump_share=0.5)
        policies[j.policy] += 1
        if j.policy == "jumps":
            kinds.update(x.kind for x in j.actions)
    assert 0.4 < policies["jumps"] / 600 < 0.6
    assert set(kinds) == {"step_return", "breakpoint", "continue", "inv_step_call"}


def test_trajectories_stop_at_the_ends_and_replay() -> None:
    for rec, spec in _sample(600, seed=1):
        n = len(rec["events"])
        assert len(spec.actions) == len(spec.positions) <= 24
        nav = Navigator(rec, spec.breakpoints)
        if spec.start is not None:
            nav.jump(spec.start)
        assert [nav.apply(a) for a in spec.actions] == spec.positions
        # nothing is drawn after the exit (forward) or the entry (inverse)
        stop = (lambda p: p >= n) if spec.direction == "forward" else (lambda p: p < 0)
        assert not any(stop(p) for p in spec.positions[:-1])
        assert all(a.inverse == (spec.direction == "inverse") for a in spec.actions)


def test_cruxeval_posings_occur_naturally() -> None:
    output_return = output_bp = input_call = 0
    for rec, spec in _sample(3000, seed=2):
        if not spec.actions:
            continue
        first = spec.actions[0]
        if spec.direction == "forward" and first.kind == "step_return" and spec.positions[0] < len(rec["events"]):
            output_return += rec["events"][spec.positions[0]]["depth"] == 0
        if spec.direction == "forward" and first.kind == "breakpoint":
            p = spec.positions[0]
            output_bp += p < len(rec["events"]) and rec["events"][p]["event"] == "line"
        if spec.direction == "inverse" and first.kind == "inv_step_call" and spec.start is not None:
            e = rec["events"][spec.start] if spec.start < len(rec["events"]) else None
            input_call += bool(e and e["event"] == "return" and e["depth"] == 0 and spec.positions[0] == 0)
    assert output_return > 50 and output_bp > 20 and input_call > 20


def test_rendered_trajectories_parse_back() -> None:
    for rec, spec in _sample(300, seed=3):
        traj = spec.render(rec)
        text = traj.text()
        assert text.startswith(fmt.TRACE_CONTEXT_START) and text.endswith(fmt.TRACE_END)
        prev = fmt.parse_state(traj.first).get("locals")
        for step in traj.steps:
            parsed = fmt.parse_state(step.state_text, prev)
            assert "unparseable" not in parsed, step.state_text
            prev = parsed.get("locals")
