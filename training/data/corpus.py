"""Real programs for the training set: Python written by people (``../shared/corpus``), cut into
runnable programs with calls.

The corpus holds eight collections as archives (the folder's README names their sources, commits
and licenses), read in three ways (``COLLECTION_KINDS``):

- **files** (TheAlgorithms/Python, exercism/python, keon/algorithms): every top-level function and
  class becomes a *unit*: its source with what it needs from its own file (stdlib imports,
  constants, helpers; ``extract.py``);
- **package** (more-itertools, toolz, boltons, pygorithm): the same, and what a module imports from
  its own package (``from .recipes import take``) is inlined too (``corpus_imports.py``);
  Python 2/3 shims take the Python 3 branch;
- **markdown** (30-seconds-of-python): each snippet's function and its example calls
  (``corpus_markdown.py``).

Calls come from (``corpus_units.py``, ``corpus_tests.py``):

- **doctests** (``>>> f(…)``): an example that is one call of a top-level function becomes an entry
  call; a docstring whose examples build objects and call methods becomes a *script*, a module-level
  program (the unit, then the examples as statements) traced with an empty Call;
- **test files**: argument expressions of asserts that call a tested name with literal arguments
  (``self.assertEqual(f(…), …)``, ``assert f(…) == …``, ``with self.assertRaises(…): f(…)``); the
  tested name is found in the module the test imports (exercism: the exercise's
  ``.meta/example.py``); for the packages also *test scripts*, a test function's body with its
  asserts printing the values they check;
- **snippet examples** (markdown): the calls after the function, results in comments dropped;
- **typed inputs**: a function with neither gets calls from the generator's value makers when every
  parameter's annotation or name says what it takes (``nums: list[int]``, ``text``, ``n``).

``make_program`` draws a unit and one of its calls, and most of the time varies the call's literal
arguments (shorter and longer lists and strings, other numbers and words, empty and one-item edge
cases; ``corpus_vary.py``), so that the same code is seen on many inputs. Programs that touch
files, the network, the clock, random numbers, ``input()`` or modules outside the deterministic
standard library are skipped (``corpus_checks.py``; counted by reason); the dataset builder keeps a
corpus run only if it ends within the event budget.

Whole files are held out (5 %, by a hash of the collection and path, ``is_held_out``): the dataset
builder sends their runs to ``val`` and the evaluation set is drawn from them; never trained on. A
unit that inlines code of a held-out file (or is a script of a held-out test file) is held out too.

    python3 -m training.data.corpus --stats            # files, units, calls, skips, per collection
    python3 -m training.data.corpus --n 5 --seed 1     # programs as JSONL
    python3 -m training.data.corpus --write-extraction runs/lease-carry/corpus   # what lease.sh --pack carries

Extracting takes 20-70 s a core, so ``load`` keeps an extraction once made (a gzipped pickle named
by a digest of this code, the archives and Python's version) in ``$NDB_CACHE_DIR`` (else
``~/.cache/ndb``) and reads one found in the corpus folder itself: ``lease.sh --pack`` writes one
there, made by the lease's Python, so that no lease worker extracts.
"""

from __future__ import annotations

import argparse
import ast
import collections
import contextlib
import gzip
import hashlib
import json
import os
import pickle
import random
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .corpus_checks import ALLOWED_MODULES, FORBIDDEN_NAMES, MAX_CALL_CHARS, called_root, is_literal, refusal
from .corpus_imports import Package
from .corpus_markdown import read_snippet, split_examples
from .corpus_tests import imported_names, stdlib_imports, test_calls, test_functions, test_script, unqualify
from .corpus_units import (MAX_LINES, MAX_LINES_LIBRARY, FileResolver, PackageResolver, Resolver, Unit, doctest_units,
                           is_test_file, script_unit, typed_calls, used_names)
from .corpus_vary import vary_call, vary_script
from .programs import Program, is_held_out, program_hash

