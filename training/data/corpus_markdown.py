"""Snippets in Markdown (30-seconds-of-python): a short function in a ```` ```py ```` block, then
a block of example calls with their results as comments (``f(1, 2) # 3``).

The results are not needed (the tracer computes them; ``ast`` drops comments). The examples
become entry calls when each is a call of the snippet's functions; the statements before them
that only set up (``from datetime import date``, ``f = lambda n: …``) stay in the program, so
that the calls can use what they bind. Examples of any other shape make a script."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Optional

from .corpus_checks import call_ok, called_root

_BLOCK = re.compile(r"^```py[ \t]*\n(.*?)^```", re.S | re.M)


@dataclass
class Snippet:
    code: str  # the function(s)
    examples: list[ast.stmt]  # the example block's statements


@dataclass
class Examples:
    context: list[str]  # set-up statements the calls need, as program lines
    calls: dict[str, list[str]]  # root -> entry calls; empty when the examples are a script


def read_snippet(markdown: str) -> tuple[Optional[Snippet], str]:
    """The snippet's code and example statements, or None and why not."""
    blocks = _BLOCK.findall(markdown)
    if len(blocks) < 2:
        return None, "snippet_without_examples"
    try:
        ast.parse(blocks[0])
        examples = ast.parse(blocks[1]).body
    except SyntaxError:
        return None, "snippet_syntax"
    return Snippet(blocks[0], examples), ""


def split_examples(statements: list[ast.stmt], top: set[str]) -> Examples:
    """Entry calls (by the names they test) and the set-up they need; no calls when any example
    is not a call of ``top`` or the set-up itself uses ``top`` (its run would go untraced)."""
    setup: list[ast.stmt] = []
    bound: set[str] = set()
    calls: dict[str, list[str]] = {}
    for st in statements:
        uses_top = any(isinstance(n, ast.Name) and n.id in top for n in ast.walk(st))
        if isinstance(st, (ast.Import, ast.ImportFrom, ast.Assign)) and not uses_top and not calls:
            setup.append(st)
            bound |= _bound(st)
            continue
        root = called_root(st.value, top) if isinstance(st, ast.Expr) else None
        if root is None or not call_ok(st.value, top | bound):  # type: ignore[attr-defined]
            return Examples([], {})
        calls.setdefault(root, []).append(ast.unparse(st.value))  # type: ignore[attr-defined]
    return Examples([ast.unparse(s) for s in setup], calls)


def _bound(st: ast.stmt) -> set[str]:
    if isinstance(st, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in st.names}
    return {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
