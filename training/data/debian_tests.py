"""Candidates from CPython's own test suite (Debian's ``libpython3.11-testsuite``,
``/usr/lib/python3.11/test``): each test method that needs nothing of its test case becomes a
standalone function, ``def test_abs(): ...``, called as ``test_abs()``.

The body is the method's, rewritten where it talks to unittest:

- an assert becomes an assignment of the value it checks, ``self.assertEqual(abs(-3), 3)`` →
  ``result = abs(-3)``: the run shows the value, the expected one is not written down (it is what
  the model has to work out); comparisons keep their test (``assertIn(x, y)`` → ``result = x in y``);
- ``self.assertRaises(E, f, *args)`` and ``with self.assertRaises(E):`` become ``try: … except E: pass``;
- ``with self.subTest(…):`` becomes its body; ``string_tests``' ``self.checkequal(expected, obj,
  'method', *args)`` becomes ``result = obj.method(*args)``;
- an assert that needs anything else of ``self`` (or a name the program cannot define) is left
  out; any other statement that does ends the function there (what follows may depend on it).

Names the body takes from its module are brought along when they are allowed imports, constants
or helpers of that file (``extract.program_source``); test files import ``unittest`` and ``test.support``,
which are never allowed, so a test class itself never comes along.
"""

from __future__ import annotations

import ast
import collections
import copy
import importlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional, Union

from .corpus_checks import BUILTINS, is_literal
from .debian_common import MODULES, Candidate, import_ok, node_refusal, parse, statement_refusal, statement_text
from .extract import Def, free_names, import_text, module_defs, segment

TEST_DIR = Path(os.environ.get("NDB_DEBIAN_TESTS", "/usr/lib/python3.11/test"))
MAX_STATEMENTS = 30
MAX_LINES = 80  # the function's own lines
MAX_PREFIX_LINES = 60

# The checked value is the computed side of an equality (``assertEqual(0, abs(0))`` too).
EQUALITY = frozenset("""assertEqual assertEquals failUnlessEqual assertNotEqual assertAlmostEqual assertAlmostEquals
assertNotAlmostEqual assertIs assertIsNot assertCountEqual assertListEqual assertTupleEqual assertDictEqual
assertSetEqual assertSequenceEqual assertMultiLineEqual""".split())
COMPARISONS: dict[str, type[ast.cmpop]] = {"assertGreater": ast.Gt, "assertGreaterEqual": ast.GtE, "assertLess": ast.Lt,
                                           "assertLessEqual": ast.LtE, "assertIn": ast.In, "assertNotIn": ast.NotIn}
