"""Debugger actions, as in src/core/actions.ts: the names used by the CLI, the format and the UI."""

from __future__ import annotations

import re
from dataclasses import dataclass

FORWARD_ACTIONS = ("step_into", "step_over", "step_return", "continue")
INVERSE_ACTIONS = ("inv_step_into", "inv_step_over", "inv_step_call")
ALL_KINDS = FORWARD_ACTIONS + ("breakpoint",) + INVERSE_ACTIONS


class ActionSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Action:
    kind: str
    line: int | None = None  # the target of a breakpoint

    @property
    def inverse(self) -> bool:
        return self.kind in INVERSE_ACTIONS

    def __str__(self) -> str:
        return f"breakpoint:{self.line}" if self.kind == "breakpoint" else self.kind


_BP = re.compile(r"breakpoint[: ]([0-9]+)")


def parse_action(text: str) -> Action:
    t = text.strip()
    m = _BP.fullmatch(t)
    if m:
        return Action("breakpoint", int(m.group(1)))
    if t in FORWARD_ACTIONS or t in INVERSE_ACTIONS:
        return Action(t)
    expected = ", ".join([*FORWARD_ACTIONS, "breakpoint:LINE", *INVERSE_ACTIONS])
    raise ActionSyntaxError(f"unknown action '{t}': expected one of {expected}")


def parse_action_list(text: str) -> list[Action]:
    return [parse_action(s) for s in (p.strip() for p in text.split(",")) if s]
