"""Real code for the training set: pure-Python functions of the standard library, called with
generated inputs of the right types.

The function's source — and the helpers, constants and imports it needs from its module — is put
into the program itself, so that the tracer (which records only the user's ``main.py``) steps
through it; what it imports from other modules runs untraced, as library code does in a debugger.
Sources are read from Pyodide's ``node_modules/pyodide/python_stdlib.zip`` (CPython 3.14, the
interpreter the app runs) when present, else from the running interpreter's standard library.
Docstrings are dropped (they cost context tokens and the model never steps through them); comments
stay. When a module defines a function twice (a pure fallback next to a C accelerator, as
``posixpath.normpath``), the pure version in the ``except ImportError`` branch is taken.

Every entry of ``SPECS`` is checked once per process: its program must compile, define the
function and run on a few generated inputs without a ``NameError`` or ``ImportError`` (a sign that
a needed helper is missing); entries that fail are skipped (``available()`` lists the rest).
Programs are deduplicated by source *and* call (the same function with other inputs is another
program); the held-out split is by function (``split_id``), so that val holds functions never seen
in training.

    python3 -m training.data.stdlib_funcs --n 5 --seed 1     # prints programs as JSONL
    python3 -m training.data.stdlib_funcs --list             # which functions are usable
"""

from __future__ import annotations

import argparse
import ast
import builtins
import copy
import functools
import hashlib
import importlib
import inspect
import json
import math
import random
import string
import sys
import textwrap
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from .extract import program_source
from .programs import Program, normalize, program_hash
from .values import rand_int, rand_word

ROOT = Path(__file__).resolve().parents[2]
STDLIB_ZIP = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"
MAX_SOURCE_LINES = 90


@dataclass
class StdlibProgram(Program):
    split_id: str = ""  # the held-out split is by function, not by call


# ----------------------------------------------------------------------------------------------
# Inputs


def _sorted_ints(rng: random.Random) -> list[int]:
    return sorted(rand_int(rng, -5, 30) for _ in range(rng.randint(0, 8)))


def _heap(rng: random.Random, nonempty: bool = False) -> list[int]:
    import heapq

    xs = [rand_int(rng, -5, 40) for _ in range(rng.randint(1 if nonempty else 0, 9))]
    heapq.heapify(xs)
    return xs


def _unit(rng: random.Random) -> float:
    return rng.choice([0.0, 1.0, 0.5, round(rng.random(), 2), round(rng.random(), 1)])


PATH_PARTS = ["usr", "local", "bin", "home", "alice", "docs", "src", "tmp", "a", "b", "data", "lib", "..", ".", ""]
EXTS = ["", ".py", ".txt", ".tar.gz", ".md", ".json", ".", ".bashrc"]


def _path(rng: random.Random) -> str:
    parts = [rng.choice(PATH_PARTS) for _ in range(rng.randint(1, 4))]
    p = "/".join(parts)
    if rng.random() < 0.5:
        p = "/" + p
    if rng.random() < 0.5:
        p += rng.choice(["file", "notes", "main", "x", "archive", ".hidden"]) + rng.choice(EXTS)
    if rng.random() < 0.15:
        p += "/"
    if rng.random() < 0.1:
        p = p.replace("/", "//", 1)
    return p


def _glob(rng: random.Random) -> str:
    pieces = ["*", "?", "[abc]", "[!0-9]", "data", ".py", "a", "_", "[a-z]", "**", "x", ".", "-"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))


def _text_lines(rng: random.Random, indent: bool = False) -> str:
    lines = []
    base = rng.choice(["", "  ", "    ", "\t"]) if indent else ""
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.15:
            lines.append(rng.choice(["", "  "]))
        else:
            extra = rng.choice(["", "", "  ", "    "]) if indent else ""
            lines.append(base + extra + " ".join(rand_word(rng) for _ in range(rng.randint(1, 3))))
    return "\n".join(lines) + rng.choice(["", "\n"])


def _html(rng: random.Random) -> str:
    pieces = ["<b>", "</b>", "&", "a < b", "x > y", '"q"', "'s'", "Tom & Jerry", " ", "hello", "&amp;"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 5)))


def _special_str(rng: random.Random) -> str:
    pieces = ["hi", " ", '"', "\\", "\n", "\t", "é", "ok", "\x01", "☃", "tab", "/"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))


def _shell_word(rng: random.Random) -> str:
    return rng.choice(["", "file.txt", "my file", "it's", "a;b", "$HOME", "x*y", "plain", "--flag=1", "a b c", '"q"'])


def _docstring(rng: random.Random) -> str:
    first = " ".join(rand_word(rng) for _ in range(rng.randint(1, 4))).capitalize() + "."
    body = [rng.choice(["    ", "        ", "  "]) + " ".join(rand_word(rng) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(0, 3))]
    return "\n".join([first, *body]) + rng.choice(["", "\n    "])


def _words_text(rng: random.Random) -> str:
    sep = rng.choice([" ", " ", "  ", "\t"])
    return sep.join(rand_word(rng).lower() for _ in range(rng.randint(0, 5)))


