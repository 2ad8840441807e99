"""Runs each Debian candidate with the real tracer before it becomes a program, so that what is
drawn runs: a statement that raises, runs past the event budget or past the time limit is left out
and the rest is run again (a few rounds); a candidate is kept when its last run ended normally,
twice with the same events (nothing that differs from run to run), and is more than a line or two
of work (``MIN_EVENTS``).

The runs happen in a child process (``python3 -m training.data.debian_check FILE START``), which
answers one line per candidate as it goes: a program that crashes the interpreter or eats its
memory costs only itself, and the parent starts a new child after it.
"""

from __future__ import annotations

import decimal
import gc
import json
import os
import resource
import select
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from .debian_common import MIN_EVENTS, Candidate, assemble

ROOT = Path(__file__).resolve().parents[2]
# Below the recipes' budget (2,000 events): the app's Python (3.14 in Pyodide, 3.12 in-process) may
# take a few more events than the Python that checks.
EVENT_BUDGET = 1500
TIME_LIMIT = 2.0
MAX_ROUNDS = 6
HANG_SECONDS = 20.0  # a child that answers nothing for this long is stuck in one candidate (runs: 7 × 2 s at most)
MEMORY_LIMIT = 1 << 30  # bytes of address space for the child: a test of huge allocations fails fast
# exceptions that say a run needed more than a debugged program should (seen anywhere in its events)
HEAVY_EXCEPTIONS = frozenset({"MemoryError", "RecursionError"})


def _failing_statement(rec: dict[str, Any], spans: list[tuple[int, int]]) -> Optional[int]:
    """The statement the outermost frame was in when the run stopped (None when outside them all:
    the helpers before the statements failed)."""
    top = [e for e in rec["events"] if e["depth"] == 0 and e.get("line") is not None]  # an exception group's event may have none
    if not top:
        return None
    line = top[-1]["line"]
    return next((i for i, (a, b) in enumerate(spans) if a <= line <= b), None)


def _signature(rec: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(e["event"], e["line"], json.dumps(e.get("locals", {}), sort_keys=True), e.get("value")) for e in rec["events"]]


def check_one(c: Candidate, record: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """The kept statements (indices into ``c.statements``) and how the last run ended."""
    keep = list(range(len(c.statements)))
    call = f"{c.entry}()" if c.entry else None
    rec: dict[str, Any] = {"events": [], "exit": {"status": "error"}}
    rounds = 0
    while keep and rounds < MAX_ROUNDS:
        rounds += 1
        source, spans = assemble(c.prefix, [c.statements[i] for i in keep], c.entry)
        rec = record(source, call, max_events=EVENT_BUDGET, time_limit=TIME_LIMIT)
        if rec["exit"]["status"] == "normal":
            break
        bad = _failing_statement(rec, spans)
        if bad is None:
            break
        del keep[bad]
    status = rec["exit"]["status"] if keep else "empty"
    out: dict[str, Any] = {"keep": keep, "status": status, "events": len(rec["events"]), "rounds": rounds}
    if status != "normal":
        return out
    if any(e.get("exc_type") in HEAVY_EXCEPTIONS for e in rec["events"]):
        out["status"] = "heavy"
    elif len(rec["events"]) < MIN_EVENTS:
        out["status"] = "too_short"
    else:
        source, _ = assemble(c.prefix, [c.statements[i] for i in keep], c.entry)
        again = record(source, call, max_events=EVENT_BUDGET, time_limit=TIME_LIMIT)
        if _signature(again) != _signature(rec):
            out["status"] = "unstable"
    return out


def _child(path: str, start: int) -> int:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.setrecursionlimit(3000)
    from ..real_engine import tracer

    with open(path) as handle:
        items = [json.loads(line) for line in handle]
    for i in range(start, len(items)):
        # as a fresh interpreter would be, whatever ran before: decimal's context, and no garbage of
        # earlier programs (``int.__subclasses__()`` lists a collected class until it is collected)
        decimal.setcontext(decimal.Context())
        gc.collect()
        result = check_one(Candidate.from_dict(items[i]), tracer.record)
        sys.stdout.write(json.dumps({"i": i, **result}) + "\n")
        sys.stdout.flush()
    return 0


def check(candidates: list[Candidate], progress: Optional[Callable[[int], None]] = None) -> list[dict[str, Any]]:
    """One result per candidate, in order (a candidate whose run killed the child: "crashed")."""
    results: list[Optional[dict[str, Any]]] = [None] * len(candidates)
    if not candidates:
        return []
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # as the tracers run: a set of strings in one order
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for c in candidates:
            handle.write(json.dumps(c.to_dict()) + "\n")
        path = handle.name
    try:
        start = 0
        while start < len(candidates):
            proc = subprocess.Popen([sys.executable, "-m", "training.data.debian_check", path, str(start)], cwd=str(ROOT),
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
            try:
                for line in _lines(proc, HANG_SECONDS):
                    item = json.loads(line)
                    results[item.pop("i")] = item
                    start += 1
                    if progress is not None:
                        progress(start)
            finally:
                if proc.poll() is None:
                    proc.kill()  # hung in C code, where the tracer's time limit cannot reach
                proc.wait()
            if start < len(candidates):
                results[start] = {"keep": [], "status": "crashed", "events": 0, "rounds": 0}
                start += 1
    finally:
        os.unlink(path)
    return [r if r is not None else {"keep": [], "status": "crashed", "events": 0, "rounds": 0} for r in results]


def _lines(proc: subprocess.Popen, timeout: float) -> Iterator[str]:
    """The child's lines, until it ends or says nothing for ``timeout`` seconds."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buf = b""
    while True:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            if line.strip():
                yield line.decode("utf-8")


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1], int(sys.argv[2])))