ONE_VALUE = frozenset("assertTrue assertFalse assert_ failUnless failIf assertIsNone assertIsNotNone".split())
INSTANCE = frozenset({"assertIsInstance", "assertNotIsInstance"})
RAISES = frozenset({"assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "failUnlessRaises"})
# unittest calls that check nothing a run shows (warnings, logs) or only report: left out
IGNORED = frozenset("""assertWarns assertWarnsRegex assertLogs assertNoLogs fail skipTest addCleanup
assertRegex assertNotRegex assertRegexpMatches""".split())
RESULT_NAMES = ("result", "got", "value", "out")
# a test case's own helpers named so only check (``self.check_wrap(…)``): left out like an assert
# they cannot be rewritten into; any other call of ``self`` ends the function
CHECKING_PREFIXES = ("assert", "check", "fail", "verify", "_check", "_assert")
_GLOBAL = re.compile(r"^[ \t]+global[ \t]+([\w, \t]+)$", re.M)
# decorators of tests that are slow, large or need threads: never candidates
HEAVY_MARKS = ("bigmem", "requires_resource", "thread", "fork", "subprocess", "impl_detail", "no_tracing")


class Stop(Exception):
    """A statement the function cannot keep and cannot go on without."""


def test_files(root: Path = TEST_DIR, only: Optional[set[str]] = None) -> dict[str, str]:
    """``{relative path: text}`` of the test modules (``test_*.py`` and the shared ``*_tests.py``),
    or of those named in ``only``."""
    out: dict[str, str] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*.py")):
        if only is not None and str(path.relative_to(root)) not in only:
            continue
        if path.name.startswith("test_") or path.name.endswith("_tests.py"):
            out[str(path.relative_to(root))] = path.read_text(encoding="utf-8", errors="replace")
    return out


# ----------------------------------------------------------------------------------------------
# Rewriting a test method


def _self_call(node: ast.AST) -> Optional[ast.Call]:
    """``self.name(…)`` as a call node, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id == "self":
        return node
    return None


def _computed(node: ast.expr) -> bool:
    """More than a name or a literal: a value the run has to compute."""
    return not (isinstance(node, ast.Name) or is_literal(node))


def _checked_value(name: str, args: list[ast.expr]) -> Optional[ast.expr]:
    if name in EQUALITY and len(args) >= 2:
        a, b = args[0], args[1]
        return b if not _computed(a) and _computed(b) else a
    if name in COMPARISONS and len(args) >= 2:
        return ast.Compare(args[0], [COMPARISONS[name]()], [args[1]])
    if name in INSTANCE and len(args) >= 2:
        return ast.Call(ast.Name("isinstance", ast.Load()), [args[0], args[1]], [])
    if name in ONE_VALUE and args:
        return args[0]
    return None


def _handler(exc: ast.expr) -> ast.ExceptHandler:
    return ast.ExceptHandler(type=exc, name=None, body=[ast.Pass()])


class MethodRewriter:
    """One test method's body as a standalone function's (see the module's docstring)."""

    def __init__(self, result: str, lend: Callable[[str], bool] = lambda name: False) -> None:
        self.known = set(BUILTINS)  # builtins and the locals bound so far
        self.lend = lend  # whether the module can lend a name (an import, a constant, a helper)
        self.result = result
        self.values = 0
        self.dropped: collections.Counter = collections.Counter()

    def _defined(self, node: ast.AST) -> bool:
        return all(n in self.known or self.lend(n) for n in free_names(node))

    def _ok(self, node: ast.AST) -> bool:
        return self._defined(node) and node_refusal(node) is None

    def _assert(self, call: ast.Call) -> list[ast.stmt]:
        """The statements an assertion call becomes ([] when it is left out)."""
        assert isinstance(call.func, ast.Attribute)
        name = call.func.attr
        if name in RAISES:
            if len(call.args) < 2:
                return []  # the context-manager form outside a with, or nothing to call
            skip = 3 if name.startswith("assertRaisesRegex") else 2
            if len(call.args) < skip:
                return []
            inner = ast.Expr(ast.Call(call.args[skip - 1], call.args[skip:], call.keywords))
            made = ast.Try(body=[inner], handlers=[_handler(call.args[0])], orelse=[], finalbody=[])
            return self._keep_value(made, "raises")
        if name in ("checkequal", "checkraises", "checkcall"):
            return self._string_check(name, call)
        value = _checked_value(name, list(call.args))
        if value is None:
            if not name.startswith(CHECKING_PREFIXES) and name not in IGNORED:
                raise Stop("self_call")  # a helper of the test case may change what follows
            self.dropped["assert_other" if name not in IGNORED else "assert_ignored"] += 1
            return []
        if not _computed(value):
            self.dropped["assert_trivial"] += 1
            return []
        return self._keep_value(ast.Assign([ast.Name(self.result, ast.Store())], value), "assert")

    def _string_check(self, name: str, call: ast.Call) -> list[ast.stmt]:
        """string_tests' helpers: ``checkequal(expected, obj, 'method', *args)`` and its kin."""
        at = {"checkequal": 1, "checkraises": 1, "checkcall": 0}[name]
        args = call.args
        if len(args) < at + 2 or not (isinstance(args[at + 1], ast.Constant) and isinstance(args[at + 1].value, str)) \
                or not args[at + 1].value.isidentifier():
            self.dropped["assert_other"] += 1
            return []
        method = ast.Attribute(args[at], args[at + 1].value, ast.Load())
        invoked = ast.Call(method, list(args[at + 2:]), [k for k in call.keywords if k.arg != "expected_msg"])
        if name == "checkequal":
            return self._keep_value(ast.Assign([ast.Name(self.result, ast.Store())], invoked), "assert")
        if name == "checkraises":
            made = ast.Try(body=[ast.Expr(invoked)], handlers=[_handler(args[0])], orelse=[], finalbody=[])
            return self._keep_value(made, "raises")
        return self._keep_value(ast.Expr(invoked), "assert")

    def _keep_value(self, node: ast.stmt, kind: str) -> list[ast.stmt]:
        if not self._ok(node):
            self.dropped[f"{kind}_unresolved"] += 1
            return []
        self.values += 1
        return [node]

    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for st in body:
            made = self.statement(st)
            out.extend(made)
            for m in made:
                self.known |= _bound(m)
        return out

    def statement(self, st: ast.stmt) -> list[ast.stmt]:
        if isinstance(st, ast.Expr):
            call = _self_call(st.value)
            if call is not None:
                return self._assert(call)
            if isinstance(st.value, ast.Constant):
                return []  # a docstring or a stray string
        if isinstance(st, ast.Assert):
            test = st.test
            value = test.left if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.Is)) else test
            if not _computed(value):
                return []
            return self._keep_value(ast.Assign([ast.Name(self.result, ast.Store())], value), "assert")
        if isinstance(st, ast.With):
            return self._with(st)
        if isinstance(st, (ast.For, ast.While, ast.If, ast.Try)):
            return self._compound(st)
        if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)) for n in ast.walk(st)) \
                or isinstance(st, (ast.AsyncFunctionDef, ast.AsyncFor, ast.AsyncWith)):
            raise Stop("generator_or_async")
        if not self._ok(st):
            raise Stop("unresolved")
        return [st]

    def _with(self, st: ast.With) -> list[ast.stmt]:
        if len(st.items) != 1:
            raise Stop("with")
        item = st.items[0]
        call = _self_call(item.context_expr)
        if call is None:
            if not self._ok(st):
                raise Stop("with")
            return [st]
        assert isinstance(call.func, ast.Attribute)
        if call.func.attr == "subTest":
            return self.block(st.body)
        if call.func.attr in RAISES and call.args:
            saved = set(self.known)
            try:
                inner = self.block(st.body)
            except Stop:
                self.known = saved
                self.dropped["raises_unresolved"] += 1
                return []  # a raising block binds nothing the rest may rely on: leave it out whole
            made = ast.Try(body=inner or [ast.Pass()], handlers=[_handler(call.args[0])], orelse=[], finalbody=[])
            if not inner or not self._ok(made):
                self.known = saved
                self.dropped["raises_unresolved"] += 1
                return []
            self.values += 1
            return [made]
        raise Stop("with_self")

    def _compound(self, st: Union[ast.For, ast.While, ast.If, ast.Try]) -> list[ast.stmt]:
        """A loop, branch or try with its blocks rewritten; left out when nothing is left in it."""
        if isinstance(st, (ast.For, ast.While, ast.If)):
            head = st.iter if isinstance(st, ast.For) else st.test
            targets = _bound(ast.Assign([st.target], ast.Constant(None))) if isinstance(st, ast.For) else set()
            if not self._defined(head):
                raise Stop("unresolved")
            self.known |= targets
            body = self.block(st.body)
            orelse = self.block(st.orelse)
            if not body and not orelse:
                return []
            made: ast.stmt
            if isinstance(st, ast.For):
                made = ast.For(st.target, st.iter, body or [ast.Pass()], orelse, None)
            elif isinstance(st, ast.While):
                made = ast.While(st.test, body or [ast.Pass()], orelse)
            else:
                made = ast.If(st.test, body or [ast.Pass()], orelse)
        else:
            body = self.block(st.body)
            handlers = []
            for h in st.handlers:
                if h.type is not None and not self._defined(h.type):
                    raise Stop("unresolved")
                if h.name:
                    self.known.add(h.name)
                handlers.append(ast.ExceptHandler(h.type, h.name, self.block(h.body) or [ast.Pass()]))
            orelse = self.block(st.orelse)
            final = self.block(st.finalbody)
            if not body:
                return []
            if not handlers and not final:
                return body + orelse  # a try/finally whose finally was all asserts: what is left runs as it is
            made = ast.Try(body, handlers, orelse, final)
        return [made]


