"""Cutting a runnable program out of a module: the functions asked for, and the imports,
constants and helpers they need, in module order (used for the standard library's functions and
for the corpus of code written by people)."""

from __future__ import annotations

import ast
import builtins
import textwrap
from dataclasses import dataclass
from typing import Callable, Optional


@dataclass
class Def:
    name: str
    node: ast.stmt
    kind: str  # "def" | "assign" | "import"
    fallback: bool  # inside an `except` branch (a pure fallback)


def module_defs(tree: ast.Module) -> dict[str, list[Def]]:
    """Module-level bindings: defs and classes, assignments and imports, also inside top-level
    if/try statements."""
    out: dict[str, list[Def]] = {}

    def visit(stmts: list[ast.stmt], fallback: bool) -> None:
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.setdefault(st.name, []).append(Def(st.name, st, "def", fallback))
            elif isinstance(st, (ast.Assign, ast.AnnAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            out.setdefault(n.id, []).append(Def(n.id, st, "assign", fallback))
            elif isinstance(st, (ast.For, ast.AugAssign, ast.Expr)):
                # module-level code that fills a table: `for d in X: TABLE.append(...)`, `X += ...`
                names: set[str] = set()
                for n in ast.walk(st):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                        names.add(n.id)
                    elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and isinstance(n.ctx, ast.Load):
                        names.add(n.value.id)
                for name in names:
                    out.setdefault(name, []).append(Def(name, st, "assign", fallback))
            elif isinstance(st, (ast.Import, ast.ImportFrom)):
                for alias in st.names:
                    name = (alias.asname or alias.name).split(".")[0]
                    if name != "*":
                        out.setdefault(name, []).append(Def(name, st, "import", fallback))
            elif isinstance(st, ast.If):
                visit(st.body, fallback)
                visit(st.orelse, fallback)
            elif isinstance(st, ast.Try):
                visit(st.body, fallback)
                for h in st.handlers:
                    visit(h.body, True)
                visit(st.orelse, fallback)
                visit(st.finalbody, fallback)

    visit(tree.body, False)
    return out


def free_names(node: ast.AST) -> set[str]:
    loaded: set[str] = set()
    bound: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            (loaded if isinstance(n.ctx, ast.Load) else bound).add(n.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            bound.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                bound.add((a.asname or a.name).split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            bound.add(n.name)
    return loaded - bound - set(dir(builtins))


def _first_line(node: ast.stmt) -> int:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
        return min(node.lineno, *(d.lineno for d in node.decorator_list))
    return node.lineno


def segment(lines: list[str], node: ast.stmt, drop_docstring: bool, omit: tuple[ast.stmt, ...] = ()) -> str:
    """The text of ``node``, dedented; ``omit``: statements inside it left out (methods a class
    keeps only for what a trace cannot reproduce)."""
    start = _first_line(node)
    end = node.end_lineno or node.lineno
    skip: set[int] = set()
    for o in omit:
        skip.update(range(_first_line(o), (o.end_lineno or o.lineno) + 1))
    if drop_docstring and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        for n in ast.walk(node):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body:
                first = n.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                    if len(n.body) > 1:
                        skip.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    kept = [lines[i - 1] for i in range(start, end + 1) if i not in skip]
    text = textwrap.dedent("\n".join(kept))
    # blank lines left where a docstring was
    out: list[str] = []
    for line in text.split("\n"):
        if not line.strip() and (not out or not out[-1].strip()):
            continue
        out.append(line.rstrip())
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


def pick(defs: list[Def]) -> Def:
    fallbacks = [d for d in defs if d.fallback and d.kind == "def"]
    if fallbacks:
        return fallbacks[-1]
    own = [d for d in defs if d.kind == "def"]
    return (own or defs)[-1] if not own else own[0]


def import_text(node: ast.stmt, name: str) -> str:
    if isinstance(node, ast.Import):
        for a in node.names:
            if (a.asname or a.name).split(".")[0] == name:
                return f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
    assert isinstance(node, ast.ImportFrom)
    for a in node.names:
        if (a.asname or a.name) == name:
            mod = "." * node.level + (node.module or "")
            return f"from {mod} import {a.name}" + (f" as {a.asname}" if a.asname else "")
    return ""


def program_source(src: str, roots: list[str], max_lines: int, allow_import: Callable[[str], bool] = lambda text: True,
                   extra: tuple[str, ...] = ()) -> Optional[str]:
    """The program text for ``roots`` (functions or classes of the module ``src``): the imports,
    constants and helpers they need, then the roots, in module order; docstrings dropped. None when
    a root is not a def or class of the module, an import is relative or refused by
    ``allow_import``, or the text has more than ``max_lines`` lines. ``extra``: other module-level
    names to bring along (a constant or an import that a script of the module's examples uses)."""
    try:
        tree = ast.parse(src)
    except SyntaxError:
        return None
    lines = src.split("\n")
    defs = module_defs(tree)
    if any(root not in defs or pick(defs[root]).kind != "def" for root in roots):
        return None  # only functions written in the module (not re-exported ones)
    imports: list[str] = []
    assigns: list[tuple[int, str]] = []
    funcs: list[tuple[int, str]] = []
    done: set[str] = set()
    todo = list(roots) + list(extra)
    while todo:
        name = todo.pop()
        if name in done:
            continue
        done.add(name)
        if name not in defs:
            continue  # a builtin-like name of the module (e.g. set by `from _x import *`): checked by running
        d = pick(defs[name])
        if d.kind == "assign":  # every statement that binds or fills it, in module order
            for a in defs[name]:
                if a.kind == "assign" and not a.fallback:
                    entry = (a.node.lineno, segment(lines, a.node, drop_docstring=False))
                    if entry not in assigns:
                        assigns.append(entry)
                    names = {n.id for n in ast.walk(a.node) if isinstance(n, ast.Name)} - set(dir(builtins))
                    todo.extend(sorted(names - done))
            continue
        if d.kind == "import":
            text = import_text(d.node, name)
            if text.startswith("from .") or (text and not allow_import(text)):
                return None
            if text and text not in imports:
                imports.append(text)
            continue
        text = segment(lines, d.node, drop_docstring=True)
        entry = (d.node.lineno, text)
        if d.kind == "def":
            if entry not in funcs:
                funcs.append(entry)
        elif entry not in assigns:
            assigns.append(entry)
        todo.extend(sorted(free_names(d.node) - done))
    parts: list[str] = []
    if imports:
        parts.append("\n".join(sorted(imports)))
    # module order: an assignment may call a function defined above it
    group: list[str] = []
    for _, kind, text in sorted([(n, "assign", t) for n, t in assigns] + [(n, "def", t) for n, t in funcs]):
        if kind == "assign":
            group.append(text)
            continue
        if group:
            parts.append("\n".join(group))
            group = []
        parts.append(text)
    if group:
        parts.append("\n".join(group))
    source = "\n\n\n".join(parts) + "\n"
    if source.count("\n") > max_lines:
        return None
    return source