__all__ = ["ALLOWED_MODULES", "COLLECTIONS", "COLLECTION_KINDS", "FORBIDDEN_NAMES", "MAX_CALL_CHARS", "MAX_LINES",
           "MAX_LINES_LIBRARY", "CorpusMissing", "CorpusProgram", "Extraction", "Unit", "corpus_dir", "extract", "load",
           "make_program", "read_collection", "refusal", "vary_call"]

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
# How each archive is read (see the module's docstring); the order is the order of the stats.
COLLECTION_KINDS = {
    "thealgorithms-python": "files",
    "exercism-python": "files",
    "keon-algorithms": "files",
    "more-itertools": "package",
    "toolz": "package",
    "boltons": "package",
    "pygorithm": "package",
    "30-seconds-of-python": "markdown",
}
COLLECTIONS = tuple(COLLECTION_KINDS)
_is_literal = is_literal  # make_real_functions.py checks arguments with it


class CorpusMissing(RuntimeError):
    pass


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


def read_collection(path: Path, suffixes: tuple[str, ...] = (".py",)) -> dict[str, str]:
    """``{relative path: text}`` of the files with these suffixes in one archive. An archive that
    wraps everything in a folder of its own name (``toolz/…``) has it dropped, so that paths are
    module paths."""
    files: dict[str, str] = {}
    with tarfile.open(path, "r:gz") as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.endswith(suffixes):
                handle = tar.extractfile(member)
                if handle is not None:
                    files[member.name.removeprefix("./")] = handle.read().decode("utf-8", "replace")
    folder = path.name.removesuffix(".tar.gz") + "/"
    if files and all(name.startswith(folder) for name in files):
        files = {name.removeprefix(folder): text for name, text in files.items()}
    return files


def _read_all(directory: Path) -> dict[str, dict[str, str]]:
    missing = [c for c in COLLECTIONS if not (directory / f"{c}.tar.gz").is_file()]
    if missing:
        raise CorpusMissing(
            f"the corpus of real code is missing: {', '.join(f'{c}.tar.gz' for c in missing)} not found in {directory} "
            "(expected ../shared/corpus beside the repository; set NDB_CORPUS to another folder)"
        )
    suffixes = {"markdown": (".md",)}
    return {c: read_collection(directory / f"{c}.tar.gz", suffixes.get(kind, (".py",))) for c, kind in COLLECTION_KINDS.items()}


# ----------------------------------------------------------------------------------------------
# Extraction


@dataclass
class _Collection:
    """One archive while its units are cut out."""
    name: str
    kind: str
    texts: dict[str, str]
    trees: dict[str, ast.Module] = field(default_factory=dict)
    skips: collections.Counter = field(default_factory=collections.Counter)
    by_unit: dict[tuple[str, str], Unit] = field(default_factory=dict)
    failed: set[tuple[str, str]] = field(default_factory=set)  # (path, name) whose program failed: counted once
    resolver: Optional[Resolver] = None
    package: Optional[Package] = None

    def add(self, unit: Unit, key: Optional[str] = None) -> None:
        """A unit, or its calls added to the unit of the same file and name found before."""
        k = (unit.path, key or unit.name)
        if k in self.by_unit:
            self.by_unit[k].calls.extend(c for c in unit.calls if c not in self.by_unit[k].calls)
        else:
            self.by_unit[k] = unit


def _parse(c: _Collection, stats: dict[str, Any]) -> None:
    for path, text in sorted(c.texts.items()):
        stats["files_read"] += 1
        if c.kind == "markdown":
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            c.skips["file_syntax"] += 1
            continue
        stats["files_parsed"] += 1
        c.trees[path] = tree
        if not is_test_file(path):
            stats["functions_found"] += sum(isinstance(n, ast.FunctionDef) for n in tree.body)
            stats["classes_found"] += sum(isinstance(n, ast.ClassDef) for n in tree.body)
    if c.kind == "package":
        c.package = Package(c.texts, c.trees)
        c.resolver = PackageResolver(c.package)
    else:
        c.resolver = FileResolver(c.name, c.texts, c.trees)