def _bound(node: ast.AST) -> set[str]:
    names: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Store):
                names.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
    return names


# ----------------------------------------------------------------------------------------------
# A test module


class ModuleNames:
    """What a test module can lend a function: its allowed imports, constants and helpers. A name
    is lent with everything it needs from the module; it cannot be lent when any of that is a
    refused import or is bound more than once (``ET = None`` set again by a setup function: which
    value a test sees is not knowable here). Parsed once per module; each name checked once."""

    def __init__(self, text: str, tree: ast.Module) -> None:
        self.lines = text.split("\n")
        self.defs = module_defs(tree)
        self._star_imports(tree)
        # names a function rebinds with ``global`` (a text search: walking every module's tree
        # costs more than all the rest of the extraction)
        self.globals = {n.strip() for names in _GLOBAL.findall(text) for n in names.split(",")}
        self._needs: dict[str, Optional[frozenset[str]]] = {}
        self._pieces: dict[str, tuple[int, str, str]] = {}

    def _star_imports(self, tree: ast.Module) -> None:
        """``from dataclasses import *`` lends each public name of an allowed module as its own
        import line (the names this Python's module has)."""
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and not node.level and node.module and node.names[0].name == "*" \
                    and node.module.split(".")[0] in MODULES:
                try:
                    module = importlib.import_module(node.module)
                except ImportError:
                    continue
                public = getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")])
                for name in public:
                    single = ast.ImportFrom(node.module, [ast.alias(name)], 0, lineno=node.lineno)
                    self.defs.setdefault(name, []).append(Def(name, single, "import", False))

    def _piece(self, name: str) -> Optional[set[str]]:
        """Records the text that binds ``name`` and returns the module names it uses (None when
        it cannot be lent)."""
        ds = self.defs.get(name)
        if not ds or name in self.globals or len(ds) != 1:
            return None
        d = ds[0]
        if d.kind == "import":
            text = import_text(d.node, name)
            if not text or text.startswith("from .") or not import_ok(text):
                return None
            self._pieces[name] = (d.node.lineno, "import", text)
            return set()
        text = segment(self.lines, d.node, drop_docstring=d.kind == "def")
        if statement_refusal(text) is not None:
            return None
        uses = free_names(d.node) if d.kind == "def" else \
            {n.id for n in ast.walk(d.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        self._pieces[name] = (d.node.lineno, d.kind, text)
        return uses - BUILTINS - {name}

    def needs(self, name: str, stack: tuple[str, ...] = ()) -> Optional[frozenset[str]]:
        """The module names lent along with ``name`` (itself included), or None."""
        if name in self._needs:
            return self._needs[name]
        uses = self._piece(name)
        found: Optional[set[str]] = None if uses is None else {name}
        for used in sorted(uses or ()):
            if found is None:
                break
            if used in stack:
                continue  # mutual recursion: the cycle's other end is being checked
            more = self.needs(used, stack + (name,))
            found = None if more is None else found | more
        self._needs[name] = None if found is None else frozenset(found)
        return self._needs[name]

    def lendable(self, name: str) -> bool:
        return self.needs(name) is not None

    def prefix(self, names: list[str]) -> Optional[str]:
        """The text that defines ``names``: imports, then constants and helpers in module order."""
        lent: set[str] = set()
        for n in names:
            more = self.needs(n)
            if more is None:
                return None
            lent |= more
        pieces = sorted({self._pieces[n] for n in lent})
        imports = sorted(text for _, kind, text in pieces if kind == "import")
        rest = [text for _, kind, text in pieces if kind != "import"]
        parts = (["\n".join(imports)] if imports else []) + rest
        text = "\n\n\n".join(parts) + "\n" if parts else ""
        return None if text.count("\n") > MAX_PREFIX_LINES else text


def _test_methods(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef]]:
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and f.name.startswith("test"):
                    yield f"{node.name}.{f.name}", f
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test") and not node.args.args:
            yield node.name, node


def _plain(f: ast.FunctionDef) -> bool:
    """A method that takes only ``self`` and whose decorators only skip or mark it."""
    args = f.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or len(args.args) > 1:
        return False
    for d in f.decorator_list:
        if any(word in ast.unparse(d) for word in HEAVY_MARKS):
            return False
        root = d.func if isinstance(d, ast.Call) else d
        while isinstance(root, ast.Attribute):
            root = root.value
        if not (isinstance(root, ast.Name) and root.id in ("unittest", "support", "cpython_only", "skip", "skipIf",
                                                                "skipUnless", "requires_IEEE_754")):
            return False
    return True


def _result_name(f: ast.FunctionDef) -> str:
    used = {n.id if isinstance(n, ast.Name) else n.arg for n in ast.walk(f) if isinstance(n, (ast.Name, ast.arg))}
    return next((n for n in RESULT_NAMES if n not in used), "result_")


# Builtin types a mixin's tests may be run on (``self.type2test``, ``self.thetype``): where the
# subclasses of a mixin name several, the first of this order is taken (string_tests' literals are
# str, list_tests' are lists).
BUILTIN_TYPES = ("str", "list", "tuple", "dict", "set", "frozenset", "bytes", "bytearray", "int", "float", "complex", "bool")


def _base_key(path: str, base: ast.expr) -> Optional[tuple[str, str]]:
    """(file, class) a base class names: ``CommonTest`` in the same file, ``list_tests.CommonTest``
    in list_tests.py."""
    if isinstance(base, ast.Name):
        return path, base.id
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        return str(Path(path).parent / f"{base.value.id}.py").removeprefix("./"), base.attr
    return None


@dataclass
class ClassAttributes:
    """What a test method reads through ``self`` that the program can write in its place:
    - class-level attributes that are literals, or builtin types a subclass sets
      (``class ListTest(list_tests.CommonTest): type2test = list`` gives ``CommonTest``'s
      ``self.type2test(…)`` → ``list(…)``);
    - a ``setUp`` that only sets attributes (``self.s = set('abc')``): its assignments open the
      function as locals (``s = set('abc')``) and ``self.s`` becomes ``s``."""
    own: dict[tuple[str, str], dict[str, ast.expr]] = field(default_factory=dict)  # (file, class) -> attributes
    from_subclasses: dict[tuple[str, str], dict[str, list[str]]] = field(default_factory=dict)  # (file, class) -> attribute -> types
    setups: dict[tuple[str, str], list[ast.Assign]] = field(default_factory=dict)
    bases: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)

    def add_module(self, path: str, tree: ast.Module) -> None:
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            key = (path, node.name)
            attrs: dict[str, ast.expr] = {}
            for st in node.body:
                if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
                    value = st.value
                    if isinstance(value, ast.Name) and value.id in BUILTIN_TYPES or \
                            not isinstance(value, ast.Name) and not (isinstance(value, ast.Constant) and value.value is None) \
                            and is_literal(value):
                        attrs[st.targets[0].id] = value
                elif isinstance(st, ast.FunctionDef) and st.name == "setUp":
                    setup = _setup_assignments(st)
                    if setup is not None:
                        self.setups[key] = setup
            self.own[key] = attrs
            self.bases[key] = [b for b in (_base_key(path, base) for base in node.bases) if b is not None]
            for base in self.bases[key]:
                for attr, value in attrs.items():
                    if isinstance(value, ast.Name):
                        self.from_subclasses.setdefault(base, {}).setdefault(attr, []).append(value.id)

    def _chain(self, key: tuple[str, str]) -> list[tuple[str, str]]:
        """The class and its bases, nearest first (the order attributes are looked up in)."""
        out: list[tuple[str, str]] = []
        todo = [key]
        while todo and len(out) < 12:
            k = todo.pop(0)
            if k not in out:
                out.append(k)
                todo.extend(self.bases.get(k, []))
        return out

    def of(self, path: str, cls: str) -> tuple[dict[str, ast.expr], list[ast.Assign]]:
        """The attributes and the setUp assignments of a test class."""
        attrs: dict[str, ast.expr] = {}
        setup: Optional[list[ast.Assign]] = None
        for key in reversed(self._chain((path, cls))):  # nearer classes override
            for attr, types in self.from_subclasses.get(key, {}).items():
                attrs[attr] = ast.Name(min(types, key=BUILTIN_TYPES.index), ast.Load())
            attrs.update(self.own.get(key, {}))
        for key in self._chain((path, cls)):
            if key in self.setups:
                setup = self.setups[key]
                break
        return attrs, setup or []