GEN: dict[str, Callable[[random.Random], Any]] = {
    "int": lambda r: rand_int(r),
    "small_int": lambda r: r.randint(0, 5),
    "year": lambda r: r.choice([1900, 2000, 2023, 2024, 1996, 2100, r.randint(1800, 2200)]),
    "sorted_ints": _sorted_ints,
    "list_int": lambda r: [rand_int(r, -5, 40) for _ in range(r.randint(0, 8))],
    "list_int_nonempty": lambda r: [rand_int(r, -5, 40) for _ in range(r.randint(1, 8))],
    "heap": _heap,
    "heap_nonempty": lambda r: _heap(r, True),
    "unit": _unit,
    "path": _path,
    "path_list": lambda r: [_path(r) for _ in range(r.randint(1, 3))],
    "abs_path_list": lambda r: ["/" + _path(r).lstrip("/") for _ in range(r.randint(1, 3))],
    "glob": _glob,
    "words_text": _words_text,
    "text_lines": _text_lines,
    "indented_text": lambda r: _text_lines(r, True),
    "prefix": lambda r: r.choice(["  ", "> ", "# ", "\t", "- "]),
    "html": _html,
    "special_str": _special_str,
    "shell_word": _shell_word,
    "docstring": _docstring,
    "word": rand_word,
    "month": lambda r: r.randint(1, 12),
    "day": lambda r: r.randint(1, 28),
    "ordinal": lambda r: r.choice([1, 365, 366, 730120, r.randint(1, 800_000)]),
    "char": lambda r: r.choice("abe l"),
    "quoted": lambda r: r.choice(['"hello"', "<a@b.c>", "plain", '"', "'x'", '"a\\"b"']),
}

# (module, function, argument types). Only the sources of these modules are read. Left out:
# heapq.nlargest/nsmallest and fnmatch.translate (over MAX_SOURCE_LINES with their helpers).
SPECS: list[tuple[str, str, list[str]]] = [
    ("bisect", "bisect_right", ["sorted_ints", "int"]),
    ("bisect", "bisect_left", ["sorted_ints", "int"]),
    ("bisect", "insort_right", ["sorted_ints", "int"]),
    ("bisect", "insort_left", ["sorted_ints", "int"]),
    ("heapq", "heappush", ["heap", "int"]),
    ("heapq", "heappop", ["heap_nonempty"]),
    ("heapq", "heapify", ["list_int"]),
    ("heapq", "heappushpop", ["heap", "int"]),
    ("heapq", "heapreplace", ["heap_nonempty", "int"]),
    ("colorsys", "rgb_to_yiq", ["unit", "unit", "unit"]),
    ("colorsys", "yiq_to_rgb", ["unit", "unit", "unit"]),
    ("colorsys", "rgb_to_hls", ["unit", "unit", "unit"]),
    ("colorsys", "hls_to_rgb", ["unit", "unit", "unit"]),
    ("colorsys", "rgb_to_hsv", ["unit", "unit", "unit"]),
    ("colorsys", "hsv_to_rgb", ["unit", "unit", "unit"]),
    ("string", "capwords", ["words_text"]),
    ("html", "escape", ["html"]),
    ("posixpath", "join", ["path", "path"]),
    ("posixpath", "split", ["path"]),
    ("posixpath", "splitext", ["path"]),
    ("posixpath", "basename", ["path"]),
    ("posixpath", "dirname", ["path"]),
    ("posixpath", "normpath", ["path"]),
    ("posixpath", "isabs", ["path"]),
    ("posixpath", "commonpath", ["abs_path_list"]),
    ("genericpath", "commonprefix", ["path_list"]),
    ("genericpath", "_splitext", ["path", "sep", "altsep", "extsep"]),
    ("statistics", "median", ["list_int_nonempty"]),
    ("statistics", "median_low", ["list_int_nonempty"]),
    ("statistics", "median_high", ["list_int_nonempty"]),
    ("statistics", "mode", ["list_int_nonempty"]),
    ("statistics", "multimode", ["list_int"]),
    ("textwrap", "dedent", ["indented_text"]),
    ("textwrap", "indent", ["text_lines", "prefix"]),
    ("calendar", "isleap", ["year"]),
    ("calendar", "leapdays", ["year", "year"]),
    ("operator", "countOf", ["list_int", "int"]),
    ("operator", "indexOf", ["list_int", "int"]),
    ("operator", "concat", ["list_int", "list_int"]),
    ("json.encoder", "py_encode_basestring", ["special_str"]),
    ("json.encoder", "py_encode_basestring_ascii", ["special_str"]),
    ("shlex", "quote", ["shell_word"]),
    ("inspect", "cleandoc", ["docstring"]),
    ("glob", "has_magic", ["glob"]),
    ("glob", "escape", ["glob"]),
    ("_pydatetime", "_is_leap", ["year"]),
    ("_pydatetime", "_days_in_month", ["year", "month"]),
    ("_pydatetime", "_ymd2ord", ["year", "month", "day"]),
    ("_pydatetime", "_ord2ymd", ["ordinal"]),
    ("_pydatetime", "_days_before_year", ["year"]),
    ("posixpath", "splitroot", ["path"]),
    ("email.utils", "unquote", ["quoted"]),
]
GEN.update({"sep": lambda r: "/", "altsep": lambda r: r.choice([None, "\\"]), "extsep": lambda r: "."})

