"""Real programs for the training set: Python written by people (``../shared/corpus``), cut into
runnable programs with calls.

The corpus holds three MIT-licensed collections as archives (TheAlgorithms/Python, exercism/python,
keon/algorithms; the folder's README names their commits). Each ``.py`` file is parsed, and every
top-level function and class becomes a *unit*: its source with what it needs from its file (stdlib
imports, constants, helpers; ``training/data/extract.py``), and calls to run it with:

- **doctests** (``>>> f(…)``): an example that is one call of a top-level function becomes an entry
  call; a docstring whose examples build objects and call methods becomes a *script*, a module-level
  program (the unit, then the examples as statements) traced with an empty Call;
- **test files** (``self.assertEqual(f(…), …)``, ``with self.assertRaises(…): f(…)``): argument
  expressions of asserts that call a tested name with literal arguments; the tested name is found in
  the module the test imports (exercism: the exercise's ``.meta/example.py``);
- **typed inputs**: a function with neither gets calls from the generator's value makers when every
  parameter's annotation or name says what it takes (``nums: list[int]``, ``text``, ``n``).

``make_program`` draws a unit and one of its calls, and most of the time varies the call's literal
arguments (shorter and longer lists and strings, other numbers and words, empty and one-item edge
cases), so that the same code is seen on many inputs. Programs that touch files, the network, the
clock, random numbers, ``input()`` or modules outside the standard library are skipped (counted by
reason); the dataset builder keeps a corpus run only if it ends within the event budget.

Whole files are held out (5 %, by a hash of the collection and path, ``is_held_out``): the dataset
builder sends their runs to ``val`` and the evaluation set is drawn from them; never trained on.

    python3 -m training.data.corpus --stats            # files, units, calls, skips by reason
    python3 -m training.data.corpus --n 5 --seed 1     # programs as JSONL
"""

from __future__ import annotations

import argparse
import ast
import builtins
import collections
import doctest
import json
import os
import random
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .extract import module_defs, pick, program_source
from .generator import Program, is_held_out, program_hash
from .values import rand_int, rand_str, rand_word

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
COLLECTIONS = ("thealgorithms-python", "exercism-python", "keon-algorithms")
MAX_LINES = 120
MAX_CALL_CHARS = 300

# Standard-library modules a program may import: deterministic, no I/O. Everything else (numpy,
# requests, the collection's own packages, random, time, os …) makes a unit skipped.
ALLOWED_MODULES = frozenset("""
__future__ abc array bisect cmath collections copy dataclasses decimal enum fractions functools
heapq itertools math numbers operator re statistics string textwrap typing typing_extensions
unicodedata contextlib queue
""".split())
# Names whose use means I/O, the clock, randomness or reflection the trace cannot reproduce.
FORBIDDEN_NAMES = frozenset({"open", "input", "exec", "eval", "compile", "__import__", "globals", "breakpoint", "exit", "quit"})


class CorpusMissing(RuntimeError):
    pass


@dataclass
class Unit:
    collection: str
    path: str
    name: str
    source: str
    calls: list[str] = field(default_factory=list)  # entry calls; "" = the source is a script
    origin: str = "doctest"  # doctest | tests | typed | script

    @property
    def split_id(self) -> str:
        """The hash that decides the held-out split: one per file, so a file is held out whole."""
        return program_hash(f"corpus:{self.collection}/{self.path}")


@dataclass
class CorpusProgram(Program):
    split_id: str = ""  # held out by file, not by call


@dataclass
class Extraction:
    units: list[Unit]
    stats: dict[str, Any]
    _by_split: dict[bool, list[Unit]] = field(default_factory=dict, repr=False)

    def split(self, held_out: bool) -> list[Unit]:
        """The units of held-out files (True) or of the others (False), sorted out once."""
        if not self._by_split:
            for flag in (True, False):
                self._by_split[flag] = [u for u in self.units if is_held_out(u.split_id) == flag]
        return self._by_split[held_out]


# ----------------------------------------------------------------------------------------------
# Reading


def corpus_dir() -> Path:
    return Path(os.environ.get("NDB_CORPUS", str(DEFAULT_CORPUS)))


