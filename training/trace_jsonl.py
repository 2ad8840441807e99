"""Reads what ``ndb trace --json`` prints (src/core/traceJsonl.ts): one JSON object per event, then a
closing {"event": "exit", ...} line with source, call, codes, stdout and the exit status.

A recording is the same dict as ``tracer.record`` returns: {source, call, events, codes, stdout, exit}.
"""

from __future__ import annotations

import json
from typing import Any

Recording = dict[str, Any]


class TraceFileError(ValueError):
    pass


def from_trace_lines(lines: list[Any]) -> Recording:
    if not lines or not isinstance(lines[-1], dict) or lines[-1].get("event") != "exit":
        raise TraceFileError('not an `ndb trace --json` file: its last line must be the {"event":"exit", …} line')
    last = dict(lines[-1])
    if not isinstance(last.get("source"), str) or not isinstance(last.get("codes"), list):
        raise TraceFileError('not an `ndb trace --json` file: its last line must be the {"event":"exit", …} line')
    events = []
    for i, raw in enumerate(lines[:-1]):
        if not isinstance(raw, dict) or not isinstance(raw.get("event"), str) or not isinstance(raw.get("line"), int):
            raise TraceFileError(f"line {i + 1} is not a trace event")
        ev = dict(raw)
        ev.pop("stdout", None)
        events.append(ev)
    rec: Recording = {
        "source": last.pop("source"),
        "call": last.pop("call", "") or "",
        "events": events,
        "codes": last.pop("codes"),
        "stdout": last.pop("stdout", "") or "",
    }
    if last.pop("stdout_truncated", False):
        rec["stdout_truncated"] = True
    if isinstance(last.get("files"), list):
        rec["files"] = last.pop("files")  # a program of several files (docs/trace.md)
    last.pop("event")
    rec["exit"] = last
    return rec


def parse_trace_jsonl(text: str) -> Recording:
    lines = []
    for i, line in enumerate(l for l in text.split("\n") if l.strip()):
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise TraceFileError(f"line {i + 1} is not JSON") from exc
    return from_trace_lines(lines)


def read_trace_jsonl(path: str) -> Recording:
    with open(path, encoding="utf-8") as f:
        return parse_trace_jsonl(f.read())


def to_trace_lines(rec: Recording) -> list[dict[str, Any]]:
    """The inverse of ``from_trace_lines`` (what ``ndb trace --json`` prints, field order aside)."""
    out: list[dict[str, Any]] = [{**ev, "stdout": rec["stdout"][: ev.get("out", 0)]} for ev in rec["events"]]
    exit_line = {"event": "exit", **rec["exit"], "source": rec["source"], "call": rec["call"], "codes": rec["codes"], "stdout": rec["stdout"]}
    if rec.get("stdout_truncated"):
        exit_line["stdout_truncated"] = True
    out.append(exit_line)
    return out