def _setup_assignments(f: ast.FunctionDef) -> Optional[list[ast.Assign]]:
    """``setUp``'s assignments (``self.word = word = 'abc'``), or None when it does anything else."""
    out: list[ast.Assign] = []
    for st in f.body:
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            continue
        if not isinstance(st, ast.Assign) or not all(
                isinstance(t, ast.Name) or isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                for t in st.targets):
            return None
        out.append(st)
    return out


def _set_by(setup: list[ast.Assign]) -> set[str]:
    return {t.attr for st in setup for t in st.targets if isinstance(t, ast.Attribute)}


class SelfAttributes(ast.NodeTransformer):
    """Writes in place of ``self.x`` what a class gives (``ClassAttributes``); ``self.fixtype(x)``
    (string_tests: ``x`` as the tested type) is ``x`` itself when that type is str."""

    def __init__(self, attrs: dict[str, ast.expr], locals_: set[str]) -> None:
        self.attrs = attrs
        self.locals = locals_  # attributes set by setUp, read as locals of the same name
        kind = attrs.get("type2test")
        self.str_tests = isinstance(kind, ast.Name) and kind.id == "str"

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.value, ast.Name) and node.value.id == "self" and isinstance(node.ctx, ast.Load):
            if node.attr in self.locals:
                return ast.copy_location(ast.Name(node.attr, ast.Load()), node)
            if node.attr in self.attrs:
                return ast.copy_location(copy.deepcopy(self.attrs[node.attr]), node)
        return self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        call = _self_call(node)
        if call is not None and self.str_tests and isinstance(call.func, ast.Attribute) and call.func.attr == "fixtype" \
                and len(call.args) == 1 and not call.keywords:
            return self.visit(call.args[0])
        return self.generic_visit(node)


