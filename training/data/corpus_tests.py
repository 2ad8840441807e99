"""Calls and scripts from a collection's test files (``training/data/corpus.py``).

- **Entry calls**: argument expressions of asserts that call a tested name with literal arguments:
  ``self.assertEqual(f(…), …)``, ``assert f(…) == …``, ``with self.assertRaises(…): f(…)``,
  ``pytest.raises``/``assertRaisesRegex`` with ``lambda: f(…)``.
- **Test scripts** (libraries): the body of a test function as a module-level program, its asserts
  turned into prints of the value they check (``assert s.pop() == 3`` → ``print(s.pop())``), up to
  the first statement that cannot run alone (``self``, a fixture, an expected exception).

Libraries' tests name the package's modules (``mi.chunked(…)``, ``strutils.indent(…)``,
``stack.Stack()``): ``unqualify`` rewrites those to the plain names the program defines."""

from __future__ import annotations

import ast
from typing import Optional

from .corpus_checks import BUILTINS, call_ok, import_allowed
from .corpus_imports import Package
from .extract import free_names, import_text

RAISES = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "raises"})
MAX_TEST_STATEMENTS = 12


def _called_attr(node: ast.AST) -> str:
    """``x`` for a call ``a.x(…)`` or ``x(…)``."""
    if isinstance(node, ast.Call):
        func = node.func
        return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return ""


def _checked_exprs(node: ast.AST) -> list[ast.expr]:
    """The expressions an assert checks, a raising block runs or a raising lambda calls."""
    if isinstance(node, ast.Assert):
        t = node.test
        if isinstance(t, ast.Compare):
            return [t.left, *t.comparators]
        return [t.operand if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not) else t]
    name = _called_attr(node)
    if isinstance(node, ast.Call) and (name.startswith("assert") or name in RAISES):
        return [a.body if isinstance(a, ast.Lambda) and not a.args.args else a for a in node.args]
    if isinstance(node, ast.With) and any(_called_attr(i.context_expr) in RAISES for i in node.items):
        return [s.value for s in node.body if isinstance(s, ast.Expr)]
    return []


def test_calls(tree: ast.Module, tested: set[str]) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        for expr in _checked_exprs(node):
            if call_ok(expr, tested):
                out.append(ast.unparse(expr))
    return list(dict.fromkeys(out))


