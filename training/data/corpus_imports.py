"""A library's imports of its own package, resolved inside its archive: the definitions a unit needs
from other modules (``from .recipes import take``, ``from toolz.utils import no_default``) are
inlined into its program, as ``extract.py`` does for the helpers of the same file.

The archive's ``.py`` files become modules by their paths (``boltons/strutils.py`` is
``boltons.strutils``); ``from X import *`` is followed for names a module does not bind itself;
``from X import a as b`` inlines ``a`` and adds ``b = a``; a module used as an object
(``queue.Queue`` after ``from pygorithm.data_structures import queue``) has the attribute
rewritten to the plain name, which the program then defines.

Python 2/3 shims take the branch that runs on the Python the traces come from (3.12 and later):
a module-level ``if`` on the version (``sys.version_info``, ``hexversion``, ``PY3``) keeps the
branch that is true for 3.12; a module-level ``try`` that imports only allowed standard-library
modules is kept whole (``try: from math import sumprod / except ImportError: def sumprod…``
runs on every version as written); any other ``try`` gives its pure-Python fallback, else its
``try`` body when that can be resolved, else its ``except`` body. Methods of a class that need a
refused module (pygorithm's ``get_code`` with ``inspect``) are left out of it.

What cannot be resolved makes the unit skipped, with a reason: ``module_object_import`` (a module
passed around as a value), ``local_import_unresolved``, ``name_clash`` (two modules give the same
name different meanings), ``import`` (a module outside the allowed standard library),
``too_long``, ``not_a_def``."""

from __future__ import annotations

import ast
import builtins
import collections
import copy
from dataclasses import dataclass, field
from typing import Callable, Optional

from .corpus_checks import FORBIDDEN_NAMES, import_allowed
from .extract import Def, free_names, import_text, module_defs, segment

# The oldest Python the traces come from (DESIGN.md §3: ≥ 3.12): a branch for a newer one
# (``hexversion >= 0x30D00A2``) is left for the portable pure-Python one.
VERSION_INFO = (3, 12, 0, "final", 0)
HEXVERSION = 0x030C00F0
_FLAGS = {"PY3": True, "PY2": False, "IS_PY3": True, "IS_PY2": False, "_IS_PY3": True, "_IS_PY2": False,
          "PYPY": False, "hexversion": HEXVERSION, "version_info": VERSION_INFO}
# Builtins of Python 2 only: an assignment that names one is the Python 2 side of a shim.
PY2_NAMES = frozenset({"unicode", "basestring", "long", "xrange", "unichr", "raw_input", "cmp", "execfile",
                       "reload", "intern", "buffer", "file", "izip", "imap", "ifilter", "izip_longest", "ifilterfalse"})
_BUILTIN_NAMES = frozenset(dir(builtins))


@dataclass
class Module:
    path: str
    name: str  # dotted
    is_package: bool  # an __init__.py
    lines: list[str]
    defs: dict[str, list[Def]]
    stars: list[str] = field(default_factory=list)  # absolute names of the modules ``from … import *`` reads
    future: bool = False  # ``from __future__ import annotations``: its annotations are never evaluated


@dataclass
class Piece:
    """A def or assignment as a program holds it: its text (module attributes rewritten, refused
    methods left out), the module's names it needs, and the definitions of other modules it names."""
    text: str
    names: list[str]
    targets: list[tuple[Module, str]]


@dataclass
class Resolved:
    """A unit's program: ``path`` is the file whose code it is, ``files`` every file it draws on
    (the held-out split holds out a program that draws on any held-out file)."""
    path: str
    source: str
    files: tuple[str, ...]


# ----------------------------------------------------------------------------------------------
# Python 2/3 shims


class _Unknown(Exception):
    pass


