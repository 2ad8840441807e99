"""What a corpus program may contain: the standard-library modules it may import, the names it may
not use, and what counts as an entry call (``training/data/corpus.py``)."""

from __future__ import annotations

import ast
import builtins
from typing import Optional

MAX_CALL_CHARS = 300

# Standard-library modules a program may import: deterministic, no I/O, shipped by Pyodide.
# Everything else (numpy, requests, a collection's own packages, random, time, os, sys …) makes a
# unit skipped. ``datetime`` is here because dates are values; its clock (``now``, ``today``) is
# refused by CLOCK_ATTRIBUTES. ``types`` gives SimpleNamespace and MethodType, no I/O.
ALLOWED_MODULES = frozenset("""
__future__ abc array bisect cmath collections copy dataclasses decimal enum fractions functools
heapq itertools math numbers operator re statistics string textwrap typing typing_extensions
unicodedata contextlib queue datetime types
""".split())
# Names whose use means I/O, the clock, randomness or reflection the trace cannot reproduce.
FORBIDDEN_NAMES = frozenset({"open", "input", "exec", "eval", "compile", "__import__", "globals", "breakpoint", "exit", "quit"})
# Attributes that read the clock (``date.today()``, ``datetime.now()``): a run would differ by day.
CLOCK_ATTRIBUTES = frozenset({"now", "today", "utcnow", "fromtimestamp", "utcfromtimestamp"})

BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_")) - FORBIDDEN_NAMES


def import_allowed(text: str) -> bool:
    """``import x`` / ``from x import y`` of an allowed module (the text of one import line)."""
    words = text.split()
    module = words[1] if words[0] in ("import", "from") else ""
    return module.split(".")[0] in ALLOWED_MODULES


def refusal(source: str) -> Optional[str]:
    """Why a program cannot be traced as real code (None when it can)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "syntax"
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if node.__class__ is ast.ImportFrom and node.level:
                return "local_import"
            if any(n.split(".")[0] not in ALLOWED_MODULES for n in names):
                return "import"
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            return "io_or_eval"
        elif isinstance(node, ast.Attribute) and node.attr in CLOCK_ATTRIBUTES:
            return "clock"
        elif isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return "async"
    return None


def is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def call_ok(node: ast.expr, callables: set[str]) -> bool:
    """An entry call: some tested name is called, every other name is a builtin or tested, and
    its arguments are literals or calls of that kind."""
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    if not any(isinstance(c.func, ast.Name) and c.func.id in callables for c in calls):
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in callables and n.id not in BUILTINS:
            return False
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Starred, ast.Await, ast.Yield)):
            return False
    return len(ast.unparse(node)) <= MAX_CALL_CHARS


def called_root(expr: ast.AST, top: set[str]) -> Optional[str]:
    """The unit a call belongs to: the names of the module it uses (``inorder+make_tree``), so that
    the program defines all of them."""
    names = sorted({n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in top})
    return "+".join(names) or None