def with_class(f: ast.FunctionDef, attrs: dict[str, ast.expr], setup: list[ast.Assign]) -> ast.FunctionDef:
    """The method with its class's attributes written in and its setUp's assignments first
    (the setUp is left out when a name it sets is already a name in the method). The method is
    returned as it is when it reads none of them."""
    read = {n.attr for n in ast.walk(f) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}
    if not read & (set(attrs) | _set_by(setup) | {"fixtype"}):
        return f
    used = {n.id for n in ast.walk(f) if isinstance(n, ast.Name)}
    names = _set_by(setup) | {t.id for st in setup for t in st.targets if isinstance(t, ast.Name)}
    if names & used or not read & _set_by(setup):
        setup = []
    rewrite = SelfAttributes(attrs, _set_by(setup))
    opening: list[ast.stmt] = []
    for st in setup:
        targets = [ast.Name(t.attr, ast.Store()) if isinstance(t, ast.Attribute) else ast.Name(t.id, ast.Store()) for t in st.targets]
        opening.append(ast.Assign(targets, rewrite.visit(copy.deepcopy(st.value))))
    f = copy.deepcopy(f)
    body = f.body[1:] if ast.get_docstring(f) is not None else f.body
    f.body = opening + [rewrite.visit(st) for st in body]
    return f


