"""Python's layer of ndb's sandbox (src/realEngine/python/sandbox.py) as the tracer uses it: refusals
while a program runs, and nothing changed for the engine outside a run."""

from __future__ import annotations

import sys

from training.real_engine import tracer


def _exit(source: str) -> dict:
    return tracer.record(source, "", time_limit=5)["exit"]


def test_host_commands_and_hidden_modules_are_refused_with_a_clear_message() -> None:
    for source in (
        'import os\nos.system("true")\n',
        "import ctypes\n",
        'import importlib\nimportlib.import_module("ctypes")\n',
        "import ndb_tracer\n",
        'import socket\nsocket.create_connection(("127.0.0.1", 9))\n',
    ):
        exit_ = _exit(source)
        assert exit_["status"] == "exception", source
        assert exit_["exc_type"] == "SandboxError", source
        assert "not available in ndb's sandbox" in exit_["message"], source


def test_a_refused_import_is_an_exception_the_program_can_catch() -> None:
    rec = tracer.record("try:\n    import ctypes\nexcept PermissionError as e:\n    ok = 1\n", "")
    assert rec["exit"]["status"] == "normal"
    assert any(e["locals"].get("ok") == "1" for e in rec["events"])


def test_outside_a_run_the_engine_is_as_it_was() -> None:
    _exit("import ctypes\n")
    assert "ndb_tracer" in sys.modules and "ndb_sandbox" in sys.modules
    import ctypes  # noqa: F401 - the engine's own imports are not the program's

    assert not any(getattr(f, "__name__", "") == "_HiddenFinder" for f in sys.meta_path)


def test_ordinary_programs_run_unchanged() -> None:
    rec = tracer.record(
        "import collections, json, re\n\ndef f(t):\n    return json.dumps(collections.Counter(re.findall('[a-z]', t)))\n",
        "f('abca')",
    )
    assert rec["exit"] == {"status": "normal", "value": repr('{"a": 2, "b": 1, "c": 1}')}
