"""Test oracle: runs a program under CPython's own bdb and reports where each command stops.

The navigator in src/core replays bdb's logic over a recording; this drives the real bdb on the
live program so the two can be compared stop for stop. Each *segment* is a fresh run: it first
reaches event number ``goto`` by stepping one event at a time, then issues its commands.
"""

from __future__ import annotations

import bdb
import builtins
import json
import linecache
import os
import sys
from typing import Any

import ndb_tracer as T


class _Oracle(bdb.Bdb):
    def __init__(
        self, commands: list[str], goto: int, breakpoints: list[int], path: str, conditions: dict[str, list[Any]] | None = None
    ) -> None:
        super().__init__(skip=["*"])
        self.commands = list(commands)
        self.goto = goto
        self.path = path
        self.events_seen = 0
        self.snapshots: list[dict[str, Any]] = []
        self.frame_ids: dict[int, int] = {}
        self.frames_alive: list[Any] = []
        self.reprer = T._Reprer(T.DEFAULT_MAX_REPR)
        self.helper = T.Recorder(10**9, T.DEFAULT_MAX_REPR, None)
        self.temporary: Any = None
        for line in breakpoints:
            # A condition and a hit count N become bdb's cond and ignore = N - 1.
            cond, hit_count = (conditions or {}).get(str(line), [None, 1])
            error = self.set_break(path, line, cond=cond)
            if error:
                raise ValueError(error)
            self.get_breaks(path, line)[-1].ignore = max(0, int(hit_count) - 1)

    # Only the user's code is debugged (justMyCode): every other module is skipped.
    def is_skipped_module(self, module_name: str | None) -> bool:
        return module_name != "__main__"

    def trace_dispatch(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename == T.USER_FILENAME and event in ("call", "line", "return", "exception"):
            if event == "call" and id(frame) not in self.frame_ids:
                self.frame_ids[id(frame)] = len(self.frame_ids)
                self.frames_alive.append(frame)
            self.events_seen += 1
        return super().trace_dispatch(frame, event, arg)

    def do_clear(self, arg: str) -> None:
        self.clear_bpbynumber(arg)

    def _depth(self, frame: Any) -> int:
        depth = 0
        back = frame.f_back
        while back is not None:
            if back.f_code.co_filename == T.USER_FILENAME:
                depth += 1
            back = back.f_back
        return depth

    def _stop(self, frame: Any, kind: str, value: Any = None, has_value: bool = False) -> None:
        if self.events_seen <= self.goto:
            # Still travelling to the segment's first event: stop at every event.
            self._set_stopinfo(None, None)
            return
        if self.temporary is not None:
            if self.temporary.number in [b.number for b in bdb.Breakpoint.bpbynumber if b]:
                self.clear_bpbynumber(str(self.temporary.number))
            self.temporary = None
        self._snapshot(frame, kind, value, has_value)
        command = ""
        while self.commands:
            command = self.commands.pop(0)
            if command.startswith(("break:", "clear:")):
                # A persistent breakpoint set or cleared while stopped (the gutter in the app).
                line = int(command.split(":")[1])
                if command.startswith("break:"):
                    self.set_break(self.path, line)
                else:
                    self.clear_break(self.path, line)
            elif command.startswith("set:"):
                # What-if: the assignment made in the live frame, as pdb's `!name = expr`; the
                # same stop is reported again with the edited locals.
                name, expr = command[4:].split("=", 1)
                frame.f_locals[name] = eval(expr, frame.f_globals, frame.f_locals)
                self._snapshot(frame, kind, value, has_value)
            else:
                break
            command = ""
        if not command:
            self.set_quit()
            return
        if command == "step_into":
            self.set_step()
        elif command == "step_over":
            self.set_next(frame)
        elif command == "step_return":
            self.set_return(frame)
        elif command == "continue":
            self.set_continue()
        elif command == "until":
            self.set_until(frame)
        elif command.startswith("until:"):
            # pdb's `until LINE` (the prompt refuses a line not past the current one, as pdb does)
            self.set_until(frame, int(command.split(":")[1]))
        elif command.startswith("breakpoint:"):
            self.set_break(self.path, int(command.split(":")[1]), temporary=True)
            self.temporary = bdb.Breakpoint.bpbynumber[-1]
            self.set_continue()
        else:
            raise ValueError(f"unknown command {command}")

    def _snapshot(self, frame: Any, kind: str, value: Any, has_value: bool) -> None:
        snap: dict[str, Any] = {
            "event": kind,
            "line": frame.f_lineno,
            "function": frame.f_code.co_name,
            "depth": self._depth(frame),
            "frame": self.frame_ids.get(id(frame), -1),
            "locals": self.helper._locals(frame),
        }
        if has_value:
            snap["value"] = self.reprer(value)
        self.snapshots.append(snap)

    def user_call(self, frame: Any, argument_list: Any) -> None:
        # As pdb.Pdb.user_call: bdb calls this when it *might* stop (a breakpoint somewhere in
        # the function); the debugger stops only if stop_here holds.
        if self.stop_here(frame):
            self._stop(frame, "call")

    def user_line(self, frame: Any) -> None:
        self._stop(frame, "line")

    def user_return(self, frame: Any, return_value: Any) -> None:
        self._stop(frame, "return", return_value, True)

    def user_exception(self, frame: Any, exc_info: Any) -> None:
        self._stop(frame, "exception", exc_info[1], True)


def run_segment(
    source: str, call: str, breakpoints: list[int], goto: int, commands: list[str], conditions: dict[str, list[Any]] | None = None
) -> list[dict[str, Any]]:
    path = os.path.abspath(T.USER_FILENAME)
    with open(path, "w") as handle:
        handle.write(source)
    linecache.checkcache()
    bdb.Breakpoint.next = 1
    bdb.Breakpoint.bplist = {}
    bdb.Breakpoint.bpbynumber = [None]
    oracle = _Oracle(commands, goto, breakpoints, path, conditions)
    code = compile(source, T.USER_FILENAME, "exec")
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    saved, saved_input = sys.stdout, builtins.input
    sys.stdout = T._Capture()
    builtins.input = T._no_input
    try:
        if call:
            exec(code, namespace)
            # The call expression is not the user's code: give its frame a module name bdb skips.
            call_namespace = dict(namespace, __name__="ndb_call")
            oracle.runcall(T._run_call, compile(call, "<call>", "eval"), call_namespace)
        else:
            oracle.runcall(T._run_module, code, namespace)
    except BaseException:
        pass  # an uncaught exception of the program ends the run, as in pdb
    finally:
        sys.settrace(None)
        sys.stdout = saved
        builtins.input = saved_input
    oracle.snapshots.append({"event": "exit"})
    return oracle.snapshots


def run_segments_json(request_json: str) -> str:
    request = json.loads(request_json)
    out = []
    for segment in request["segments"]:
        out.append(
            run_segment(
                request["source"],
                request["call"],
                segment["breakpoints"],
                segment["goto"],
                segment["commands"],
                segment.get("conditions"),
            )
        )
    return json.dumps(out)
