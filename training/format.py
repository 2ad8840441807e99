"""The model's text format (docs/format.md is normative). The twin of src/core/format.ts: both must
produce the same bytes for the same trajectory, and both parse a model's state back.

Command line (the contract with ``ndb format``)::

    python3 -m training.format --trace TRACE.jsonl --actions a1,a2,... [--breakpoints L1,L2] [--start N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from .actions import Action, ActionSyntaxError, parse_action_list
from .navigator import Navigator
from .trace_jsonl import Recording, TraceFileError, read_trace_jsonl

TRACE_CONTEXT_START = "<|trace_context_start|>"
FRAME_SEP = "<|frame_sep|>"
ACTION_SEP = "<|action_sep|>"
TRACE_END = "<|trace_end|>"
CALL_SEP = "<|call_sep|>"
LINE_SEP = "<|line_sep|>"
RETURN_SEP = "<|return_sep|>"
EXCEPTION_SEP = "<|exception_sep|>"
INV_CALL_SEP = "<|inv_call_sep|>"
INV_LINE_SEP = "<|inv_line_sep|>"
INV_RETURN_SEP = "<|inv_return_sep|>"
INV_EXCEPTION_SEP = "<|inv_exception_sep|>"
SRC_SEP = "<|src_sep|>"
ARG_SEP = "<|arg_sep|>"
VALUE_SEP = "<|value_sep|>"
RAISE_SEP = "<|raise_sep|>"
STEP_INTO = "<|step_into|>"
STEP_OVER = "<|step_over|>"
STEP_RETURN = "<|step_return|>"
CONTINUE = "<|continue|>"
BREAKPOINT = "<|breakpoint|>"
INV_STEP_INTO = "<|inv_step_into|>"
INV_STEP_OVER = "<|inv_step_over|>"
INV_STEP_CALL = "<|inv_step_call|>"
EXIT_NORMAL = "<|exit_normal|>"
EXIT_EXCEPTION = "<|exit_exception|>"
EXIT_BUDGET = "<|exit_budget|>"
EXIT_ERROR = "<|exit_error|>"
INV_EXIT_ENTRY = "<|inv_exit_entry|>"

# Every format token, in the order of their ids in the tokenizer (same order as TOKENS in format.ts).
FORMAT_TOKENS: tuple[str, ...] = (
    TRACE_CONTEXT_START, FRAME_SEP, ACTION_SEP, TRACE_END,
    CALL_SEP, LINE_SEP, RETURN_SEP, EXCEPTION_SEP,
    INV_CALL_SEP, INV_LINE_SEP, INV_RETURN_SEP, INV_EXCEPTION_SEP,
    SRC_SEP, ARG_SEP, VALUE_SEP, RAISE_SEP,
    STEP_INTO, STEP_OVER, STEP_RETURN, CONTINUE, BREAKPOINT,
    INV_STEP_INTO, INV_STEP_OVER, INV_STEP_CALL,
    EXIT_NORMAL, EXIT_EXCEPTION, EXIT_BUDGET, EXIT_ERROR, INV_EXIT_ENTRY,
)  # fmt: skip

STATE_TERMINATORS = (ACTION_SEP, TRACE_END)
MAX_VALUE_CHARS = 120
CUT_MARK = "\u2026"
ELIDED_KEY = ".."
ELIDED_VALUE = ".."

EVENT_TOKEN = {
    "call": (CALL_SEP, INV_CALL_SEP),
    "line": (LINE_SEP, INV_LINE_SEP),
    "return": (RETURN_SEP, INV_RETURN_SEP),
    "exception": (EXCEPTION_SEP, INV_EXCEPTION_SEP),
}
ACTION_TOKEN = {
    "step_into": STEP_INTO,
    "step_over": STEP_OVER,
    "step_return": STEP_RETURN,
    "continue": CONTINUE,
    "breakpoint": BREAKPOINT,
    "inv_step_into": INV_STEP_INTO,
    "inv_step_over": INV_STEP_OVER,
    "inv_step_call": INV_STEP_CALL,
}

# ----------------------------------------------------------------------------------------------
# Text helpers


def escape_payload(text: str) -> str:
    """Makes a payload unable to contain a format token: every "<|" becomes "<||"."""
    return text.replace("<|", "<||")


def unescape_payload(text: str) -> str:
    return text.replace("<||", "<|")


def cap_value(text: str) -> str:
    """Cuts a text to MAX_VALUE_CHARS code points, marking the cut with CUT_MARK."""
    return text if len(text) <= MAX_VALUE_CHARS else text[:MAX_VALUE_CHARS] + CUT_MARK


_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def json_string(text: str) -> str:
    """A JSON string literal: only '"', '\\', control characters and lone surrogates are escaped
    (the same bytes as JavaScript's JSON.stringify)."""
    out = ['"']
    for ch in text:
        esc = _JSON_ESCAPES.get(ch)
        if esc is not None:
            out.append(esc)
        else:
            c = ord(ch)
            if c < 0x20:
                out.append(f"\\u{c:04x}")
            elif 0xD800 <= c <= 0xDFFF:
                out.append(f"\\u{c:x}")
            else:
                out.append(ch)
    out.append('"')
    return "".join(out)


def source_lines(source: str) -> list[str]:
    """The lines of a source: "\\r\\n" and "\\r" count as "\\n"; a final newline ends the last line."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def src_text(lines: list[str], line: int) -> str:
    """The text written after <|src_sep|> for a line number (empty outside the source)."""
    return cap_value(lines[line - 1].strip(" \t\f")) if 1 <= line <= len(lines) else ""


# ----------------------------------------------------------------------------------------------
# Rendering


def render_context(source: str) -> str:
    """<|trace_context_start|> and the source, each line as "N text\\n"."""
    return TRACE_CONTEXT_START + "".join(f"{i + 1} {escape_payload(l)}\n" for i, l in enumerate(source_lines(source)))


def render_action(action: Action, breakpoints: Iterable[int] = ()) -> str:
    """An action with its payload; continue and breakpoint carry the user breakpoints."""
    user = sorted(set(breakpoints))
    payload = ""
    if action.kind == "breakpoint":
        payload = ",".join(str(l) for l in [action.line, *[u for u in user if u != action.line]])
    elif action.kind == "continue":
        payload = ",".join(str(l) for l in user)
    return ACTION_SEP + ACTION_TOKEN[action.kind] + payload


def _locals_object(entries: list[tuple[str, Optional[str]]]) -> str:
    return "{" + ",".join(f"{json_string(k)}:{'null' if v is None else json_string(v)}" for k, v in entries) + "}"


def render_locals(local_vars: dict[str, str], elide_against: Optional[dict[str, str]] = None) -> str:
    """The locals object of a state: full, or elided against the previous state's locals."""
    cur = [(k, cap_value(v)) for k, v in local_vars.items()]
    if not elide_against:
        return _locals_object(list(cur))
    prev = {k: cap_value(v) for k, v in elide_against.items()}
    entries: list[tuple[str, Optional[str]]] = []
    unchanged = 0
    for k, v in cur:
        if prev.get(k) == v:
            unchanged += 1
        else:
            entries.append((k, v))
    names = {k for k, _ in cur}
    entries.extend((k, None) for k in prev if k not in names)
    if unchanged:
        entries.append((ELIDED_KEY, ELIDED_VALUE))
    return _locals_object(entries)


def _exit_token(status: str) -> str:
    if status == "normal":
        return EXIT_NORMAL
    if status == "exception":
        return EXIT_EXCEPTION
    if status in ("budget", "timeout"):
        return EXIT_BUDGET
    return EXIT_ERROR


def render_state(
    lines: list[str], state: dict[str, Any], inverse: bool = False, elide_against: Optional[dict[str, str]] = None
) -> str:
    """One state, starting with <|frame_sep|>. ``state`` is {event, line, locals, value?, raising?},
    {event: "exit", status, message?} or {event: "entry"}."""
    event = state["event"]
    if event == "entry":
        return FRAME_SEP + INV_EXIT_ENTRY
    if event == "exit":
        token = _exit_token(state["status"])
        with_message = token in (EXIT_EXCEPTION, EXIT_ERROR)
        return FRAME_SEP + token + (RAISE_SEP + escape_payload(cap_value(state.get("message") or "")) if with_message else "")
    line = state["line"]
    head = FRAME_SEP + EVENT_TOKEN[event][1 if inverse else 0] + str(line) + SRC_SEP + escape_payload(src_text(lines, line))
    value = escape_payload(cap_value(state["value"] if state.get("value") is not None else "None"))
    if event == "call":
        return head + ARG_SEP + escape_payload(render_locals(state["locals"]))
    if event == "line":
        return head + ARG_SEP + escape_payload(render_locals(state["locals"], elide_against))
    if event == "exception":
        return head + ARG_SEP + escape_payload(render_locals(state["locals"], elide_against)) + RAISE_SEP + value
    if event == "return":
        return head + (RAISE_SEP if state.get("raising") else VALUE_SEP) + value
    raise ValueError(f"unknown event {event!r}")


def state_at(rec: Recording, pos: int) -> dict[str, Any]:
    """The format state at a position of a recording."""
    events = rec["events"]
    if pos < 0:
        return {"event": "entry"}
    if pos >= len(events):
        out: dict[str, Any] = {"event": "exit", "status": rec["exit"]["status"]}
        if rec["exit"].get("message") is not None:
            out["message"] = rec["exit"]["message"]
        return out
    e = events[pos]
    st: dict[str, Any] = {"event": e["event"], "line": e["line"], "locals": e["locals"]}
    if e.get("value") is not None:
        st["value"] = e["value"]
    if e.get("raising"):
        st["raising"] = True
    return st


def elision_base(rec: Recording, prev: Optional[int], pos: int, action: Optional[Action]) -> Optional[dict[str, str]]:
    """The full locals to elide against when moving from ``prev`` to ``pos`` (or None)."""
    if prev is None or action is None or action.kind in ("breakpoint", "continue"):
        return None
    events = rec["events"]
    n = len(events)
    if not (0 <= prev < n and 0 <= pos < n):
        return None
    a, b = events[prev], events[pos]
    if a["event"] == "return" or a["frame"] != b["frame"] or b["event"] not in ("line", "exception"):
        return None
    return a["locals"]


@dataclass
class Step:
    action: Action
    action_text: str
    state_text: str
    position: int


@dataclass
class Trajectory:
    context: str
    first: str
    start: int
    steps: list[Step] = field(default_factory=list)

    def text(self) -> str:
        return self.context + self.first + "".join(s.action_text + s.state_text for s in self.steps) + TRACE_END


def render_trajectory_pieces(
    rec: Recording, actions: Iterable[Action], breakpoints: Iterable[int] = (), start: Optional[int] = None
) -> Trajectory:
    bps = list(breakpoints)
    lines = source_lines(rec["source"])
    nav = Navigator(rec, bps)
    if start is not None:
        nav.jump(start)
    prev = nav.position
    traj = Trajectory(render_context(rec["source"]), render_state(lines, state_at(rec, prev)), prev)
    for action in actions:
        pos = nav.apply(action)
        text = render_state(lines, state_at(rec, pos), action.inverse, elision_base(rec, prev, pos, action))
        traj.steps.append(Step(action, render_action(action, bps), text, pos))
        prev = pos
    return traj


def render_trajectory(
    rec: Recording, actions: Iterable[Action], breakpoints: Iterable[int] = (), start: Optional[int] = None
) -> str:
    """The whole trajectory text the model is trained on."""
    return render_trajectory_pieces(rec, actions, breakpoints, start).text()


def prompt_for_next(trajectory_so_far: str, action: Action, breakpoints: Iterable[int] = ()) -> str:
    base = trajectory_so_far[: -len(TRACE_END)] if trajectory_so_far.endswith(TRACE_END) else trajectory_so_far
    return base + render_action(action, breakpoints) + FRAME_SEP


# ----------------------------------------------------------------------------------------------
# Parsing

_TOKEN_RE = re.compile(r"<\|[a-z_]+\|>")
_TOKEN_SET = frozenset(FORMAT_TOKENS)
_LINE_RE = re.compile(r"[0-9]{1,9}")


class _Unparseable(Exception):
    pass


def _split_tokens(text: str) -> list[tuple[str, str]]:
    """[("token", t) | ("text", s)]"""
    pieces: list[tuple[str, str]] = []
    last = 0
    for m in _TOKEN_RE.finditer(text):
        if m.group(0) not in _TOKEN_SET:
            raise _Unparseable(f"unknown token {m.group(0)}")
        if m.start() > last:
            pieces.append(("text", text[last : m.start()]))
        pieces.append(("token", m.group(0)))
        last = m.end()
    if last < len(text):
        pieces.append(("text", text[last:]))
    return pieces


def _parse_locals(payload: str, previous: Optional[dict[str, str]]) -> dict[str, str]:
    try:
        obj = json.loads(unescape_payload(payload))
    except (ValueError, RecursionError):
        raise _Unparseable("the locals are not valid JSON")
    if not isinstance(obj, dict):
        raise _Unparseable("the locals are not a JSON object")
    for k, v in obj.items():
        if v is not None and not isinstance(v, str):
            raise _Unparseable(f"the value of {json.dumps(k)} is not a string")
    elided = ELIDED_KEY in obj
    if elided and not previous:
        raise _Unparseable('elided locals ("..") but no previous locals to fill them from')
    out: dict[str, str] = dict(previous) if elided and previous else {}
    for k, v in obj.items():
        if k == ELIDED_KEY:
            continue
        if v is None:
            out.pop(k, None)
        else:
            out[k] = v
    return out


def parse_state(text: str, previous: Optional[dict[str, str]] = None) -> dict[str, Any]:
    """Parses one state as a model wrote it (with or without the leading <|frame_sep|>; anything
    from the first terminator on is ignored). ``previous`` is the full locals of the previous state,
    used to fill elided ones. Never raises: returns {"unparseable": reason} instead."""
    try:
        return _parse_state(text, previous)
    except _Unparseable as exc:
        return {"unparseable": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the contract is "never raises"
        return {"unparseable": f"internal error: {exc}"}


def _parse_state(text: str, previous: Optional[dict[str, str]]) -> dict[str, Any]:
    end = len(text)
    for t in STATE_TERMINATORS:
        i = text.find(t)
        if 0 <= i < end:
            end = i
    body = text[:end]
    if body.startswith(FRAME_SEP):
        body = body[len(FRAME_SEP) :]
    pieces = _split_tokens(body)
    if not pieces or pieces[0][0] != "token":
        raise _Unparseable("a state must start with an event or exit token")
    tok = pieces[0][1]
    rest = pieces[1:]
    if any(p == ("token", FRAME_SEP) for p in rest):
        raise _Unparseable("more than one state")
    if tok == INV_EXIT_ENTRY:
        if rest:
            raise _Unparseable("text after <|inv_exit_entry|>")
        return {"event": "entry"}
    if tok in (EXIT_NORMAL, EXIT_BUDGET):
        if rest:
            raise _Unparseable(f"text after {tok}")
        return {"event": "exit", "status": "normal" if tok == EXIT_NORMAL else "budget"}
    if tok in (EXIT_EXCEPTION, EXIT_ERROR):
        status = "exception" if tok == EXIT_EXCEPTION else "error"
        if not rest:
            return {"event": "exit", "status": status}
        if rest[0] != ("token", RAISE_SEP) or len(rest) > 2 or (len(rest) == 2 and rest[1][0] != "text"):
            raise _Unparseable(f"an exit {status} is followed by <|raise_sep|> and a message only")
        return {"event": "exit", "status": status, "message": unescape_payload(rest[1][1]) if len(rest) == 2 else ""}
    event: Optional[str] = None
    inverse = False
    for kind, (fwd, inv) in EVENT_TOKEN.items():
        if tok == fwd:
            event = kind
        elif tok == inv:
            event, inverse = kind, True
    if event is None:
        raise _Unparseable(f"a state cannot start with {tok}")
    line_text = ""
    i = 0
    if rest and rest[0][0] == "text":
        line_text = rest[0][1]
        i = 1
    if not _LINE_RE.fullmatch(line_text):
        raise _Unparseable(f"the line number '{line_text}' is not a number")
    fields: list[tuple[str, str]] = []
    while i < len(rest):
        kind_, value_ = rest[i]
        if kind_ != "token":
            raise _Unparseable("text where a field separator was expected")
        if i + 1 < len(rest) and rest[i + 1][0] == "text":
            fields.append((value_, rest[i + 1][1]))
            i += 2
        else:
            fields.append((value_, ""))
            i += 1
    order = "".join(t for t, _ in fields)
    if event in ("call", "line"):
        expected = [SRC_SEP + ARG_SEP]
    elif event == "exception":
        expected = [SRC_SEP + ARG_SEP + RAISE_SEP]
    else:
        expected = [SRC_SEP + VALUE_SEP, SRC_SEP + RAISE_SEP]
    if order not in expected:
        raise _Unparseable(f"a {event} state has the fields {' or '.join(expected)}, not {order or 'none'}")
    state: dict[str, Any] = {"event": event, "inverse": inverse, "line": int(line_text), "src": unescape_payload(fields[0][1])}
    if event != "return":
        state["locals"] = _parse_locals(fields[1][1], None if event == "call" else previous)
    if event == "exception":
        state["value"] = unescape_payload(fields[2][1])
    if event == "return":
        state["value"] = unescape_payload(fields[1][1])
        if fields[1][0] == RAISE_SEP:
            state["raising"] = True
    return state


# ----------------------------------------------------------------------------------------------
# Command line

_SURROGATE = re.compile("[\ud800-\udfff]")


def _parse_lines(text: Optional[str], what: str) -> list[int]:
    if text is None or not text.strip():
        return []
    out = []
    for s in text.split(","):
        s = s.strip()
        if not re.fullmatch(r"[0-9]+", s) or int(s) < 1:
            raise ValueError(f"{what}: '{s}' is not a line number")
        out.append(int(s))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m training.format", description="Render a trajectory in the model's text format.")
    parser.add_argument("--trace", required=True, help="what `ndb trace --json` printed")
    parser.add_argument("--actions", default="", help="a1,a2,... (step_into, step_over, step_return, continue, breakpoint:L, inv_...)")
    parser.add_argument("--breakpoints", default=None, help="user breakpoints L1,L2 (used by continue and breakpoint)")
    parser.add_argument("--start", type=int, default=None, help="start position (-1 = entry; default: the first event)")
    args = parser.parse_args(argv)
    try:
        actions = parse_action_list(args.actions)
        breakpoints = _parse_lines(args.breakpoints, "--breakpoints")
        rec = read_trace_jsonl(args.trace)
    except (ActionSyntaxError, ValueError, TraceFileError, OSError) as exc:
        sys.stderr.write(f"training.format: {exc}\n")
        return 2
    text = render_trajectory(rec, actions, breakpoints, args.start)
    sys.stdout.buffer.write((_SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
