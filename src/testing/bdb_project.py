"""Test oracle for programs of several files: CPython's own bdb on a project written into
Pyodide's memory, reporting where ``continue`` stops (file, line, function, event) with
breakpoints in any of its files, and where it stops on exceptions (pdb's post-mortem-free
``raised`` mode: every exception event of the project's frames; ``uncaught``: the innermost frame
of the exception that ends the run, where pdb's post mortem starts). The project's own files are
its modules; everything else (the standard library, the import system) is skipped, as ndb does.
"""

from __future__ import annotations

import bdb
import builtins
import io
import json
import linecache
import os
import shutil
import sys
from typing import Any

FOLDER = "/ndb_bdb_project"


class _Project(bdb.Bdb):
    def __init__(self, files: set[str], exceptions: str) -> None:
        super().__init__()
        self.files = files
        self.exceptions = exceptions
        self.stops: list[dict[str, Any]] = []
        self.started = False

    def _mine(self, frame: Any) -> bool:
        return frame.f_code.co_filename in self.files

    def stop_here(self, frame: Any) -> bool:
        return self._mine(frame) and super().stop_here(frame)

    def break_here(self, frame: Any) -> bool:
        return self._mine(frame) and super().break_here(frame)

    def _where(self, frame: Any, event: str) -> dict[str, Any]:
        return {"file": os.path.relpath(frame.f_code.co_filename, FOLDER), "line": frame.f_lineno, "function": frame.f_code.co_name, "event": event}

    def user_line(self, frame: Any) -> None:
        # bdb's run starts by stepping: its first stop is the program's start, where ndb's
        # session starts too; from there on each stop is one `continue`.
        if self.started:
            self.stops.append(self._where(frame, "line"))
        self.started = True
        self.set_continue()

    def user_call(self, frame: Any, argument_list: Any) -> None:
        self.started = True
        self.set_continue()

    def user_return(self, frame: Any, value: Any) -> None:
        self.set_continue()

    def user_exception(self, frame: Any, exc_info: Any) -> None:
        # bdb reports exception events only where it would stop (a step, or the frame traced); a
        # debugger that stops on raised exceptions stops at each in the project's frames.
        where = dict(self._where(frame, "exception"), exc_type=exc_info[0].__name__)
        # Raised here, not passing through from a frame it called: its traceback starts here.
        tb = exc_info[2]
        if self.exceptions == "raised" and tb is not None and tb.tb_next is None:
            self.stops.append(where)
        self.set_continue()

    def set_continue(self) -> None:
        # bdb's continue drops its tracer when no breakpoint is set; stopping on raised exceptions
        # needs it kept, as a debugger with exception breakpoints does.
        if self.exceptions == "raised":
            self._set_stopinfo(self.botframe, None, -1)
        else:
            super().set_continue()

    def dispatch_call(self, frame: Any, arg: Any) -> Any:
        if self.exceptions == "raised" and self._mine(frame):
            super().dispatch_call(frame, arg)
            return self.trace_dispatch
        return super().dispatch_call(frame, arg)

    def dispatch_exception(self, frame: Any, arg: Any) -> Any:
        # bdb asks user_exception only where it would stop; with exception stops on, every
        # exception event of a project frame is one.
        if self.exceptions == "raised" and self._mine(frame):
            self.user_exception(frame, arg)
            return self.trace_dispatch
        return super().dispatch_exception(frame, arg)


def run_json(request_json: str) -> str:
    request = json.loads(request_json)
    shutil.rmtree(FOLDER, ignore_errors=True)
    os.makedirs(FOLDER)
    names = {"main": request["main"], **{n: n for n in request["files"]}}
    for name, text in [(request["main"], request["source"]), *request["files"].items()]:
        path = os.path.join(FOLDER, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(text)
    py_files = {os.path.join(FOLDER, n) for n in names.values() if n.endswith(".py")}
    debugger = _Project(py_files, request.get("exceptions", "none"))
    main_path = os.path.join(FOLDER, request["main"])
    for bp in request.get("breakpoints", []):
        error = debugger.set_break(os.path.join(FOLDER, bp.get("file") or request["main"]), bp["line"])
        if error:
            raise ValueError(error)
    linecache.checkcache()
    saved = (sys.argv, sys.path[:], os.getcwd(), sys.stdout)
    sys.argv = [request["main"], *request.get("argv", [])]
    sys.path.insert(0, FOLDER)
    os.chdir(FOLDER)
    sys.stdout = io.StringIO()
    modules = [n[:-3] for n in request["files"] if n.endswith(".py")]
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    uncaught = None
    try:
        debugger.runctx(compile(request["source"], main_path, "exec"), namespace, namespace)
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename in py_files:
                uncaught = {"file": os.path.relpath(tb.tb_frame.f_code.co_filename, FOLDER), "line": tb.tb_lineno,
                            "function": tb.tb_frame.f_code.co_name, "event": "exception", "exc_type": type(exc).__name__}
            tb = tb.tb_next
    finally:
        sys.settrace(None)
        sys.argv, sys.path[:], cwd, sys.stdout = saved[0], saved[1], saved[2], saved[3]
        os.chdir(cwd)
        for name in modules:
            sys.modules.pop(name, None)
        bdb.Breakpoint.next = 1
        bdb.Breakpoint.bplist = {}
        bdb.Breakpoint.bpbynumber = [None]
        shutil.rmtree(FOLDER, ignore_errors=True)
    return json.dumps({"stops": debugger.stops, "uncaught": uncaught})