def _doctests(c: _Collection) -> None:
    assert c.resolver is not None
    for path, tree in c.trees.items():
        if is_test_file(path):
            continue
        for u in doctest_units(c.name, path, tree, c.resolver, c.skips, c.failed):
            c.add(u, u.name if u.origin != "script" else u.name + f"#{len(c.by_unit)}")


def _test_files(c: _Collection) -> None:
    assert c.resolver is not None
    for path, tree in c.trees.items():
        if not is_test_file(path):
            continue
        plain: dict[str, str] = {}
        if c.package is not None:
            tree = ast.parse(c.texts[path])  # a copy: the rewrite below changes it
            plain = unqualify(tree, c.package)
        imported = {**imported_names(tree), **plain}
        for call in test_calls(tree, set(imported)):
            root = called_root(ast.parse(call, mode="eval").body, set(imported))
            if root is not None:
                _test_call(c, path, imported, root, call)
        if c.package is not None:
            _test_scripts(c, path, tree, imported)


def _locate(c: _Collection, test_path: str, imported: dict[str, str], names: list[str]) -> Optional[list[tuple[str, str]]]:
    assert c.resolver is not None
    if c.package is None:  # as before: every name from the file of the first
        first = c.resolver.locate(test_path, imported[names[0]], names[0])
        return [(first[0], n) for n in names] if first else None
    roots = [c.resolver.locate(test_path, imported[n], n) for n in names]
    return None if any(r is None for r in roots) else roots  # type: ignore[return-value]


def _test_call(c: _Collection, path: str, imported: dict[str, str], root: str, call: str) -> None:
    assert c.resolver is not None
    roots = _locate(c, path, imported, root.split("+"))
    if roots is None:
        c.skips["test_call_unresolved"] += 1
        return
    key = (roots[0][0], root)
    if key not in c.by_unit:
        resolved, why = c.resolver.program(roots)
        if resolved is None:
            c.skips[why] += 1
            c.by_unit[key] = Unit(c.name, roots[0][0], root, "", [], "tests")  # remembered as unusable
            return
        c.by_unit[key] = Unit(c.name, resolved.path, root, resolved.source, [], "tests", resolved.files)
    unit = c.by_unit[key]
    if unit.source and call not in unit.calls:
        unit.calls.append(call)


def _test_scripts(c: _Collection, path: str, tree: ast.Module, imported: dict[str, str]) -> None:
    assert c.resolver is not None and c.package is not None
    located = {n: c.resolver.locate(path, m, n) for n, m in imported.items()}
    tested = {n: where for n, where in located.items() if where is not None}
    stdlib = stdlib_imports(tree, c.package)
    for func in test_functions(tree):
        made = test_script(func, set(tested), stdlib)
        if made is None:
            c.skips["test_function_unusable"] += 1
            continue
        statements, used, imports = made
        unit, why = script_unit(c.name, [tested[n] for n in used], statements, c.resolver, "test_script", tuple(imports),
                                (path,), print_values=False)
        if unit is None:
            c.skips[f"test_script:{why}"] += 1
        else:
            c.add(unit, f"{unit.name}#{path}::{func.name}")


def _snippets(c: _Collection) -> None:
    for path, text in sorted(c.texts.items()):
        snippet, why = read_snippet(text)
        if snippet is None:
            c.skips[why] += 1
            continue
        resolver = FileResolver(c.name, {path: snippet.code}, {path: ast.parse(snippet.code)})
        top = resolver.callables(path)
        examples = split_examples(snippet.examples, top)
        if not examples.calls:
            unit, why = script_unit(c.name, [(path, n) for n in used_names(snippet.examples, top)], snippet.examples, resolver)
            if unit is None:
                c.skips[f"script:{why}"] += 1
            else:
                c.add(unit)
            continue
        for root, calls in examples.calls.items():
            resolved, why = resolver.program([(path, n) for n in root.split("+")])
            if resolved is None:
                c.skips[why] += 1
                continue
            source = resolved.source.rstrip("\n") + ("\n\n\n" + "\n".join(examples.context) if examples.context else "") + "\n"
            c.add(Unit(c.name, path, root, source, calls, "snippet"))


