"""A port of src/core/navigator.ts: where pdb (CPython 3.14's bdb) would stop for each debugger
action, replayed over a recording; plus the inverse walks. This navigator labels the training data,
so it must stop wherever the app's navigator stops (and that one is checked against the real bdb by
src/realEngine/bdbOracle.test.ts). training/tests/test_navigator_parity.py and
src/core/navigator.parity.test.ts replay the same random sessions (fixtures/navigator/) on both;
change the two together and regenerate the fixture with ``npx tsx fixtures/navigator/generate.ts``.

Ported in full: the forward actions' bdb logic, breakpoints set or removed while stopped
(``add_breakpoint``, pdb's ``break``, which gives f_trace to the running frames whose code has a
breakpoint; ``breakpoint:L`` does the same for L), breakpoint conditions and hit counts, the
inverse walks.

Left out: ``Navigator.withRecording`` (TypeScript), which carries a stop over to a re-run of the
program after a what-if edit. Training never needs it: training/data/what_if.py replays the
actions from the start on a fresh Navigator over the edited recording, whose events are the same
up to the edit, so it reaches the same stop with the same traced frames.
"""

from __future__ import annotations

from bisect import bisect_right
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


@dataclass(frozen=True)
class BreakCondition:
    """What makes a breakpoint stop besides its line (navigator.ts BreakCondition): a condition (its
    value at each line event is the recording's ``hit``, recorded with the tracer's ``conditions``)
    and a hit count (stop from the N-th time the line is reached with the condition true, counted
    from the program's start). A condition that raises stops, as in bdb."""

    condition: str | None = None
    hit_count: int | None = None


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
        # Lines with a user breakpoint (the gutter). Set them while stopped with add_breakpoint:
        # adding to this set directly skips bdb's tracing of the running frames.
        self.breakpoints: set[int] = set(breakpoints)
        self.conditions: dict[int, BreakCondition] = {}
        self._hit_cache: dict[int, list[int]] = {}
        self.pos = 0
        # Frames whose f_trace is set: only their line/return/exception events reach bdb.
        self.traced: set[int] = set()
        self.frame_code: dict[int, int] = {}
        for e in recording["events"]:
            self.frame_code.setdefault(e["frame"], e["code"])
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

    def add_breakpoint(self, line: int) -> None:
        """Sets a persistent breakpoint while stopped, as pdb's ``break`` does."""
        self.breakpoints.add(line)
        self._trace_frames_that_can_break(self.breakpoints)

    def remove_breakpoint(self, line: int) -> None:
        self.breakpoints.discard(line)

    def set_condition(self, line: int, condition: BreakCondition | None) -> None:
        """Sets (or with None, clears) the condition and hit count of the breakpoint at ``line``.
        A condition needs a recording made with it (the events' ``hit``)."""
        self._hit_cache.pop(line, None)
        if condition is not None and (condition.condition or (condition.hit_count or 0) > 1):
            self.conditions[line] = condition
        else:
            self.conditions.pop(line, None)

    def condition_of(self, line: int) -> BreakCondition | None:
        return self.conditions.get(line)

    def _effective(self, e: dict[str, Any], j: int) -> bool:
        """bdb's ``effective``: does the breakpoint at this line event stop?"""
        spec = self.conditions.get(e["line"])
        if spec is None:
            return True
        if spec.condition and e.get("hit") is not True:
            return False
        # As bdb: a condition that raises stops whatever the hit count says, and is no hit.
        if spec.condition and "hit_error" in e:
            return True
        need = spec.hit_count if spec.hit_count is not None else 1
        if need <= 1:
            return True
        return bisect_right(self._hits_of(e["line"], spec), j) >= need

    def _hits_of(self, line: int, spec: BreakCondition) -> list[int]:
        hits = self._hit_cache.get(line)
        if hits is None:
            hits = [
                i for i, e in enumerate(self.recording["events"])
                if e["event"] == "line" and e["line"] == line
                and (not spec.condition or (e.get("hit") is True and "hit_error" not in e))
            ]  # fmt: skip
            self._hit_cache[line] = hits
        return hits

    def _trace_frames_that_can_break(self, breaks: set[int]) -> None:
        """bdb's set_break: every frame on the stack that contains a breakpoint line gets f_trace,
        frames already running included (they may have been entered while nothing could stop in
        them, with tracing off)."""
        events = self.recording["events"]
        if not (0 <= self.pos < len(events)):
            return
        for frame in stack_at(self.recording, self.pos):
            f = frame["frame"]
            code = self.frame_code.get(f) if f is not None else None
            if code is not None and self._code_has_break(code, breaks):
                self.traced.add(f)

    def _code_has_break(self, code_index: int, breaks: set[int]) -> bool:
        codes = self.recording["codes"]
        if not (0 <= code_index < len(codes)):
            return False
        code = codes[code_index]
        return any(line >= code["firstline"] and line in code["lines"] for line in breaks)

    def _is_generator(self, frame: FrameRef) -> bool:
        if not isinstance(frame, int) or frame < 0:
            return False
        code = self.frame_code.get(frame)
        codes = self.recording["codes"]
        return code is not None and 0 <= code < len(codes) and bool(codes[code].get("generator", False))

    def _forward(self, action: Action) -> int:
        events = self.recording["events"]
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
        run_to = action.line if action.kind == "breakpoint" else None
        if action.kind == "breakpoint":
            assert action.line is not None
            breaks.add(action.line)
            # tbreak is a set_break too: the running frames whose code has L start tracing.
            self._trace_frames_that_can_break(breaks)
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

        def break_here(e: dict[str, Any], j: int) -> bool:
            # The temporary breakpoint of `breakpoint:L` has no condition of its own.
            return e["line"] in breaks and (e["line"] == run_to or self._effective(e, j))

        def break_anywhere(e: dict[str, Any]) -> bool:
            return self._code_has_break(e["code"], breaks)

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
                if (stop_here(e) or break_here(e, j)) and not (st.cmdframe == f and st.cmdlineno == e["line"]):
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