def _value(node: ast.expr) -> object:
    """The value of a version test, or _Unknown when it names anything but the version."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in _FLAGS:
        return _FLAGS[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr in _FLAGS:
        return _FLAGS[node.attr]
    if isinstance(node, ast.Tuple):
        return tuple(_value(e) for e in node.elts)
    if isinstance(node, ast.Subscript):
        base = _value(node.value)
        if isinstance(node.slice, ast.Slice):
            parts = [None if p is None else _value(p) for p in (node.slice.lower, node.slice.upper, node.slice.step)]
            return base[slice(*parts)]  # type: ignore[index]
        return base[_value(node.slice)]  # type: ignore[index]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _value(node.operand)
    if isinstance(node, ast.BoolOp):
        values = [_value(v) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare):
        ops = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
               ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}
        left = _value(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            compare = ops.get(type(op))
            if compare is None:
                raise _Unknown
            right = _value(right_node)
            if not compare(left, right):
                return False
            left = right
        return True
    raise _Unknown


def version_test(test: ast.expr) -> Optional[bool]:
    """True or False for a test on the Python version (for 3.12), None for any other test."""
    try:
        return bool(_value(test))
    except (_Unknown, TypeError, IndexError, KeyError):
        return None


def py3_statements(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Module-level statements with version checks replaced by the branch taken on Python 3."""
    out: list[ast.stmt] = []
    for st in stmts:
        taken = version_test(st.test) if isinstance(st, ast.If) else None
        if taken is None:
            out.append(st)
        else:
            out.extend(py3_statements(st.body if taken else st.orelse))  # type: ignore[attr-defined]
    return out


# ----------------------------------------------------------------------------------------------
# The package


