"""The model's text format: golden fixtures (shared with src/core/format.test.ts), round trips,
parse cases, the navigator port, and the CLI contract with `ndb format`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from training import format as fmt
from training.actions import Action, parse_action_list
from training.navigator import Navigator
from training.trace_jsonl import read_trace_jsonl

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "fixtures" / "format"
CASES: list[dict[str, Any]] = json.loads((FIX / "cases.json").read_text(encoding="utf-8"))
PARSE_CASES: list[dict[str, Any]] = json.loads((FIX / "parse_cases.json").read_text(encoding="utf-8"))


def _rec(case: dict[str, Any]) -> dict[str, Any]:
    return read_trace_jsonl(str(FIX / "traces" / f"{case['trace']}.jsonl"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_trajectory(case: dict[str, Any]) -> None:
    text = fmt.render_trajectory(_rec(case), parse_action_list(case["actions"]), case.get("breakpoints", []), case.get("start"))
    assert text == (FIX / "expected" / f"{case['name']}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_navigator_matches_typescript(case: dict[str, Any]) -> None:
    expected = json.loads((FIX / "expected" / f"{case['name']}.positions.json").read_text())
    nav = Navigator(_rec(case), case.get("breakpoints", []))
    if case.get("start") is not None:
        nav.jump(case["start"])
    assert nav.position == expected["start"]
    assert [nav.apply(a) for a in parse_action_list(case["actions"])] == expected["positions"]


def _capped_truth(rec: dict[str, Any], pos: int, inverse: bool) -> dict[str, Any]:
    st = fmt.state_at(rec, pos)
    if st["event"] == "entry":
        return st
    if st["event"] == "exit":
        status = {"timeout": "budget", "syntax_error": "error", "call_error": "error"}.get(st["status"], st["status"])
        out: dict[str, Any] = {"event": "exit", "status": status}
        if status in ("exception", "error"):
            out["message"] = fmt.cap_value(st.get("message", ""))
        return out
    lines = fmt.source_lines(rec["source"])
    out = {"event": st["event"], "inverse": inverse, "line": st["line"], "src": fmt.src_text(lines, st["line"])}
    if st["event"] != "return":
        out["locals"] = {k: fmt.cap_value(v) for k, v in st["locals"].items()}
    if st["event"] in ("return", "exception"):
        out["value"] = fmt.cap_value(st.get("value", "None"))
    if st.get("raising"):
        out["raising"] = True
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_every_state_parses_back(case: dict[str, Any]) -> None:
    rec = _rec(case)
    traj = fmt.render_trajectory_pieces(rec, parse_action_list(case["actions"]), case.get("breakpoints", []), case.get("start"))
    first = fmt.parse_state(traj.first, None)
    assert first == _capped_truth(rec, traj.start, False)
    previous = first.get("locals")
    for step in traj.steps:
        parsed = fmt.parse_state(step.state_text + fmt.ACTION_SEP, previous)
        assert parsed == _capped_truth(rec, step.position, step.action.inverse), step.state_text
        previous = parsed.get("locals")


@pytest.mark.parametrize("case", PARSE_CASES, ids=[c["name"] for c in PARSE_CASES])
def test_parse_cases(case: dict[str, Any]) -> None:
    got = fmt.parse_state(case["text"], case["previous"])
    if case["expected"].get("unparseable"):
        assert set(got) == {"unparseable"} and isinstance(got["unparseable"], str) and got["unparseable"]
    else:
        assert got == case["expected"]


def test_parse_never_raises_on_garbage() -> None:
    import random

    rng = random.Random(7)
    alphabet = list(fmt.FORMAT_TOKENS) + ['{', '}', '"', ":", ",", "..", "null", "1", "x", "<|", "|>", "\\", "\ud800"]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        out = fmt.parse_state(text, {"x": "1"} if rng.random() < 0.5 else None)
        assert isinstance(out, dict) and ("unparseable" in out or "event" in out)


def test_render_state_elision_and_caps() -> None:
    lines = ["def f(a):", "    b = a * 2", "    return b"]
    prev = {"a": "1", "b": "x" * 200}
    cur = {"a": "1", "c": "2"}
    text = fmt.render_state(lines, {"event": "line", "line": 2, "locals": cur}, False, prev)
    assert text == '<|frame_sep|><|line_sep|>2<|src_sep|>b = a * 2<|arg_sep|>{"c":"2","b":null,"..":".."}'
    full = fmt.render_state(lines, {"event": "call", "line": 1, "locals": prev}, True)
    assert full.startswith("<|frame_sep|><|inv_call_sep|>1<|src_sep|>def f(a):")
    assert '"b":"' + "x" * 120 + "\u2026" + '"' in full
    assert fmt.cap_value("é" * 121) == "é" * 120 + "\u2026" and fmt.cap_value("é" * 120) == "é" * 120


def test_json_string_matches_json_dumps() -> None:
    for s in ["plain", 'q"uote', "back\\slash", "\x00\x1f\x7f", "tab\tnl\n", "é☃😀", "\u2028"]:
        assert fmt.json_string(s) == json.dumps(s, ensure_ascii=False)
    assert fmt.json_string("\ud800") == '"\\ud800"'


def test_actions_render() -> None:
    assert fmt.render_action(Action("breakpoint", 7), [9, 7, 3]) == "<|action_sep|><|breakpoint|>7,3,9"
    assert fmt.render_action(Action("continue"), [9, 3]) == "<|action_sep|><|continue|>3,9"
    assert fmt.render_action(Action("continue")) == "<|action_sep|><|continue|>"
    assert fmt.render_action(Action("inv_step_over")) == "<|action_sep|><|inv_step_over|>"


def test_prompt_for_next_then_parse() -> None:
    rec = read_trace_jsonl(str(FIX / "traces" / "loop.jsonl"))
    so_far = fmt.render_trajectory(rec, parse_action_list("step_into"))
    prompt = fmt.prompt_for_next(so_far, Action("step_over"))
    assert prompt.endswith("<|action_sep|><|step_over|><|frame_sep|>") and fmt.TRACE_END not in prompt
    full = fmt.render_trajectory(rec, parse_action_list("step_into,step_over"))
    assert full.startswith(prompt)
    completion = full[len(prompt) :]
    parsed = fmt.parse_state(completion, rec["events"][1]["locals"])
    assert parsed["event"] == "line" and parsed["line"] == 3 and parsed["locals"] == {"xs": "[1, 2, 3, 4]", "s": "0"}


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None or not (ROOT / "node_modules" / "tsx").exists(), reason="needs node and npm install")
def test_cli_contract_byte_equal() -> None:
    """`ndb format` and `python3 -m training.format` print the same bytes on every fixture."""
    for case in CASES:
        args = ["--trace", str(FIX / "traces" / f"{case['trace']}.jsonl"), "--actions", case["actions"]]
        if case.get("breakpoints"):
            args += ["--breakpoints", ",".join(map(str, case["breakpoints"]))]
        if case.get("start") is not None:
            args += [f"--start={case['start']}"]
        ts = subprocess.run([NODE, "bin/ndb.mjs", "format", *args], cwd=ROOT, capture_output=True, check=True).stdout
        py = subprocess.run([sys.executable, "-m", "training.format", *args], cwd=ROOT, capture_output=True, check=True).stdout
        assert ts == py, case["name"]
        assert py == (FIX / "expected" / f"{case['name']}.txt").read_bytes() + b"\n"


def test_tokens_match_typescript() -> None:
    import re

    ts = (ROOT / "src" / "core" / "stateGrammar.ts").read_text(encoding="utf-8")
    block = ts[ts.index("export const TOKENS = {") : ts.index("} as const;")]
    assert tuple(re.findall(r"'(<\|[a-z_]+\|>)'", block)) == fmt.FORMAT_TOKENS