# ----------------------------------------------------------------------------------------------
# Reading sources


@functools.lru_cache(maxsize=None)
def _zip() -> Optional[zipfile.ZipFile]:
    return zipfile.ZipFile(STDLIB_ZIP) if STDLIB_ZIP.exists() else None


@functools.lru_cache(maxsize=None)
def module_source(module: str) -> Optional[str]:
    z = _zip()
    rel = module.replace(".", "/")
    if z is not None:
        names = set(z.namelist())
        for cand in (f"{rel}.py", f"{rel}/__init__.py"):
            if cand in names:
                return z.read(cand).decode("utf-8")
        return None
    try:
        return inspect.getsource(importlib.import_module(module))
    except (ImportError, OSError, TypeError):
        return None


def source_origin() -> str:
    return f"pyodide:{STDLIB_ZIP.name}" if _zip() is not None else f"python{sys.version_info[0]}.{sys.version_info[1]}"


def build_source(module: str, func: str) -> Optional[str]:
    """The program text: imports, constants and helpers the function needs, then the function."""
    src = module_source(module)
    return None if src is None else program_source(src, [func], MAX_SOURCE_LINES)


# ----------------------------------------------------------------------------------------------
# Checking and drawing


def _outcome(fn: Callable[..., Any], args: list[Any]) -> tuple[str, Any]:
    args = copy.deepcopy(args)
    try:
        return "ok", (fn(*args), args)
    except Exception as exc:  # noqa: BLE001
        return "raised", type(exc).__name__


def _same(a: Any, b: Any) -> bool:
    """Equal values, floats up to rounding (another Python's library may round differently)."""
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and type(a) is type(b):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and repr(a) == repr(b)


def _run(source: str, func: str, args: list[Any]) -> Optional[BaseException]:
    ns: dict[str, Any] = {"__name__": "__stdlib_check__"}
    exec(compile(source, "main.py", "exec"), ns)
    try:
        ns[func](*copy.deepcopy(args))
    except Exception as exc:  # noqa: BLE001
        return exc
    return None


def _real(module: str, func: str) -> Optional[Callable[..., Any]]:
    try:
        return getattr(importlib.import_module(module), func, None)
    except ImportError:
        return None


@functools.lru_cache(maxsize=None)
def available() -> tuple[tuple[str, str, tuple[str, ...], str], ...]:
    """The usable entries of SPECS with their program sources (checked once per process)."""
    out = []
    rng = random.Random(0)
    for module, func, types in SPECS:
        source = build_source(module, func)
        if source is None:
            continue
        real = _real(module, func)
        try:
            bad = 0
            ns: dict[str, Any] = {"__name__": "__stdlib_check__"}
            exec(compile(source, "main.py", "exec"), ns)
            for _ in range(8):
                args = [GEN[t](rng) for t in types]
                exc = _run(source, func, args)
                if isinstance(exc, (NameError, ImportError, AttributeError)):
                    bad += 1
                # the extracted program must behave as the library does (where this Python has it)
                if real is not None and not _same(_outcome(ns[func], args), _outcome(real, args)):
                    bad += 1
        except Exception:  # noqa: BLE001  (does not compile or define on this Python)
            continue
        if bad == 0:
            out.append((module, func, tuple(types), source))
    return tuple(out)


def _literal(value: Any) -> str:
    return repr(value)


def make_program(rng: random.Random) -> Optional[StdlibProgram]:
    """A random usable stdlib function called with generated inputs (None when none is usable)."""
    specs = available()
    if not specs:
        return None
    module, func, types, source = rng.choice(specs)
    call = f"{func}({', '.join(_literal(GEN[t](rng)) for t in types)})"
    pid = hashlib.sha1((normalize(source) + "\n#call " + call).encode("utf-8")).hexdigest()
    return StdlibProgram(source, call, func, f"{module}.{func}", pid, "stdlib", program_hash(source))


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.data.stdlib_funcs")
    ap.add_argument("--n", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    if args.list:
        ok = {(m, f) for m, f, _, _ in available()}
        for module, func, _ in SPECS:
            src = build_source(module, func)
            n = src.count("\n") if src else 0
            print(f"{'ok  ' if (module, func) in ok else 'SKIP'} {module}.{func} ({n} lines)")
        print(f"{len(ok)}/{len(SPECS)} usable, sources from {source_origin()}")
        return 0
    for i in range(args.n):
        p = make_program(random.Random(f"{args.seed}:{i}"))
        if p is not None:
            sys.stdout.write(json.dumps(asdict(p)) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
