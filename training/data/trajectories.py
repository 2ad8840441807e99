"""The paper's stochastic action policy (Beck et al. 2026, see docs/architecture.md#glossary), over forward and inverse trajectories.

Each trajectory first draws its policy with probability ½ each:

- ``mixed``: step_into .35, step_over .1, step_return .2, breakpoint .1, continue .05 (the paper's
  numbers; they sum to .8 and are used as relative weights);
- ``steps``: step_into .5, step_over .5.

With ``jump_share`` > 0 (ours, not the paper's; off by default), that share of trajectories instead
draws ``jumps``: step_return .35, breakpoint .45, continue .2 (inverse: inv_step_call). Jumps are the
actions a small model gets wrong most often, and each one is a whole stretch of the run to predict.

A *forward* trajectory starts where a debugger session starts (the first event) and draws forward
actions. An *inverse* trajectory starts at a later state (the return of the entry function, the
exit, or any event) and draws inverse actions from the same policy mapped to its inverse
(step_into → inv_step_into, step_over → inv_step_over, step_return → inv_step_call; breakpoint and
continue have no inverse and are left out). The CruxEval posings thus occur on their own: a
forward trajectory whose first action is step_return or a breakpoint at the return line (output
prediction), an inverse one that starts at the entry function's return and draws inv_step_call
(input prediction). A trajectory ends at the exit (forward), at the entry (inverse), or after
``max_actions``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Iterator, Optional

from ..actions import Action
from ..format import Trajectory, render_trajectory_pieces
from ..navigator import Navigator

MIXED = {"step_into": 0.35, "step_over": 0.1, "step_return": 0.2, "breakpoint": 0.1, "continue": 0.05}
STEPS = {"step_into": 0.5, "step_over": 0.5}
JUMPS = {"step_return": 0.35, "breakpoint": 0.45, "continue": 0.2}
INVERSE_OF = {"step_into": "inv_step_into", "step_over": "inv_step_over", "step_return": "inv_step_call"}


@dataclass
class TrajectorySpec:
    direction: str  # "forward" | "inverse"
    policy: str  # "mixed" | "steps"
    start: Optional[int]
    actions: list[Action] = field(default_factory=list)
    breakpoints: list[int] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)

    def render(self, rec: dict[str, Any]) -> Trajectory:
        return render_trajectory_pieces(rec, self.actions, self.breakpoints, self.start)


def _draw(rng: random.Random, weights: dict[str, float]) -> str:
    kinds = list(weights)
    return rng.choices(kinds, weights=[weights[k] for k in kinds])[0]


def _code_lines(rec: dict[str, Any]) -> list[int]:
    lines: set[int] = set()
    for code in rec["codes"]:
        lines.update(l for l in code["lines"] if l > code["firstline"])
    return sorted(lines)


def _breakpoint_line(rec: dict[str, Any], pos: int, rng: random.Random) -> int:
    """Mostly a line that a later line event reaches (a hit), sometimes any line of code."""
    events = rec["events"]
    future = sorted({e["line"] for e in events[pos + 1 :] if e["event"] == "line"})
    if future and rng.random() < 0.85:
        return rng.choice(future)
    lines = _code_lines(rec) or [1]
    return rng.choice(lines)


def _inverse_start(rec: dict[str, Any], rng: random.Random) -> int:
    events = rec["events"]
    n = len(events)
    returns = [j for j, e in enumerate(events) if e["depth"] == 0 and e["event"] == "return"]
    r = rng.random()
    if returns and r < 0.4:
        return returns[-1]
    if r < 0.6:
        return n
    return rng.randrange(0, n) if n else n


def sample_trajectory(
    rec: dict[str, Any], rng: random.Random, max_actions: int = 24, inverse_share: float = 0.3, jump_share: float = 0.0
) -> TrajectorySpec:
    """Draws one trajectory over a recording (see the module docstring)."""
    n = len(rec["events"])
    policy = "mixed" if rng.random() < 0.5 else "steps"
    if jump_share > 0 and rng.random() < jump_share:  # drawn only when asked, so old datasets rebuild the same
        policy = "jumps"
    inverse = n > 0 and rng.random() < inverse_share
    if inverse:
        spec = TrajectorySpec("inverse", policy, _inverse_start(rec, rng))
    else:
        spec = TrajectorySpec("forward", policy, None)
    weights = policy_weights(spec)
    if not inverse and policy in ("mixed", "jumps") and rng.random() < 0.3:
        lines = _code_lines(rec)
        if lines:
            spec.breakpoints = sorted(set(rng.sample(lines, min(len(lines), rng.randint(1, 2)))))
    nav = Navigator(rec, spec.breakpoints)
    if spec.start is not None:
        nav.jump(spec.start)
    return extend_trajectory(spec, nav, rec, rng, weights, max_actions)


def policy_weights(spec: TrajectorySpec) -> dict[str, float]:
    weights = {"mixed": MIXED, "steps": STEPS, "jumps": JUMPS}[spec.policy]
    if spec.direction == "inverse":
        return {INVERSE_OF[k]: w for k, w in weights.items() if k in INVERSE_OF}
    return weights


def extend_trajectory(
    spec: TrajectorySpec, nav: Navigator, rec: dict[str, Any], rng: random.Random, weights: dict[str, float], max_actions: int
) -> TrajectorySpec:
    """Draws actions from ``nav``'s position until the run ends or ``spec`` has ``max_actions``."""
    n = len(rec["events"])
    inverse = spec.direction == "inverse"
    while len(spec.actions) < max_actions:
        pos = nav.position
        if (not inverse and pos >= n) or (inverse and pos < 0):
            break
        kind = _draw(rng, weights)
        action = Action("breakpoint", _breakpoint_line(rec, pos, rng)) if kind == "breakpoint" else Action(kind)
        spec.actions.append(action)
        spec.positions.append(nav.apply(action))
    return spec


def trajectory_texts(recordings: list[dict], samples: int, seed: int = 0) -> Iterator[str]:
    """Renders ``samples`` trajectories drawn with the data policy over the recordings."""
    rng = random.Random(seed)
    for _ in range(samples):
        rec = rng.choice(recordings)
        yield sample_trajectory(rec, rng).render(rec).text()