def parse_modules(files: dict[str, str], skips: collections.Counter) -> dict[str, ast.Module]:
    trees: dict[str, ast.Module] = {}
    for path, text in files.items():
        try:
            trees[path] = parse(text)
        except SyntaxError:
            skips["file_syntax"] += 1
    return trees


def module_candidates(path: str, text: str, tree: ast.Module, attributes: ClassAttributes,
                      skips: collections.Counter) -> list[Candidate]:
    """The candidates of one test module; what is left out is counted in ``skips`` by reason."""
    module = ModuleNames(text, tree)
    out: list[Candidate] = []
    for name, f in _test_methods(tree):
        skips["methods_seen"] += 1
        if not _plain(f):
            skips["method_arguments_or_decorators"] += 1
            continue
        if "." in name:
            attrs, setup = attributes.of(path, name.split(".")[0])
            if attrs or setup:
                f = with_class(f, attrs, setup)
        c = method_candidate(path, name, f, module, skips)
        if c is not None:
            out.append(c)
    return out


def method_candidate(path: str, name: str, f: ast.FunctionDef, module: ModuleNames,
                     skips: collections.Counter) -> Optional[Candidate]:
    rewriter = MethodRewriter(_result_name(f), module.lendable)
    body = f.body[1:] if ast.get_docstring(f) is not None else f.body
    kept: list[ast.stmt] = []
    stop = ""
    for st in body:
        try:
            made = rewriter.statement(st)
        except Stop as why:
            stop = str(why)
            break
        kept.extend(made)
        for m in made:
            rewriter.known |= _bound(m)
        if len(kept) >= MAX_STATEMENTS:
            break
    skips.update({f"dropped:{k}": v for k, v in rewriter.dropped.items()})
    if stop:
        skips[f"stopped:{stop}"] += 1
    if rewriter.values == 0:
        skips["no_checked_value"] += 1
        return None
    texts = [statement_text(ast.fix_missing_locations(s)) for s in kept]
    while sum(t.count("\n") + 1 for t in texts) > MAX_LINES and texts:
        texts.pop()
    lent = sorted({n for s in kept for n in free_names(s) if n not in BUILTINS and module.lendable(n)})
    prefix = module.prefix(lent) if lent else ""
    if prefix is None:
        skips["prefix_too_long"] += 1
        return None
    entry = name.split(".")[-1]
    return Candidate("tests", path, name, texts, entry=entry, prefix=prefix, values=rewriter.values)


def candidates(root: Path = TEST_DIR, only: Optional[set[str]] = None) -> tuple[list[Candidate], collections.Counter]:
    skips: collections.Counter = collections.Counter()
    files = test_files(root, only)
    skips["files"] = len(files)
    trees = parse_modules(files, skips)
    attributes = ClassAttributes()
    for path, tree in trees.items():
        attributes.add_module(path, tree)
    out: list[Candidate] = []
    for path, tree in trees.items():
        out.extend(module_candidates(path, files[path], tree, attributes, skips))
    return out, skips