def imported_names(tree: ast.Module) -> dict[str, str]:
    """``{name: module}`` for ``from module import name`` at any level of a test file."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = node.module
    return out


# ----------------------------------------------------------------------------------------------
# Module-qualified names


def _module_aliases(tree: ast.Module, package: Package) -> dict[str, str]:
    """Local names a test file binds to modules of the package: ``import more_itertools as mi``,
    ``from boltons import strutils``, ``import toolz``."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in package.modules:
                    out[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if f"{node.module}.{a.name}" in package.modules:
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _qualified(node: ast.AST, aliases: dict[str, str], package: Package) -> Optional[tuple[str, str]]:
    """(module, name) for ``alias.name`` or ``alias.sub.name`` naming a module's attribute."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases or not parts:
        return None
    parts.reverse()
    module = aliases[node.id]
    while len(parts) > 1 and f"{module}.{parts[0]}" in package.modules:
        module = f"{module}.{parts.pop(0)}"
    return (module, parts[0]) if len(parts) == 1 else None


def unqualify(tree: ast.Module, package: Package) -> dict[str, str]:
    """Rewrites ``mi.chunked`` to ``chunked`` in ``tree`` (in place) where the name is not also
    taken from another module, and returns ``{name: module}`` for the names rewritten."""
    aliases = _module_aliases(tree, package)
    direct = imported_names(tree)
    sources: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        found = _qualified(node, aliases, package) if isinstance(node, ast.Attribute) else None
        if found:
            sources.setdefault(found[1], set()).add(found[0])
    plain = {name: next(iter(mods)) for name, mods in sources.items()
             if len(mods) == 1 and direct.get(name, next(iter(mods))) == next(iter(mods)) and name not in aliases}

    class Rewrite(ast.NodeTransformer):
        def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
            found = _qualified(node, aliases, package)
            if found and plain.get(found[1]) == found[0]:
                return ast.copy_location(ast.Name(found[1], node.ctx), node)
            return self.generic_visit(node)

    Rewrite().visit(tree)
    return plain


# ----------------------------------------------------------------------------------------------
# Test scripts


def test_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """Test functions that take nothing (``def test_x():``, ``def test_x(self):`` in a class):
    fixtures and parametrized tests are left out."""
    out: list[ast.FunctionDef] = []
    candidates = [(n, False) for n in tree.body if isinstance(n, ast.FunctionDef)]
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        candidates.extend((f, True) for f in cls.body if isinstance(f, ast.FunctionDef))
    for f, method in candidates:
        args = [a.arg for a in f.args.args]
        if f.name.startswith("test") and not f.decorator_list and args == (["self"] if method else []) \
                and not (f.args.vararg or f.args.kwarg or f.args.kwonlyargs):
            out.append(f)
    return out


def _printed(expr: ast.expr) -> ast.stmt:
    return ast.Expr(ast.Call(ast.Name("print", ast.Load()), [expr], []))


def _as_script_statement(st: ast.stmt) -> Optional[ast.stmt]:
    """The statement as it runs in a script, or None where the script has to stop."""
    if isinstance(st, ast.Assert):
        t = st.test
        if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], (ast.Eq, ast.Is)):
            return _printed(t.left)  # the value checked, not the expected one (varied inputs change it)
        return _printed(t)
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and isinstance(st.value.func, ast.Attribute) \
            and isinstance(st.value.func.value, ast.Name) and st.value.func.value.id == "self":
        name = st.value.func.attr
        if not name.startswith("assert") or name in RAISES or not st.value.args:
            return None
        return _printed(st.value.args[0])
    if isinstance(st, (ast.Return, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, ast.With, ast.Try,
                       ast.AsyncFor, ast.AsyncWith, ast.AsyncFunctionDef, ast.ClassDef)):
        return None
    # a nested def's ``nonlocal`` names the test's locals: at module level there are none
    if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await, ast.Nonlocal, ast.Global)) for n in ast.walk(st)):
        return None
    return st


def _stored(st: ast.stmt) -> set[str]:
    names = {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    names.update(n.name for n in ast.walk(st) if isinstance(n, ast.FunctionDef))
    return names


def stdlib_imports(tree: ast.Module, package: Package) -> dict[str, str]:
    """``{local name: import line}`` for the allowed standard-library imports of a test file."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and not node.level
                                            and not package.is_local(node.module)):
            for a in node.names:
                local = (a.asname or a.name).split(".")[0]
                text = import_text(node, local)
                if a.name != "*" and text and not package.is_local(a.name) and import_allowed(text):
                    out[local] = text
    return out


def test_script(func: ast.FunctionDef, tested: set[str], stdlib: dict[str, str]) -> Optional[tuple[list[ast.stmt], list[str], list[str]]]:
    """(statements, tested names used, import lines) of a test function's script, or None when
    its first statements already cannot run alone or it calls nothing tested."""
    body = func.body[1:] if ast.get_docstring(func) else func.body
    statements: list[ast.stmt] = []
    local: set[str] = set()
    used: set[str] = set()
    imports: set[str] = set()
    for st in body[:MAX_TEST_STATEMENTS]:
        converted = _as_script_statement(st)
        if converted is None:
            break
        free = free_names(converted) - BUILTINS
        stored = _stored(converted)
        if not free <= local | tested | set(stdlib) or stored & tested:
            break
        used |= free & tested - local
        imports.update(stdlib[n] for n in free - local - tested if n in stdlib)
        local |= stored
        statements.append(ast.fix_missing_locations(converted))
    calls_tested = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in used
                       for s in statements for n in ast.walk(s))
    if not statements or not calls_tested:
        return None
    return statements, sorted(used), sorted(imports)