def _typed(c: _Collection) -> None:
    assert c.resolver is not None
    rng = random.Random(f"corpus-typed:{c.name}")
    for path, tree in c.trees.items():
        if is_test_file(path) or path.endswith("__init__.py"):
            continue
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("_") or (path, node.name) in c.by_unit \
                    or (path, node.name) in c.failed:
                continue
            calls = typed_calls(node, rng)
            if not calls:
                c.skips["no_calls"] += 1
                continue
            resolved, why = c.resolver.program([(path, node.name)])
            if resolved is None:
                c.skips[why] += 1
                continue
            c.by_unit[(path, node.name)] = Unit(c.name, resolved.path, node.name, resolved.source, calls, "typed", resolved.files)


def _kept_units(c: _Collection) -> list[Unit]:
    """The units with a program and calls that pass the checks (the others counted by reason)."""
    out: list[Unit] = []
    for unit in c.by_unit.values():
        if not unit.source or not unit.calls:
            continue
        why = refusal(unit.source) or next((r for r in map(refusal, (x for x in unit.calls if x)) if r), None)
        if why:
            c.skips[why] += 1
            continue
        out.append(unit)
    return out


def extract(directory: Optional[Path] = None) -> Extraction:
    """Every unit of the corpus, with counts: files read, units found, calls found by origin,
    skips by reason, and the same per collection."""
    all_files = _read_all(directory or corpus_dir())
    stats: dict[str, Any] = {"files_read": 0, "files_parsed": 0, "functions_found": 0, "classes_found": 0,
                             "calls_found": collections.Counter(), "units": collections.Counter(),
                             "skips": collections.Counter(), "per_collection": {}}
    units: list[Unit] = []
    for name, texts in all_files.items():
        c = _Collection(name, COLLECTION_KINDS[name], texts)
        _parse(c, stats)
        if c.kind == "markdown":
            _snippets(c)
        else:
            _doctests(c)
            _test_files(c)
            _typed(c)
        kept = _kept_units(c)
        units.extend(kept)
        by_origin = collections.Counter(u.origin for u in kept)
        calls = collections.Counter()
        for u in kept:
            calls[u.origin] += len(u.calls)
        stats["units"].update(by_origin)
        stats["calls_found"].update(calls)
        stats["skips"].update(c.skips)
        stats["per_collection"][name] = {
            "files": len(texts), "units": len(kept), "calls": sum(calls.values()),
            "units_by_origin": dict(by_origin.most_common()), "skips": dict(c.skips.most_common()),
            "held_out_units": sum(is_held_out(u.split_id) for u in kept),
        }
    for key in ("calls_found", "units", "skips"):
        stats[key] = dict(stats[key].most_common())
    extraction = Extraction(units, stats)
    stats["held_out_units"] = len(extraction.split(True))
    return extraction


_CACHE: dict[str, Extraction] = {}
# What an extraction depends on besides the archives and the Python version (its ast and doctest).
EXTRACTION_CODE = ("corpus.py", "corpus_checks.py", "corpus_imports.py", "corpus_markdown.py", "corpus_tests.py",
                   "corpus_units.py", "corpus_vary.py", "extract.py", "programs.py", "values.py")
EXTRACTION_FORMAT = 1


