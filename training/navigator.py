"""A faithful port of src/core/navigator.ts: where pdb (CPython 3.14's bdb) would stop for each
debugger action, replayed over a recording; plus the inverse walks. Keep the two in step: the
test ``test_navigator.py`` checks that both give the same positions on the fixtures."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Union

from .actions import Action

ENTRY = -1
NONE = None  # Python's None as bdb holds it
ELSEWHERE = -1  # a frame that is never stopped in (a library frame, bdb's bottom frame)

FrameRef = Union[int, None]


@dataclass(frozen=True)
class StopInfo:
    stopframe: FrameRef
    returnframe: FrameRef
    stoplineno: int
    cmdframe: FrameRef
    cmdlineno: int | None


STEP_ANYWHERE = StopInfo(NONE, NONE, 0, NONE, None)


def stack_at(rec: dict[str, Any], pos: int) -> list[dict[str, Any]]:
    """The call stack at a position, outermost frame first (src/core/state.ts stackAt)."""
    stack: list[dict[str, Any]] = []
    events = rec["events"]
    for j in range(0, min(pos + 1, len(events))):
        e = events[j]
        d = e["depth"]
        if d < 0:
            continue
        del stack[d:]
        while len(stack) < d:  # JS arrays grow with holes; keep the index right
            stack.append({"function": "", "line": 0, "frame": None})
        stack.append({"function": e["function"], "line": e["line"], "frame": e["frame"]})
    return stack


class Navigator:
    def __init__(self, recording: dict[str, Any], breakpoints: Iterable[int] = ()) -> None:
        self.recording = recording
        self.breakpoints: set[int] = set(breakpoints)
        self.pos = 0
        self.traced: set[int] = set()
        self.frame_is_generator: dict[int, bool] = {}
        codes = recording["codes"]
        for e in recording["events"]:
            if e["frame"] not in self.frame_is_generator:
                c = e["code"]
                self.frame_is_generator[e["frame"]] = bool(codes[c]["generator"]) if 0 <= c < len(codes) else False
        n = len(recording["events"])
        self.jump(0 if n > 0 else n)

    @property
    def position(self) -> int:
        return self.pos

    @property
    def at_exit(self) -> bool:
        return self.pos >= len(self.recording["events"])

    def jump(self, pos: int) -> None:
        n = len(self.recording["events"])
        self.pos = max(ENTRY, min(n, pos))
        if 0 <= self.pos < n:
            self.traced = {f["frame"] for f in stack_at(self.recording, self.pos) if f["frame"] is not None}
        else:
            self.traced = set()

    def apply(self, action: Action) -> int:
        kind = action.kind
        events = self.recording["events"]
        if kind == "inv_step_into":
            self.jump(self.pos - 1 if self.pos >= 0 else ENTRY)
        elif kind == "inv_step_over":
            self.jump(previous_at_or_above(events, self.pos))
        elif kind == "inv_step_call":
            self.jump(call_of_frame(events, self.pos))
        else:
            self.pos = self._forward(action)
        return self.pos

    def _is_generator(self, frame: FrameRef) -> bool:
        return isinstance(frame, int) and frame >= 0 and self.frame_is_generator.get(frame, False)

    def _forward(self, action: Action) -> int:
        rec = self.recording
        events = rec["events"]
        n = len(events)
        if self.pos >= n:
            return n
        if self.pos < 0:
            self.jump(0)
            if action.kind not in ("continue", "breakpoint"):
                return self.pos
            if n == 0:
                return n
        breaks = set(self.breakpoints)
        if action.kind == "breakpoint":
            assert action.line is not None
            breaks.add(action.line)
        cur = events[self.pos]
        here: FrameRef = cur["frame"]
        if action.kind == "step_into":
            st = replace(STEP_ANYWHERE, cmdframe=here, cmdlineno=cur["line"])
        elif action.kind == "step_over":
            st = StopInfo(here, NONE, 0, here, cur["line"])
        elif action.kind == "step_return":
            if self._is_generator(here):
                st = StopInfo(here, here, -1, NONE, None)
            else:
                st = StopInfo(cur["parent"] if cur["parent"] >= 0 else ELSEWHERE, here, 0, NONE, None)
        elif action.kind in ("continue", "breakpoint"):
            if not breaks:
                return n
            st = StopInfo(ELSEWHERE, NONE, -1, NONE, None)
        else:
            raise ValueError(f"not a forward action: {action.kind}")
        if cur["event"] == "return":
            if st.stopframe == here and st.stoplineno != -1:
                st = STEP_ANYWHERE
            if st.stoplineno != -1 and cur["parent"] >= 0:
                self.traced.add(cur["parent"])

        def stop_here(e: dict[str, Any]) -> bool:
            if e["frame"] == st.stopframe:
                return False if st.stoplineno == -1 else e["line"] >= st.stoplineno
            return st.stopframe is NONE

        def break_here(e: dict[str, Any]) -> bool:
            return e["line"] in breaks

        codes = rec["codes"]

        def break_anywhere(e: dict[str, Any]) -> bool:
            c = e["code"]
            if not (0 <= c < len(codes)):
                return False
            code = codes[c]
            return any(line >= code["firstline"] and line in code["lines"] for line in breaks)

        for j in range(self.pos + 1, n):
            e = events[j]
            f = e["frame"]
            ev = e["event"]
            if ev == "call":
                if not (stop_here(e) or break_anywhere(e)):
                    continue
                self.traced.add(f)
                if st.stopframe is not NONE and self._is_generator(f):
                    continue
                # bdb calls user_call here "if we might stop"; pdb stops only if stop_here holds.
                if stop_here(e):
                    return j
                continue
            if ev == "line":
                if f not in self.traced:
                    continue
                if (stop_here(e) or break_here(e)) and not (st.cmdframe == f and st.cmdlineno == e["line"]):
                    return j
                continue
            if ev == "return":
                if f not in self.traced:
                    continue
                if stop_here(e) or f == st.returnframe:
                    if st.stopframe is not NONE and self._is_generator(f):
                        if e["parent"] >= 0:
                            self.traced.add(e["parent"])
                        continue
                    return j
                continue
            if ev == "exception":
                if f not in self.traced:
                    continue
                stop_iteration = e.get("exc_type") == "StopIteration"
                if stop_here(e):
                    if not (self._is_generator(f) and stop_iteration and e.get("exc_tb_none")):
                        return j
                elif (
                    st.stopframe is not NONE
                    and f != st.stopframe
                    and self._is_generator(st.stopframe)
                    and (stop_iteration or e.get("exc_type") == "GeneratorExit")
                ):
                    return j
                continue
        return n


def _depth_at(events: list[dict[str, Any]], pos: int) -> int:
    return events[pos]["depth"] if 0 <= pos < len(events) else 0


def previous_at_or_above(events: list[dict[str, Any]], pos: int) -> int:
    """inv_step_over: the latest earlier event at the same or a shallower depth."""
    d = _depth_at(events, pos)
    for j in range(min(pos, len(events)) - 1, -1, -1):
        if events[j]["depth"] <= d:
            return j
    return ENTRY


def call_of_frame(events: list[dict[str, Any]], pos: int) -> int:
    """inv_step_call: this frame's call event; at a call event, the caller's."""
    if pos < 0:
        return ENTRY
    at = pos
    if pos >= len(events):
        at = -1
        for j in range(len(events) - 1, -1, -1):
            if events[j]["depth"] == 0:
                at = j
                break
        if at < 0:
            return ENTRY
    elif events[pos]["event"] == "call":
        d = events[pos]["depth"]
        at = -1
        for j in range(pos - 1, -1, -1):
            if events[j]["depth"] < d:
                at = j
                break
        if at < 0:
            return ENTRY
    frame = events[at]["frame"]
    for j in range(at, -1, -1):
        e = events[j]
        if e["frame"] == frame and e["event"] == "call":
            return j
    return ENTRY