def read_collection(path: Path) -> dict[str, str]:
    """``{relative path: text}`` of the ``.py`` files in one archive."""
    files: dict[str, str] = {}
    with tarfile.open(path, "r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(".py"):
                handle = tar.extractfile(member)
                if handle is not None:
                    files[member.name.removeprefix("./")] = handle.read().decode("utf-8", "replace")
    return files


def _read_all(directory: Path) -> dict[str, dict[str, str]]:
    missing = [c for c in COLLECTIONS if not (directory / f"{c}.tar.gz").is_file()]
    if missing:
        raise CorpusMissing(
            f"the corpus of real code is missing: {', '.join(f'{c}.tar.gz' for c in missing)} not found in {directory} "
            "(expected ../shared/corpus beside the repository; set NDB_CORPUS to another folder)"
        )
    return {c: read_collection(directory / f"{c}.tar.gz") for c in COLLECTIONS}


# ----------------------------------------------------------------------------------------------
# Checks


def _import_allowed(text: str) -> bool:
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
        elif isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return "async"
    return None


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _call_ok(node: ast.expr, callables: set[str]) -> bool:
    """An entry call: some tested name is called, every other name is a builtin or tested, and
    its arguments are literals or calls of that kind."""
    calls = [n for n in ast.walk(node) if isinstance(n, ast.Call)]
    if not any(isinstance(c.func, ast.Name) and c.func.id in callables for c in calls):
        return False
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id not in callables and n.id not in _BUILTINS:
            return False
        if isinstance(n, (ast.Lambda, ast.NamedExpr, ast.Starred, ast.Await, ast.Yield)):
            return False
    return len(ast.unparse(node)) <= MAX_CALL_CHARS


_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_")) - FORBIDDEN_NAMES


def _unit_source(text: str, roots: list[str], skips: collections.Counter) -> Optional[str]:
    """The program for ``roots``, or None with the reason counted: an import outside the allowed
    standard library, or more than MAX_LINES lines with its helpers."""
    source = program_source(text, roots, MAX_LINES, _import_allowed)
    if source is None:
        skips["import" if program_source(text, roots, MAX_LINES) is not None else "too_long_or_not_a_def"] += 1
    return source


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


def _doctest_units(collection: str, path: str, text: str, tree: ast.Module, skips: collections.Counter) -> list[Unit]:
    defs = module_defs(tree)
    top = {name for name, ds in defs.items() if pick(ds).kind == "def"}
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
        examples = _examples(doc)
        if not examples:
            continue
        statements: list[ast.stmt] = []
        for ex in examples:
            try:
                parsed = ast.parse(ex.source)
            except SyntaxError:
                break
            if ex.want.lstrip().startswith("Traceback") or ex.exc_msg:
                # a script stops at an example that raises; a single call that raises is kept
                if len(parsed.body) == 1 and isinstance(parsed.body[0], ast.Expr) and _call_ok(parsed.body[0].value, top):
                    root = _called_root(parsed.body[0].value, top)
                    if root:
                        calls_by_root[root].append(ast.unparse(parsed.body[0].value))
                break
            statements.extend(parsed.body)
        direct = [s for s in statements if isinstance(s, ast.Expr) and _call_ok(s.value, top)]
        if statements and len(direct) == len(statements):
            for s in direct:
                root = _called_root(s.value, top)
                if root:
                    calls_by_root[root].append(ast.unparse(s.value))
        elif statements:
            unit = _script_unit(collection, path, text, statements, top, owner)
            if unit is None:
                skips["script_unresolved"] += 1
            else:
                units.append(unit)
    for root, calls in calls_by_root.items():
        source = _unit_source(text, root.split("+"), skips)
        if source is None:
            continue
        units.append(Unit(collection, path, root, source, list(dict.fromkeys(calls)), "doctest"))
    return units


def _called_root(expr: ast.expr, top: set[str]) -> Optional[str]:
    """The unit a call belongs to: the names of the module it uses (``inorder+make_tree``), so that
    the program defines all of them."""
    names = sorted({n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in top})
    return "+".join(names) or None


def _script_unit(collection: str, path: str, text: str, statements: list[ast.stmt], top: set[str],
                 owner: Optional[str]) -> Optional[Unit]:
    """A module-level program: the definitions the examples use, then the examples. Expressions
    whose value a doctest would print are printed, so the run shows them as output."""
    used = sorted({n.id for s in statements for n in ast.walk(s) if isinstance(n, ast.Name)} & top)
    if owner is not None and owner not in used:
        used.append(owner)
    if not used:
        return None
    source = program_source(text, used, MAX_LINES, _import_allowed)
    if source is None:
        return None
    lines = []
    for s in statements[:12]:
        if isinstance(s, ast.Expr) and not (isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id == "print"):
            lines.append(f"print({ast.unparse(s.value)})")
        else:
            lines.append(ast.unparse(s))
    script = source.rstrip("\n") + "\n\n\n" + "\n".join(lines) + "\n"
    if script.count("\n") > MAX_LINES + 12:
        return None
    return Unit(collection, path, "+".join(used), script, [""], "script")


# ----------------------------------------------------------------------------------------------
# Calls from test files


def _test_calls(tree: ast.Module, tested: set[str]) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.startswith("assert"):
            for arg in node.args:
                if _call_ok(arg, tested):
                    out.append(ast.unparse(arg))
        elif isinstance(node, ast.With):
            if any(isinstance(i.context_expr, ast.Call) and isinstance(i.context_expr.func, ast.Attribute)
                   and i.context_expr.func.attr == "assertRaises" for i in node.items):
                for s in node.body:
                    if isinstance(s, ast.Expr) and _call_ok(s.value, tested):
                        out.append(ast.unparse(s.value))
    return list(dict.fromkeys(out))


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """``{name: module}`` for ``from module import name`` at any level of a test file."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = node.module
    return out


def _solution_file(collection: str, test_path: str, module: str, name: str, files: dict[str, str],
                   index: dict[str, list[str]]) -> Optional[str]:
    if collection == "exercism-python":
        example = str(Path(test_path).parent / ".meta" / "example.py")
        return example if example in files else None
    prefix = module.replace(".", "/")
    candidates = [p for p in index.get(name, []) if p.startswith(prefix + "/") or p == prefix + ".py"]
    candidates = candidates or index.get(name, [])
    return candidates[0] if candidates else None


def _is_test_file(path: str) -> bool:
    base = Path(path).name
    return base.startswith("test_") or base.endswith("_test.py")


# ----------------------------------------------------------------------------------------------
# Typed inputs

_LIST_INT = ("nums", "numbers", "arr", "array", "lst", "values", "data", "xs", "items", "sequence", "collection", "heights", "prices")
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


def _typed_calls(node: ast.FunctionDef, rng: random.Random, n: int = 4) -> list[str]:
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


# ----------------------------------------------------------------------------------------------
# Extraction


def extract(directory: Optional[Path] = None) -> Extraction:
    """Every unit of the corpus, with counts: files read, units found, calls found by origin,
    skips by reason."""
    all_files = _read_all(directory or corpus_dir())
    stats: dict[str, Any] = {"files_read": 0, "files_parsed": 0, "functions_found": 0, "classes_found": 0,
                             "calls_found": collections.Counter(), "units": collections.Counter(),
                             "skips": collections.Counter(), "per_collection": {}}
    skips: collections.Counter = stats["skips"]
    units: list[Unit] = []
    for collection, files in all_files.items():
        before = len(units)
        trees: dict[str, ast.Module] = {}
        index: dict[str, list[str]] = collections.defaultdict(list)
        for path, text in sorted(files.items()):
            stats["files_read"] += 1
            try:
                tree = ast.parse(text)
            except SyntaxError:
                skips["file_syntax"] += 1
                continue
            stats["files_parsed"] += 1
            trees[path] = tree
            if _is_test_file(path):
                continue
            for node in tree.body:
                if isinstance(node, ast.FunctionDef):
                    stats["functions_found"] += 1
                    index[node.name].append(path)
                elif isinstance(node, ast.ClassDef):
                    stats["classes_found"] += 1
                    index[node.name].append(path)
        by_unit: dict[tuple[str, str], Unit] = {}
        # doctests
        for path, tree in trees.items():
            if _is_test_file(path):
                continue
            for u in _doctest_units(collection, path, files[path], tree, skips):
                key = (path, u.name if u.origin != "script" else u.name + f"#{len(by_unit)}")
                if key in by_unit:
                    by_unit[key].calls.extend(c for c in u.calls if c not in by_unit[key].calls)
                else:
                    by_unit[key] = u
        # test files
        for path, tree in trees.items():
            if not _is_test_file(path):
                continue
            imported = _imported_names(tree)
            for call in _test_calls(tree, set(imported)):
                root = _called_root(ast.parse(call, mode="eval").body, set(imported))
                if root is None:
                    continue
                first = root.split("+")[0]
                solution = _solution_file(collection, path, imported[first], first, files, index)
                if solution is None or solution not in trees:
                    skips["test_call_unresolved"] += 1
                    continue
                key = (solution, root)
                if key not in by_unit:
                    source = _unit_source(files[solution], root.split("+"), skips)
                    if source is None:
                        by_unit[key] = Unit(collection, solution, root, "", [], "tests")  # remembered as unusable
                        continue
                    by_unit[key] = Unit(collection, solution, root, source, [], "tests")
                if by_unit[key].source and call not in by_unit[key].calls:
                    by_unit[key].calls.append(call)
        # typed inputs for top-level functions with no call yet
        rng = random.Random(f"corpus-typed:{collection}")
        for path, tree in trees.items():
            if _is_test_file(path) or path.endswith("__init__.py"):
                continue
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef) or node.name.startswith("_") or (path, node.name) in by_unit:
                    continue
                calls = _typed_calls(node, rng)
                if not calls:
                    skips["no_calls"] += 1
                    continue
                source = _unit_source(files[path], [node.name], skips)
                if source is None:
                    continue
                by_unit[(path, node.name)] = Unit(collection, path, node.name, source, calls, "typed")
        for unit in by_unit.values():
            if not unit.source or not unit.calls:
                continue
            why = refusal(unit.source) or next((r for r in map(refusal, (c for c in unit.calls if c)) if r), None)
            if why:
                skips[why] += 1
                continue
            stats["calls_found"][unit.origin] += len(unit.calls)
            stats["units"][unit.origin] += 1
            units.append(unit)
        stats["per_collection"][collection] = {"files": len(files), "units": len(units) - before}
    for key in ("calls_found", "units", "skips"):
        stats[key] = dict(stats[key].most_common())
    extraction = Extraction(units, stats)
    stats["held_out_units"] = len(extraction.split(True))
    return extraction


_CACHE: dict[str, Extraction] = {}


def load(directory: Optional[Path] = None) -> Extraction:
    """``extract`` once per process (the dataset builder calls it before forking its workers)."""
    key = str(directory or corpus_dir())
    if key not in _CACHE:
        _CACHE[key] = extract(directory)
    return _CACHE[key]


# ----------------------------------------------------------------------------------------------
# Varying inputs


def _vary_value(rng: random.Random, value: Any, depth: int = 0) -> Any:
    if isinstance(value, bool):
        return not value if rng.random() < 0.5 else value
    if isinstance(value, int):
        r = rng.random()
        if abs(value) <= 3 or r < 0.3:
            return value + rng.randint(-2, 3)
        if r < 0.6:
            return max(0, value + rng.randint(-abs(value) // 2, abs(value) // 2)) if value >= 0 else value + rng.randint(-3, 3)
        return rng.choice([0, 1, value // 2, value + 1, value - 1])
    if isinstance(value, float):
        return round(value * rng.uniform(0.5, 1.5) + rng.choice([0.0, 0.5, -1.0]), 2)
    if isinstance(value, str):
        return _vary_str(rng, value)
    if isinstance(value, (list, tuple)):
        items = list(value)
        r = rng.random()
        if r < 0.08:
            items = []
        elif r < 0.16 and items:
            items = [rng.choice(items)]
        elif r < 0.4 and len(items) > 1:
            items = items[: rng.randint(1, len(items) - 1)] if rng.random() < 0.5 else rng.sample(items, len(items) - 1)
        elif r < 0.65 and items and depth < 2:
            for _ in range(rng.randint(1, 3)):
                items.insert(rng.randint(0, len(items)), _vary_value(rng, rng.choice(items), depth + 1))
        elif r < 0.8:
            rng.shuffle(items)
        elif items and depth < 2:
            i = rng.randrange(len(items))
            items[i] = _vary_value(rng, items[i], depth + 1)
        return type(value)(items) if isinstance(value, tuple) else items
    if isinstance(value, dict) and value and depth < 2:
        out = dict(value)
        k = rng.choice(list(out))
        out[k] = _vary_value(rng, out[k], depth + 1)
        return out
    return value


def _vary_str(rng: random.Random, s: str) -> str:
    r = rng.random()
    if r < 0.06:
        return ""
    if r < 0.12 and s:
        return s[rng.randrange(len(s))]
    if r < 0.35 and len(s) > 1:
        i = rng.randint(1, len(s) - 1)
        return s[:i] if rng.random() < 0.5 else s[i:]
    if r < 0.6 and s:
        alphabet = sorted(set(s))
        extra = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
        i = rng.randint(0, len(s))
        return s[:i] + extra + s[i:]
    if r < 0.75 and s:
        chars = list(s)
        rng.shuffle(chars)
        return "".join(chars)
    if s.isalpha() or " " in s:
        words = s.split(" ")
        words[rng.randrange(len(words))] = rand_word(rng) if not s.isupper() else rand_word(rng).upper()
        return " ".join(words)
    return s


def vary_call(rng: random.Random, call: str) -> str:
    """The call with some of its literal arguments changed (the same text when none is literal)."""
    try:
        expr = ast.parse(call, mode="eval").body
    except SyntaxError:
        return call

    class Vary(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            for i, arg in enumerate(node.args):
                if _is_literal(arg) and rng.random() < 0.7:
                    node.args[i] = _as_node(_vary_value(rng, ast.literal_eval(arg)), arg)
            for kw in node.keywords:
                if _is_literal(kw.value) and rng.random() < 0.5:
                    kw.value = _as_node(_vary_value(rng, ast.literal_eval(kw.value)), kw.value)
            return node

    varied = Vary().visit(expr)
    text = ast.unparse(varied)
    return text if len(text) <= MAX_CALL_CHARS * 2 else call


def _as_node(value: Any, like: ast.expr) -> ast.expr:
    try:
        return ast.parse(repr(value), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return like


def _vary_script(rng: random.Random, source: str) -> str:
    """A script with literal arguments of its module-level calls varied (definitions unchanged)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.split("\n")
    for node in tree.body:
        if isinstance(node, (ast.Expr, ast.Assign)) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
            if node.lineno == node.end_lineno and rng.random() < 0.6:
                lines[node.lineno - 1] = vary_call(rng, lines[node.lineno - 1]) if isinstance(node, ast.Expr) else _vary_assign(rng, node)
    return "\n".join(lines)


def _vary_assign(rng: random.Random, node: ast.Assign) -> str:
    targets = " = ".join(ast.unparse(t) for t in node.targets)
    return f"{targets} = {vary_call(rng, ast.unparse(node.value))}"


# ----------------------------------------------------------------------------------------------
# Drawing programs


def make_program(rng: random.Random, held_out: Optional[bool] = None, vary: float = 0.7,
                 directory: Optional[Path] = None) -> Optional[CorpusProgram]:
    """A random corpus program: a unit, one of its calls, varied with probability ``vary``.
    ``held_out``: only units of held-out files (True), only the others (False), or any (None)."""
    extraction = load(directory)
    units = extraction.units if held_out is None else extraction.split(held_out)
    if not units:
        return None
    unit = rng.choice(units)
    call = rng.choice(unit.calls)
    source = unit.source
    if rng.random() < vary:
        if call:
            call = vary_call(rng, call)
        else:
            source = _vary_script(rng, source)
    entry = unit.name.split("+")[0] if call else ""
    return CorpusProgram(source=source, call=call, entry=entry, family=f"{unit.collection}:{unit.origin}",
                         program_id=program_hash(source + "\n#call " + call), origin="corpus", split_id=unit.split_id)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.data.corpus", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=None, help="folder of the archives (default ../shared/corpus)")
    ap.add_argument("--stats", action="store_true", help="print the extraction counts")
    ap.add_argument("--n", type=int, default=0, help="print this many random programs as JSONL")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--held-out", action="store_true", help="draw only from held-out files")
    args = ap.parse_args(argv)
    try:
        extraction = load(args.corpus)
    except CorpusMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.stats or not args.n:
        print(json.dumps(extraction.stats, indent=2))
    for i in range(args.n):
        p = make_program(random.Random(f"{args.seed}:{i}"), True if args.held_out else None, directory=args.corpus)
        if p is not None:
            print(json.dumps({"source": p.source, "call": p.call, "family": p.family, "split_id": p.split_id}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