def extraction_key(directory: Optional[Path] = None) -> str:
    """A digest of what an extraction is made from: this code, the archives' bytes, Python's version."""
    h = hashlib.sha1(f"{EXTRACTION_FORMAT}:{sys.version_info[0]}.{sys.version_info[1]}".encode())
    here = Path(__file__).resolve().parent
    for name in EXTRACTION_CODE:
        h.update(name.encode() + b"\0" + (here / name).read_bytes())
    folder = directory or corpus_dir()
    for c in COLLECTIONS:
        h.update(c.encode() + b"\0" + (folder / f"{c}.tar.gz").read_bytes())
    return h.hexdigest()[:16]


def extraction_file_name(key: str) -> str:
    return f"extraction-py{sys.version_info[0]}{sys.version_info[1]}-{key}.pickle.gz"


def cache_dir() -> Path:
    return Path(os.environ.get("NDB_CACHE_DIR") or Path.home() / ".cache" / "ndb")


def _read_extraction(path: Path) -> Optional[Extraction]:
    try:
        with gzip.open(path, "rb") as handle:
            extraction = pickle.load(handle)
    except Exception:  # noqa: BLE001 - a torn or foreign file: extracted again
        return None
    return extraction if isinstance(extraction, Extraction) else None


def write_extraction(extraction: Extraction, path: Path) -> None:
    """Written whole or not at all (several workers may write the same file at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with gzip.open(tmp, "wb", compresslevel=6) as handle:
        pickle.dump(extraction, handle, protocol=4)
    os.replace(tmp, path)


def load(directory: Optional[Path] = None, cache: bool = True) -> Extraction:
    """``extract`` once per process (the dataset builder calls it before forking its workers), and
    once per machine: an extraction of the same code, archives and Python version is read back
    (0.1 s where extracting takes 20-70 s a core) from the corpus folder itself (where ``lease.sh
    --pack`` writes one made by the lease's Python: ``--write-extraction``) or else from the cache
    folder (``$NDB_CACHE_DIR``, else ``~/.cache/ndb``), where a fresh extraction is kept."""
    folder = directory or corpus_dir()
    key = str(folder)
    if key not in _CACHE:
        extraction = None
        path = None
        if cache and all((folder / f"{c}.tar.gz").is_file() for c in COLLECTIONS):
            name = extraction_file_name(extraction_key(folder))
            path = cache_dir() / "corpus" / name
            for candidate in (folder / name, path):
                if candidate.is_file():
                    extraction = _read_extraction(candidate)
                    if extraction is not None:
                        break
        if extraction is None:
            extraction = extract(directory)
            if path is not None:
                with contextlib.suppress(OSError):
                    write_extraction(extraction, path)
        _CACHE[key] = extraction
    return _CACHE[key]


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
            source = vary_script(rng, source)
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
    ap.add_argument("--write-extraction", type=Path, default=None, metavar="DIR",
                    help="write the extraction, for this Python version, into DIR (the corpus folder a lease carries: "
                         "its workers then read it instead of extracting)")
    args = ap.parse_args(argv)
    try:
        extraction = load(args.corpus)
    except CorpusMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.write_extraction is not None:
        path = args.write_extraction / extraction_file_name(extraction_key(args.corpus))
        write_extraction(extraction, path)
        print(f"corpus: {len(extraction.units):,} units extracted by Python {sys.version_info[0]}.{sys.version_info[1]} "
              f"in {path} ({path.stat().st_size / 2**20:.2f} MiB)")
        return 0
    if args.stats or not args.n:
        print(json.dumps(extraction.stats, indent=2))
    for i in range(args.n):
        p = make_program(random.Random(f"{args.seed}:{i}"), True if args.held_out else None, directory=args.corpus)
        if p is not None:
            print(json.dumps({"source": p.source, "call": p.call, "family": p.family, "split_id": p.split_id}))
    return 0


if __name__ == "__main__":
    # the package's own module rather than this copy named __main__: the extraction that
    # --write-extraction pickles must name its classes where the workers find them
    from training.data.corpus import main as package_main

    sys.exit(package_main())
