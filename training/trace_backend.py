"""Records programs with CPython >= 3.12, the version the app runs (docs/architecture.md#python-versions).

With Python >= 3.12 the recording is made in-process by the real engine's tracer (``real_engine.py``,
``src/realEngine/python/tracer.py``); with an older Python, through its own ``node
training/pyodide_trace.mjs`` (CPython 3.14 in Pyodide), which is killed and restarted when a
program does not come back within ``hard_timeout`` seconds.

    backend = TraceBackend(max_events=2000)
    recording, error = backend.record(source, call)
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from .data.programs import Program

ROOT = Path(__file__).resolve().parents[1]
NODE_TRACER = ROOT / "training" / "pyodide_trace.mjs"
IN_PROCESS = sys.version_info >= (3, 12)
# Programs that this project's own generators write (the function generator, the Python families,
# the builtins mix): no imports beyond a few pure standard-library modules, no files, processes,
# network, asyncio or tracer of their own. ``record(..., trusted=True)`` traces them without the
# sandbox's enter and exit (``src/realEngine/python/sandbox.py``: ~10 % of a live worker's time, spent
# walking ``sys.modules`` twice a program); the recordings are the same (tests/test_live_workers.py
# checks it for each origin), and the tracer's time limit and the worker's per-program timeout
# bound them as before. Real code (the corpus, the stdlib, Debian's tests) keeps the sandbox.
TRUSTED_ORIGINS = frozenset({"generated", "python", "methods"})

# exit statuses of the tracer -> the names the stats use
STATUS_NAMES = {
    "normal": "normal",
    "exception": "raised",
    "budget": "over_budget",
    "timeout": "never_ended",
    "syntax_error": "could_not_run",
    "call_error": "could_not_run",
    "error": "could_not_run",
}


class _Unguarded:
    """What the tracer calls of its sandbox (``ndb_sandbox.*`` in tracer.py), for a trusted program:
    the tracer is set and taken away, nothing is hidden or refused. A name the tracer calls that is
    missing here fails tests/test_live_workers.py, not a trace."""

    @staticmethod
    def enter() -> None:
        pass

    @staticmethod
    def exit() -> None:
        pass

    @staticmethod
    def set_tracer(trace: Any) -> None:
        sys.settrace(trace)

    @staticmethod
    def tracer_raising() -> None:
        pass

    @staticmethod
    def intact() -> list[str]:
        return []


class TraceBackend:
    """Records programs with CPython ≥ 3.12: in-process when this Python is new enough, else
    through Pyodide under Node."""

    def __init__(self, max_events: int = 2000, time_limit: float = 5.0, hard_timeout: float = 30.0,
                 node_script: Path = NODE_TRACER, load_timeout: float = 60.0) -> None:
        self.load_timeout = load_timeout  # extra wait for a fresh Node to load Pyodide
        self.max_events = max_events
        self.time_limit = time_limit
        self.hard_timeout = hard_timeout
        self.node_script = node_script
        self.proc: Optional[subprocess.Popen] = None
        self.restarts = 0
        if not IN_PROCESS and shutil.which("node") is None:
            raise RuntimeError(
                f"Python {sys.version.split()[0]} traces differ from Python ≥ 3.12 (docs/architecture.md, Python versions) and `node` is not "
                "installed: run the builder with Python ≥ 3.12, or install Node and `npm install` for Pyodide"
            )

    def _start(self) -> subprocess.Popen:
        self.proc = subprocess.Popen(
            ["node", str(self.node_script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=str(ROOT), bufsize=0,
        )
        self._buf = b""
        return self.proc

    def _readline(self, deadline: float) -> Optional[bytes]:
        assert self.proc is not None and self.proc.stdout is not None
        while b"\n" not in self._buf:
            left = deadline - time.time()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
            self.proc = None

    def record(self, source: str, call: str, edits: Optional[list[dict[str, Any]]] = None,
               trusted: bool = False) -> tuple[Optional[dict], Optional[str]]:
        """(recording, None) or (None, why it failed: "hard_stop" or the tracer's error). ``edits``:
        what-if assignments (tracer.record's ``edits``); ``trusted``: a program of ours
        (``TRUSTED_ORIGINS``), traced in-process without the sandbox's enter and exit."""
        if IN_PROCESS:
            from .real_engine import tracer

            guard = tracer.ndb_sandbox
            if trusted:
                tracer.ndb_sandbox = _Unguarded  # the tracer looks its sandbox up by this global name
            try:
                return tracer.record(source, call, max_events=self.max_events, time_limit=self.time_limit, edits=edits), None
            except Exception as exc:  # noqa: BLE001
                return None, f"tracer error: {exc}"
            finally:
                tracer.ndb_sandbox = guard
        fresh = self.proc is None or self.proc.poll() is not None
        if fresh:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        req = {"id": 0, "source": source, "call": call, "max_events": self.max_events, "time_limit": self.time_limit, "edits": edits or []}
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode("utf-8"))
        except BrokenPipeError:
            self.close()
            return None, "hard_stop"
        line = self._readline(time.time() + self.hard_timeout + (self.load_timeout if fresh else 0.0))
        if line is None:
            self.close()
            self.restarts += 1
            return None, "hard_stop"
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            return None, "bad reply from the tracer"
        if "recording" in reply:
            return reply["recording"], None
        return None, f"tracer error: {reply.get('error')}"


def trace_programs(programs: Iterable[Program], **kw: Any) -> Iterator[tuple[Optional[dict], Optional[str]]]:
    backend = TraceBackend(**kw)
    try:
        for p in programs:
            yield backend.record(p.source, p.call)
    finally:
        backend.close()