def module_name(path: str) -> tuple[str, bool]:
    """``a/b/c.py`` → ``("a.b.c", False)``; ``a/b/__init__.py`` → ``("a.b", True)``."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


class Package:
    """The modules of one archive, by dotted name."""

    def __init__(self, texts: dict[str, str], trees: dict[str, ast.Module],
                 allow_import: Callable[[str], bool] = import_allowed) -> None:
        self.allow_import = allow_import
        self.modules: dict[str, Module] = {}
        self.by_path: dict[str, Module] = {}
        self.tries: dict[int, ast.Try] = {}  # id of a statement -> the module-level try it is in
        self._pieces: dict[int, Piece | str] = {}
        bodies: dict[str, list[ast.stmt]] = {}
        for path, tree in trees.items():
            name, is_package = module_name(path)
            bodies[path] = body = py3_statements(tree.body)
            m = Module(path, name, is_package, texts[path].split("\n"), module_defs(ast.Module(body=body, type_ignores=[])))
            m.future = any(isinstance(st, ast.ImportFrom) and st.module == "__future__" and any(a.name == "annotations" for a in st.names)
                           for st in body)
            self.modules[name] = self.by_path[path] = m
            for st in body:
                if isinstance(st, ast.Try):
                    self.tries.update((id(n), st) for n in ast.walk(st) if isinstance(n, ast.stmt) and n is not st)
        self.tops = {name.split(".")[0] for name in self.modules}
        for m in self.modules.values():  # once every module is known
            m.stars = [s for s in (self._star(m, st) for st in bodies[m.path]) if s]

    def _star(self, m: Module, st: ast.stmt) -> Optional[str]:
        if isinstance(st, ast.ImportFrom) and any(a.name == "*" for a in st.names):
            target = self.absolute(m, st)
            return target if target in self.modules else None
        return None

    def is_local(self, dotted: Optional[str]) -> bool:
        return bool(dotted) and dotted.split(".")[0] in self.tops  # type: ignore[union-attr]

    def absolute(self, m: Module, node: ast.ImportFrom) -> str:
        """The absolute name of the module a ``from`` import reads (relative ones resolved)."""
        if not node.level:
            return node.module or ""
        base = m.name.split(".") if m.is_package else m.name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
        return ".".join(base + ([node.module] if node.module else []))

    def find(self, dotted: str, name: str, depth: int = 0) -> tuple[Optional[tuple[Module, str]], str]:
        """Where ``name`` of module ``dotted`` is bound: (module, name), or None and why not."""
        m = self.modules.get(dotted)
        if m is None or depth > 8:
            return None, "local_import_unresolved"
        submodule = f"{dotted}.{name}" in self.modules
        if name in m.defs and not (submodule and all(d.kind == "import" for d in m.defs[name])):
            return (m, name), ""
        if submodule:
            return None, "module_object_import"
        for star in m.stars:
            found, _ = self.find(star, name, depth + 1)
            if found is not None:
                return found, ""
        return None, "local_import_unresolved"

    def module_object(self, m: Module, name: str) -> Optional[str]:
        """The package module that ``name`` of ``m`` is bound to (``from . import sub``,
        ``import pkg.sub as sub``), or None."""
        for d in m.defs.get(name, []):
            if isinstance(d.node, ast.ImportFrom):
                base = self.absolute(m, d.node)
                alias = next((a for a in d.node.names if (a.asname or a.name) == name), None)
                if alias is not None and f"{base}.{alias.name}".strip(".") in self.modules:
                    return f"{base}.{alias.name}".strip(".")
            elif isinstance(d.node, ast.Import):
                alias = next((a for a in d.node.names if (a.asname or a.name).split(".")[0] == name), None)
                if alias is not None and self.is_local(alias.name):
                    dotted = alias.name if alias.asname else alias.name.split(".")[0]
                    return dotted if dotted in self.modules else None
        return None

    def definition(self, m: Module, name: str, depth: int = 0) -> Optional[tuple[Module, str]]:
        """The def or class that ``name`` of module ``m`` finally is (following imports of the
        package and star imports), or None (a constant, a standard-library name, unresolved)."""
        if depth > 8:
            return None
        if name not in m.defs:
            for star in m.stars:
                found, _ = self.find(star, name)
                if found is not None:
                    return self.definition(found[0], found[1], depth + 1)
            return None
        chosen = self.bindings(m, m.defs[name])
        if len(chosen) == 1 and chosen[0].kind == "def":
            return m, name
        alias = chosen[0].node if len(chosen) == 1 else None
        if isinstance(alias, ast.Assign) and isinstance(alias.value, ast.Name) and len(alias.targets) == 1 \
                and isinstance(alias.targets[0], ast.Name) and alias.value.id != name:
            return self.definition(m, alias.value.id, depth + 1)  # ``batched = _batched``
        if len(chosen) == 1 and isinstance(chosen[0].node, ast.ImportFrom):
            node = chosen[0].node
            dotted = self.absolute(m, node)
            if not (node.level or self.is_local(dotted)):
                return None
            original = next((a.name for a in node.names if (a.asname or a.name) == name), name)
            found, _ = self.find(dotted, original)
            return self.definition(found[0], found[1], depth + 1) if found else None
        return None

    def shim(self, m: Module, defs: list[Def]) -> Optional[ast.Try]:
        """The module-level ``try`` that binds a name in all its statements, when it can be kept
        whole: it imports only allowed standard-library modules (``try: from math import sumprod
        except ImportError: def sumprod(…)``), so it runs on every Python version as written."""
        tries = {id(self.tries.get(id(d.node))): self.tries.get(id(d.node)) for d in defs}
        if len(tries) != 1 or None in tries.values():
            return None
        node = next(iter(tries.values()))
        assert node is not None
        for n in ast.walk(node):
            if isinstance(n, ast.ImportFrom) and (n.level or self.is_local(n.module) or not self.allow_import(f"from {n.module} import x")):
                return None
            if isinstance(n, ast.Import) and not all(self.allow_import(f"import {a.name}") and not self.is_local(a.name) for a in n.names):
                return None
        return node

    def bindings(self, m: Module, defs: list[Def]) -> list[Def]:
        """The statements that bind a name on Python 3 (the first of ``alternatives``)."""
        return self.alternatives(m, defs)[0]

    def alternatives(self, m: Module, defs: list[Def]) -> list[list[Def]]:
        """The ways a name can be bound, best first: a pure-Python fallback of a shim, else the
        module's own def, else the primary statements when their imports resolve and then the
        fallback ones (``try: from .typeutils import make_sentinel; _MISSING = make_sentinel()
        except ImportError: _MISSING = object()`` falls back when make_sentinel cannot be used)."""
        fallback_defs = [d for d in defs if d.fallback and d.kind == "def"]
        if fallback_defs:
            return [[fallback_defs[-1]]]
        own = [d for d in defs if not d.fallback and d.kind == "def"]
        if own:
            return [[own[0]]]
        primary = [d for d in defs if not d.fallback]
        fallback = [d for d in defs if d.fallback]
        if primary and all(self._usable(m, d) for d in primary):
            return [primary, fallback] if fallback else [primary]
        return [fallback or primary]

    def _usable(self, m: Module, d: Def) -> bool:
        if isinstance(d.node, ast.ImportFrom):
            dotted = self.absolute(m, d.node)
            if d.node.level or self.is_local(dotted):
                return all(self.find(dotted, a.name)[0] is not None for a in d.node.names if (a.asname or a.name) == d.name)
            return self.allow_import(import_text(d.node, d.name))
        if isinstance(d.node, ast.Import):
            return self.allow_import(import_text(d.node, d.name))
        return not any(isinstance(n, ast.Name) and n.id in PY2_NAMES for n in ast.walk(d.node))

    def piece(self, m: Module, d: Def) -> Piece | str:
        """The text of a def or assignment of ``m`` as a program holds it, and what it needs
        (cached: many programs share a helper); or why it cannot be used."""
        key = id(d.node)
        if key not in self._pieces:
            self._pieces[key] = self._make_piece(m, d)
        return self._pieces[key]

    def _make_piece(self, m: Module, d: Def) -> Piece | str:
        is_def = d.kind == "def"
        omit = self._omitted_methods(m, d.node) if isinstance(d.node, ast.ClassDef) else ()
        if omit and len(omit) == sum(isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) for s in d.node.body):  # type: ignore[attr-defined]
            return "import"  # nothing of the class would be left
        kept = copy.copy(d.node)
        if omit:
            kept.body = [s for s in d.node.body if s not in omit]  # type: ignore[attr-defined]
        attributes = self._module_attributes(m, kept)
        if isinstance(attributes, str):
            return attributes
        edits, targets, plain = attributes
        text = segment(_edited(m.lines, edits), d.node, drop_docstring=is_def, omit=omit)
        if is_def:
            names = free_names(kept)
        else:
            names = {n.id for n in ast.walk(d.node) if isinstance(n, ast.Name)} - _BUILTIN_NAMES
        return Piece(text, sorted(names - plain, reverse=True), targets)

    def _module_attributes(self, m: Module, node: ast.AST) -> tuple[list[tuple[int, int, int, str]], list[tuple[Module, str]], set[str]] | str:
        """``queue.Queue`` where ``queue`` is a module of the package (``from pygorithm.data_structures
        import queue``, ``from . import _signatures as _sigs``): the text edits that make it
        ``Queue``, the definitions the program then needs, and the module names no longer used;
        or why such an attribute cannot be resolved."""
        uses = collections.Counter(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        edits: list[tuple[int, int, int, str]] = []
        targets: list[tuple[Module, str]] = []
        rewritten: collections.Counter = collections.Counter()
        for n in ast.walk(node):
            if not (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.lineno == n.end_lineno):
                continue
            target = self.module_object(m, n.value.id)
            if target is None:
                continue
            found, why = self.find(target, n.attr)
            if found is None:
                return why
            targets.append(found)
            edits.append((n.lineno, n.col_offset, n.end_col_offset or n.col_offset, found[1]))
            rewritten[n.value.id] += 1
        return edits, targets, {name for name, k in rewritten.items() if k == uses[name]}

    def _omitted_methods(self, m: Module, cls: ast.ClassDef) -> tuple[ast.stmt, ...]:
        """Methods of a class that need a refused module or name (``get_code`` returning
        ``inspect.getsource(…)``, a ``save`` that opens a file): left out, so that the rest of
        the class can be traced; a call of one ends in AttributeError, which the dataset drops."""
        def refused(name: str) -> bool:
            if name in FORBIDDEN_NAMES:
                return True
            defs = m.defs.get(name, [])
            return bool(defs) and all(isinstance(d.node, (ast.Import, ast.ImportFrom)) and not self.is_local(
                self.absolute(m, d.node) if isinstance(d.node, ast.ImportFrom) else d.name)
                and not self.allow_import(import_text(d.node, d.name)) for d in defs)

        return tuple(f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                     and any(isinstance(n, ast.Name) and refused(n.id) for n in ast.walk(f)))

    def program(self, roots: list[tuple[str, str]], max_lines: int,
                extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Resolved], str]:
        """The program that defines ``roots`` ((path, name) pairs of defs) and ``extra`` (any
        other module-level names, e.g. an import a doctest uses) with everything they need from
        the package; or None and the reason."""
        return _Collector(self).run(roots, max_lines, extra)


# ----------------------------------------------------------------------------------------------
# Collecting a program across modules


class _Collector:
    def __init__(self, package: Package) -> None:
        self.package = package
        # path -> (line, column) -> (kind, text)
        self.pieces: dict[str, dict[tuple[int, int], tuple[str, str]]] = collections.defaultdict(dict)
        self.imports: list[str] = []
        self.needs: dict[str, list[str]] = collections.defaultdict(list)  # path -> paths defined before it
        self.bound: dict[str, str] = {}  # name -> the module (or import line) that binds it
        self.todo: list[tuple[Module, str]] = []
        self.done: set[tuple[str, str]] = set()
        self.reason = ""
        self.max_lines = 0

    def run(self, roots: list[tuple[str, str]], max_lines: int,
            extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Resolved], str]:
        homes: list[str] = []
        for path, name in roots:
            m = self.package.by_path.get(path)
            defined = self.package.definition(m, name) if m is not None else None
            if m is None or defined is None:
                return None, "not_a_def"
            homes.append(defined[0].path)
            self.todo.append((m, name))
        self.todo.extend((self.package.by_path[p], n) for p, n in extra if p in self.package.by_path)
        self.max_lines = max_lines
        while self.todo:
            m, name = self.todo.pop()
            if not self._visit(m, name):
                return None, self.reason
        source = self._render()
        if source.count("\n") > max_lines:
            return None, "too_long"
        return Resolved(homes[0], source, tuple(p for p in self._order() if self.pieces[p])), ""

    def _fail(self, reason: str) -> bool:
        self.reason = reason
        return False

    def _bind(self, name: str, source: str) -> bool:
        if self.bound.setdefault(name, source) != source:
            return self._fail("name_clash")
        return True

    def _visit(self, m: Module, name: str) -> bool:
        if (m.path, name) in self.done:
            return True
        self.done.add((m.path, name))
        if name not in m.defs:
            for star in m.stars:
                found, _ = self.package.find(star, name)
                if found is not None:
                    self._need(m, found[0])
                    self.todo.append(found)
                    return True
            return True  # a name the module gets some other way (a builtin): the run checks it
        shim = self.package.shim(m, m.defs[name])
        if shim is not None:
            return self._shim(m, shim)
        options = self.package.alternatives(m, m.defs[name])
        if len(options) == 1:
            return self._take(m, options[0], name)
        saved = self._snapshot()
        # the primary way fails, or makes the program too long (a big class for a stand-in)
        if self._take(m, options[0], name, eager=True) and self._lines() <= self.max_lines:
            return True
        self._restore(saved)
        return self._take(m, options[1], name)

    def _take(self, m: Module, defs: list[Def], name: str, eager: bool = False) -> bool:
        """Binds ``name`` by ``defs``; ``eager``: also everything they need, now, so that a
        failure shows while the other way to bind it can still be taken."""
        mark = len(self.todo)
        for d in defs:
            ok = self._import(m, d, name) if d.kind == "import" else self._piece(m, d, name)
            if not ok:
                return False
        while eager and len(self.todo) > mark:
            if not self._visit(*self.todo.pop()):
                return False
        return True

    def _lines(self) -> int:
        """The program's lines so far (as ``_render`` joins them, give or take a blank line)."""
        return len(self.imports) + sum(text.count("\n") + 3 for by_line in self.pieces.values() for _, text in by_line.values())

    def _snapshot(self) -> tuple:
        return ({p: dict(v) for p, v in self.pieces.items()}, list(self.imports), {p: list(v) for p, v in self.needs.items()},
                dict(self.bound), list(self.todo), set(self.done))

    def _restore(self, saved: tuple) -> None:
        pieces, imports, needs, self.bound, self.todo, self.done = saved
        self.pieces = collections.defaultdict(dict, pieces)
        self.needs = collections.defaultdict(list, needs)
        self.imports = imports
        self.reason = ""

    def _need(self, m: Module, other: Module) -> None:
        if other.path != m.path and other.path not in self.needs[m.path]:
            self.needs[m.path].append(other.path)

    def _piece(self, m: Module, d: Def, name: str) -> bool:
        if not self._bind(name, m.path):
            return False
        made = self.package.piece(m, d)
        if isinstance(made, str):
            return self._fail(made)
        for found in made.targets:
            self._need(m, found[0])
            self.todo.append(found)
        self.pieces[m.path].setdefault((d.node.lineno, d.node.col_offset), (d.kind, made.text))
        self.todo.extend((m, n) for n in made.names if (m.path, n) not in self.done)
        return True

    def _shim(self, m: Module, node: ast.Try) -> bool:
        """A version shim kept whole: every name it binds is bound by it."""
        key = (node.lineno, node.col_offset)
        if key in self.pieces[m.path]:
            return True
        for bound, defs in m.defs.items():
            if any(self.package.tries.get(id(d.node)) is node for d in defs) and not self._bind(bound, m.path):
                return False
        self.pieces[m.path][key] = ("def", segment(m.lines, node, drop_docstring=False))
        self.todo.extend((m, n) for n in sorted(free_names(node), reverse=True) if (m.path, n) not in self.done)
        return True

    def _import(self, m: Module, d: Def, name: str) -> bool:
        node = d.node
        if isinstance(node, ast.ImportFrom):
            dotted = self.package.absolute(m, node)
            if node.level or self.package.is_local(dotted):
                alias = next(a for a in node.names if (a.asname or a.name) == name)
                found, why = self.package.find(dotted, alias.name)
                if found is None:
                    return self._fail(why)
                self._need(m, found[0])
                self.todo.append(found)
                if found[1] != name:  # ``from .x import a as b``: b is a's other name
                    if not self._bind(name, m.path):
                        return False
                    self.pieces[m.path].setdefault((alias.lineno, alias.col_offset), ("assign", f"{name} = {found[1]}"))
                return True
        elif isinstance(node, ast.Import) and any(self.package.is_local(a.name) for a in node.names):
            return self._fail("module_object_import")
        text = import_text(node, name)
        if not self.package.allow_import(text):
            return self._fail("import")
        if text not in self.imports:
            self.imports.append(text)
        return self._bind(name, text)

    def _order(self) -> list[str]:
        """Module paths, each after the modules it needs (a cycle is cut where it closes)."""
        order: list[str] = []
        seen: set[str] = set()

        def visit(path: str) -> None:
            if path in seen:
                return
            seen.add(path)
            for other in self.needs.get(path, []):
                visit(other)
            order.append(path)

        for path in list(self.pieces) + list(self.needs):
            visit(path)
        return order

    def _render(self) -> str:
        parts: list[str] = []
        # kept where a module has it: an annotation naming a class defined later must stay unevaluated
        future = any(self.package.by_path[p].future for p in self.pieces if self.pieces[p])
        imports = sorted(self.imports) if not future else ["from __future__ import annotations", *sorted(self.imports)]
        if imports:
            parts.append("\n".join(imports))
        for path in self._order():
            group: list[str] = []  # consecutive assignments stay together, as in extract.py
            for _, (kind, text) in sorted(self.pieces[path].items()):
                if kind != "def":
                    group.append(text)
                    continue
                if group:
                    parts.append("\n".join(group))
                    group = []
                parts.append(text)
            if group:
                parts.append("\n".join(group))
        return "\n\n\n".join(parts) + "\n"


def _edited(lines: list[str], edits: list[tuple[int, int, int, str]]) -> list[str]:
    """``lines`` with the spans (line, start, end) replaced; offsets count UTF-8 bytes, as ``ast``'s."""
    if not edits:
        return lines
    out = list(lines)
    for line, start, end, text in sorted(edits, reverse=True):
        raw = out[line - 1].encode("utf-8")
        out[line - 1] = (raw[:start] + text.encode("utf-8") + raw[end:]).decode("utf-8", "replace")
    return out
