"""The real engine's one entry point: a question as JSON in, its answer as JSON out.

Both engines that run Python for ndb ask through here — the browser's Pyodide worker
(``pyodide.worker.ts``) and the Node faces' engine process (``engineProcess.mjs``) — so that what
the engine can be asked, and how, is written once: the question kinds are typed in
``engineProtocol.ts`` and answered below. Installed as ``ndb_answers`` beside the tracer
(``ndb_tracer``), the facts about a program (``ndb_source_info``) and the value helpers
(``ndb_values``).
"""

from __future__ import annotations

import base64
import importlib
import json
import os
import shutil
import sys
from typing import Any, Callable

import ndb_source_info
import ndb_tracer
import ndb_values

# Where a program's other files (its modules and its data) are written for one run (Python's own
# memory: Pyodide's file system), importable and readable while it runs, gone after it. The engine
# never reads the host: the faces hand these files in as data.
PROGRAM_MODULES_DIR = "/ndb_program"


def _write(path: str, content: str | bytes) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(content if isinstance(content, bytes) else content.encode("utf-8"))
    # A copy handed in: the program reads it, never writes it back (the copy goes after the run).
    os.chmod(path, 0o444)


def _safe_name(name: str) -> str:
    """A relative path under the program's folder (no absolute paths, no ``..``)."""
    parts = [p for p in str(name).split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ValueError(f"not a file of the program: {name!r}")
    return "/".join(parts)


def _module_names(files: list[str]) -> list[str]:
    names = []
    for f in files:
        if f.endswith(".py"):
            parts = f[:-3].split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            if parts:
                names.append(".".join(parts))
    return names


def _with_project(files: dict[str, str], blobs: dict[str, str], main: str, run: Callable[[dict[str, Any]], str]) -> str:
    shutil.rmtree(PROGRAM_MODULES_DIR, ignore_errors=True)
    os.makedirs(PROGRAM_MODULES_DIR, exist_ok=True)
    names = [_safe_name(n) for n in files]
    for name, text in zip(names, files.values()):
        _write(f"{PROGRAM_MODULES_DIR}/{name}", text)
    for name, data in blobs.items():
        _write(f"{PROGRAM_MODULES_DIR}/{_safe_name(name)}", base64.b64decode(data))
    modules = _module_names(names)
    for name in modules:
        sys.modules.pop(name, None)
    sys.path.insert(0, PROGRAM_MODULES_DIR)
    importlib.invalidate_caches()
    cwd = os.getcwd()
    os.chdir(PROGRAM_MODULES_DIR)  # open("config.json") finds the file beside the program
    try:
        return run({"dir": PROGRAM_MODULES_DIR, "main": main, "files": [n for n in names if n.endswith(".py")]})
    finally:
        os.chdir(cwd)
        for name in modules:
            sys.modules.pop(name, None)
        for root, dirs, found in os.walk(PROGRAM_MODULES_DIR):
            for entry in dirs + found:
                os.chmod(os.path.join(root, entry), 0o755)
        shutil.rmtree(PROGRAM_MODULES_DIR, ignore_errors=True)
        while PROGRAM_MODULES_DIR in sys.path:
            sys.path.remove(PROGRAM_MODULES_DIR)


def _record(q: dict[str, Any]) -> str:
    options = dict(q.get("options") or {})
    # `modules` (name -> source) is the older form of `files` (relative path -> text).
    files = {f"{name}.py": text for name, text in (options.pop("modules", None) or {}).items()}
    files.update(options.pop("files", None) or {})
    blobs = options.pop("blobs", None) or {}
    named = options.pop("main_file", None)
    main = named or ndb_tracer.USER_FILENAME

    def run(project: dict[str, Any] | None = None) -> str:
        if project is not None:
            options["project"] = project
        return ndb_tracer.record_json(q["source"], q.get("call") or "", json.dumps(options))

    return _with_project(files, blobs, main, run) if files or blobs or named else run()


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
