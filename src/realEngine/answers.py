"""The real engine's one entry point: a question as JSON in, its answer as JSON out.

Both engines that run Python for ndb ask through here — the browser's Pyodide worker
(``pyodide.worker.ts``) and the Node faces' engine process (``engineProcess.mjs``) — so that what
the engine can be asked, and how, is written once: the question kinds are typed in
``engineProtocol.ts`` and answered below. Installed as ``ndb_answers`` beside the tracer
(``ndb_tracer``), the facts about a program (``ndb_source_info``) and the value helpers
(``ndb_values``).
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import sys
from typing import Any, Callable

import ndb_source_info
import ndb_tracer
import ndb_values

# Where a program's other modules are written for one run (Python's own memory: Pyodide's file
# system), importable while it runs, gone after it.
PROGRAM_MODULES_DIR = "/ndb_program"


def _with_modules(modules: dict[str, str], run: Callable[[], str]) -> str:
    shutil.rmtree(PROGRAM_MODULES_DIR, ignore_errors=True)
    os.makedirs(PROGRAM_MODULES_DIR, exist_ok=True)
    for name, text in modules.items():
        with open(f"{PROGRAM_MODULES_DIR}/{name}.py", "w", encoding="utf-8") as handle:
            handle.write(text)
    for name in modules:
        sys.modules.pop(name, None)
    sys.path.insert(0, PROGRAM_MODULES_DIR)
    importlib.invalidate_caches()
    try:
        return run()
    finally:
        for name in modules:
            sys.modules.pop(name, None)
        shutil.rmtree(PROGRAM_MODULES_DIR, ignore_errors=True)
        while PROGRAM_MODULES_DIR in sys.path:
            sys.path.remove(PROGRAM_MODULES_DIR)


def _record(q: dict[str, Any]) -> str:
    options = dict(q.get("options") or {})
    modules = options.pop("modules", None) or {}
    run = lambda: ndb_tracer.record_json(q["source"], q.get("call") or "", json.dumps(options))  # noqa: E731
    return _with_modules(modules, run) if modules else run()


_ANSWERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    # a recording (ndb_tracer's JSON, passed on as it is: it is the answer's JSON already)
    "record": _record,
    "codeLines": lambda q: json.loads(ndb_source_info.executable_lines(q["source"])),
    "expressionError": lambda q: ndb_source_info.expression_error(q["expr"]),
    "evaluateOnLocals": lambda q: json.loads(ndb_values.evaluate_on_locals(q["expr"], json.dumps(q["locals"]))),
    "sameValue": lambda q: ndb_values.same_value(q["predicted"], q["expected"]),
    "firstArgument": lambda q: ndb_values.first_argument(q["args"]),
    "callArguments": lambda q: ndb_values.call_arguments(list(q["values"])),
}


def answer(question_json: str) -> str:
    """The answer to one question (``{"kind": …, …}``) as JSON; an unknown kind is a ValueError."""
    question = json.loads(question_json)
    kind = question.get("kind")
    handler = _ANSWERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise ValueError(f"the engine has no question {kind!r}")
    result = handler(question)
    return result if kind == "record" else json.dumps(result, ensure_ascii=False)
