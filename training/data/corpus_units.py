"""Units of the corpus and where their programs come from (``training/data/corpus.py``).

A *unit* is a program cut out of a file (a function or class and what it needs) with calls to run
it. A *resolver* turns the names a call uses into that program: ``FileResolver`` takes everything
from the same file (the three algorithm collections), ``PackageResolver`` also inlines what the
file imports from its own package (the libraries, ``corpus_imports.py``).

This module also finds calls in doctests (``>>> f(…)``) and makes calls from parameter types."""

from __future__ import annotations

import ast
import collections
import doctest
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Protocol

from .corpus_checks import call_ok, called_root, import_allowed
from .corpus_imports import Package, Resolved
from .extract import free_names, module_defs, pick, program_source
from .programs import is_held_out, program_hash
from .values import rand_int, rand_str, rand_word

MAX_LINES = 120
# Library units carry the definitions they import from other modules of their package (a
# sentinel, a helper of another file): a larger cap, still well inside a 2,048-token trajectory
# for most of them (about 10 tokens a line).
MAX_LINES_LIBRARY = 150
MAX_SCRIPT_STATEMENTS = 12


@dataclass
class Unit:
    collection: str
    path: str
    name: str
    source: str
    calls: list[str] = field(default_factory=list)  # entry calls; "" = the source is a script
    origin: str = "doctest"  # doctest | tests | typed | script | test_script | snippet
    files: tuple[str, ...] = ()  # other files whose code or calls it holds (inlined imports, a test)

    @property
    def split_id(self) -> str:
        """The hash that decides the held-out split: one per file, so a file is held out whole; a
        unit that draws on a held-out file (an inlined dependency, the test its script comes
        from) is held out with it, so that no held-out code is trained on."""
        ids = [program_hash(f"corpus:{self.collection}/{p}") for p in dict.fromkeys((self.path, *self.files))]
        return next((i for i in ids if is_held_out(i)), ids[0])


# ----------------------------------------------------------------------------------------------
# Resolvers


class Resolver(Protocol):
    max_lines: int

    def callables(self, path: str) -> set[str]:
        """Names of the file at ``path`` that a call may test: functions and classes."""

    def program(self, roots: list[tuple[str, str]], extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Resolved], str]:
        """The program defining ``roots`` ((path, name) pairs) and, where the resolver can,
        the other module-level names in ``extra``; or None and the reason."""

    def module_names(self, path: str) -> set[str]:
        """Module-level names of the file at ``path`` that ``program`` can take as ``extra``."""

    def locate(self, test_path: str, module: str, name: str) -> Optional[tuple[str, str]]:
        """The (path, name) of the def that a test file imports as ``from module import name``."""


class FileResolver:
    """Programs from one file: what a unit needs must be in its own file."""

    def __init__(self, collection: str, texts: dict[str, str], trees: dict[str, ast.Module]) -> None:
        self.collection, self.texts, self.trees = collection, texts, trees
        self.max_lines = MAX_LINES
        self.index: dict[str, list[str]] = collections.defaultdict(list)  # name -> files defining it
        for path, tree in trees.items():
            if not is_test_file(path):
                for node in tree.body:
                    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                        self.index[node.name].append(path)

    def callables(self, path: str) -> set[str]:
        return {name for name, ds in module_defs(self.trees[path]).items() if pick(ds).kind == "def"}

    def module_names(self, path: str) -> set[str]:
        return set(module_defs(self.trees[path]))

    def program(self, roots: list[tuple[str, str]], extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Resolved], str]:
        path = roots[0][0]
        names = [n for _, n in roots]
        more = tuple(n for p, n in extra if p == path)
        if any(p != path for p, _ in roots) or path not in self.texts:
            return None, "test_call_unresolved"
        source = program_source(self.texts[path], names, MAX_LINES, import_allowed, more)
        if source is None:
            found = program_source(self.texts[path], names, MAX_LINES, extra=more) is not None
            return None, "import" if found else "too_long_or_not_a_def"
        return Resolved(path, source, ()), ""

    def locate(self, test_path: str, module: str, name: str) -> Optional[tuple[str, str]]:
        if self.collection == "exercism-python":
            example = str(Path(test_path).parent / ".meta" / "example.py")
            return (example, name) if example in self.trees else None
        prefix = module.replace(".", "/")
        candidates = [p for p in self.index.get(name, []) if p.startswith(prefix + "/") or p == prefix + ".py"]
        candidates = candidates or self.index.get(name, [])
        return (candidates[0], name) if candidates and candidates[0] in self.trees else None


class PackageResolver:
    """Programs from a package: imports of the package's own modules are inlined."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self.max_lines = MAX_LINES_LIBRARY
        self._callables: dict[str, set[str]] = {}

    def callables(self, path: str) -> set[str]:
        if path not in self._callables:
            m = self.package.by_path[path]
            self._callables[path] = {n for n in m.defs if self.package.definition(m, n) is not None}
        return self._callables[path]

    def module_names(self, path: str) -> set[str]:
        return set(self.package.by_path[path].defs)

    def program(self, roots: list[tuple[str, str]], extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Resolved], str]:
        return self.package.program(roots, MAX_LINES_LIBRARY, extra)

    def locate(self, test_path: str, module: str, name: str) -> Optional[tuple[str, str]]:
        found, _ = self.package.find(module, name)
        defined = self.package.definition(*found) if found else None
        if defined is None or defined[1] != name:
            return None  # an alias (``take as tk``) would need the call renamed
        return defined[0].path, name


def is_test_file(path: str) -> bool:
    base = Path(path).name
    return base.startswith("test_") or base.endswith("_test.py")


# ----------------------------------------------------------------------------------------------
# Calls from doctests


def _examples(docstring: Optional[str]) -> list[doctest.Example]:
    if not docstring or ">>>" not in docstring:
        return []
    try:
        return doctest.DocTestParser().get_examples(docstring)
    except ValueError:
        return []


def _docstrings(node: ast.AST) -> list[str]:
    """The docstrings of a def or class and of every def inside it."""
    out = []
    for n in ast.walk(node):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            doc = ast.get_docstring(n, clean=True)
            if doc:
                out.append(doc)
    return out


def doctest_units(collection: str, path: str, tree: ast.Module, resolver: Resolver,
                  skips: collections.Counter, failed: set[tuple[str, str]]) -> list[Unit]:
    """Units of a file's doctests; the roots whose program failed go to ``failed`` (counted in
    ``skips`` here, so that typed inputs do not count them again)."""
    top = resolver.callables(path)
    units: list[Unit] = []
    docs: list[tuple[Optional[str], str]] = []  # (the def it belongs to, or None for the module's)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            docs.extend((node.name, d) for d in _docstrings(node))
    module_doc = ast.get_docstring(tree, clean=True)
    if module_doc:
        docs.append((None, module_doc))
    calls_by_root: dict[str, list[str]] = collections.defaultdict(list)
    for owner, doc in docs:
        statements = _doctest_statements(_examples(doc), top, calls_by_root)
        direct = [s for s in statements if isinstance(s, ast.Expr) and call_ok(s.value, top)]
        if statements and len(direct) == len(statements):
            for s in direct:
                root = called_root(s.value, top)
                if root:
                    calls_by_root[root].append(ast.unparse(s.value))
        elif statements:
            used = used_names(statements, top, owner)
            # names of the module the examples use besides its defs (doctests run in its globals)
            loaded = {n.id for s in statements for n in ast.walk(s) if isinstance(n, ast.Name)}
            extra = tuple((path, n) for n in sorted(loaded & resolver.module_names(path) - top))
            unit, why = script_unit(collection, [(path, n) for n in used], statements, resolver, extra=extra)
            if unit is None:
                skips[f"script:{why}"] += 1
            else:
                units.append(unit)
    for root, calls in calls_by_root.items():
        resolved, why = resolver.program([(path, n) for n in root.split("+")])
        if resolved is None:
            skips[why] += 1
            failed.add((path, root))
            continue
        units.append(Unit(collection, resolved.path, root, resolved.source, list(dict.fromkeys(calls)), "doctest",
                          resolved.files))
    return units


def _doctest_statements(examples: list[doctest.Example], top: set[str],
                        calls_by_root: dict[str, list[str]]) -> list[ast.stmt]:
    """The statements of a docstring's examples up to the first that raises; a single call that
    raises is kept as an entry call."""
    statements: list[ast.stmt] = []
    for ex in examples:
        try:
            parsed = ast.parse(ex.source)
        except SyntaxError:
            break
        if ex.options.get(doctest.SKIP):
            continue  # an example its authors do not run (prose in doctest form, a slow one)
        if ex.want.lstrip().startswith("Traceback") or ex.exc_msg:
            if len(parsed.body) == 1 and isinstance(parsed.body[0], ast.Expr) and call_ok(parsed.body[0].value, top):
                root = called_root(parsed.body[0].value, top)
                if root:
                    calls_by_root[root].append(ast.unparse(parsed.body[0].value))
            break
        statements.extend(parsed.body)
    return statements


def used_names(statements: list[ast.stmt], top: set[str], owner: Optional[str] = None) -> list[str]:
    """The names of ``top`` that statements use (and the def whose docstring they are in)."""
    used = sorted({n.id for s in statements for n in ast.walk(s) if isinstance(n, ast.Name)} & top)
    if owner is not None and owner not in used:
        used.append(owner)
    return used


def script_unit(collection: str, roots: list[tuple[str, str]], statements: list[ast.stmt], resolver: Resolver,
                origin: str = "script", head: tuple[str, ...] = (), files: tuple[str, ...] = (),
                print_values: bool = True, extra: tuple[tuple[str, str], ...] = ()) -> tuple[Optional[Unit], str]:
    """A module-level program: the definitions of ``roots``, then the lines of ``head`` (imports
    the statements need), then the statements. With ``print_values`` expressions whose value a
    doctest would show are printed, so the run shows them as output."""
    if not roots:
        return None, "no_defs"
    resolved, why = resolver.program(roots, extra)
    if resolved is None:
        return None, why
    lines = list(head)
    for s in statements[:MAX_SCRIPT_STATEMENTS]:
        if print_values and isinstance(s, ast.Expr) and not (isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "print"):
            lines.append(f"print({ast.unparse(s.value)})")
        else:
            lines.append(ast.unparse(s))
    script = resolved.source.rstrip("\n") + "\n\n\n" + "\n".join(lines) + "\n"
    if script.count("\n") > resolver.max_lines + MAX_SCRIPT_STATEMENTS + len(head):
        return None, "too_long"
    if free_names(ast.parse(script)):
        return None, "undefined_name"  # a name the examples take from elsewhere: the run would fail
    all_files = tuple(dict.fromkeys((*resolved.files, *files)))
    return Unit(collection, resolved.path, "+".join(n for _, n in roots), script, [""], origin, all_files), ""


# ----------------------------------------------------------------------------------------------
# Typed inputs

_LIST_INT = ("nums", "numbers", "arr", "array", "lst", "values", "data", "xs", "items", "sequence", "collection", "heights", "prices",
             "_list")
_STR = ("s", "text", "string", "word", "sentence", "phrase", "message", "msg", "input_str", "input_string", "strand", "dna", "name")
_INT = ("n", "k", "num", "number", "x", "m", "target", "limit", "base", "index", "position", "length", "size", "count", "year")


def _param_kind(arg: ast.arg) -> Optional[str]:
    ann = ast.unparse(arg.annotation) if arg.annotation is not None else ""
    kinds = {"int": "int", "float": "float", "str": "str", "bool": "bool", "list[int]": "list_int",
             "list[float]": "list_float", "list[str]": "list_str", "list": "list_int", "list[list[int]]": "matrix"}
    if ann in kinds:
        return kinds[ann]
    if ann:
        return None
    name = arg.arg.lower()
    if name in _LIST_INT:
        return "list_int"
    if name in _STR:
        return "str"
    if name in _INT:
        return "int"
    if name in ("words", "names", "strings"):
        return "list_str"
    return None


def _typed_value(rng: random.Random, kind: str) -> Any:
    if kind == "int":
        return rand_int(rng, 0, 30)
    if kind == "float":
        return round(rng.uniform(-10, 50), rng.choice([0, 1, 2]))
    if kind == "str":
        return rand_str(rng) if rng.random() < 0.6 else " ".join(rand_word(rng) for _ in range(rng.randint(1, 4)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "list_int":
        return [rand_int(rng, -9, 40) for _ in range(rng.randint(0, 8))]
    if kind == "list_float":
        return [round(rng.uniform(-5, 20), 1) for _ in range(rng.randint(1, 6))]
    if kind == "list_str":
        return [rand_word(rng) for _ in range(rng.randint(0, 6))]
    if kind == "matrix":
        w = rng.randint(1, 4)
        return [[rand_int(rng, 0, 9) for _ in range(w)] for _ in range(rng.randint(1, 4))]
    raise ValueError(kind)


def typed_calls(node: ast.FunctionDef, rng: random.Random, n: int = 4) -> list[str]:
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return []
    required = args.args[: len(args.args) - len(args.defaults)]
    if not required or (required[0].arg in ("self", "cls")):
        return []
    kinds = [_param_kind(a) for a in required]
    if any(k is None for k in kinds):
        return []
    return [f"{node.name}({', '.join(repr(_typed_value(rng, k)) for k in kinds if k)})" for _ in range(n)]
