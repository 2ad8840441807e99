"""Candidates from the interactive examples of the Python documentation (Debian's
``python3.11-doc``, the reStructuredText sources under ``/usr/share/doc/python3.11/html/_sources``):
the ``>>>`` examples of one page become scripts that run as the sessions did.

- Each example is one statement of the script (a ``...`` continuation belongs to its example).
- An expression whose value the session shows is bound to ``_``, as the interactive interpreter
  does (``>>> a.count(333)`` → ``_ = a.count(333)``): the run shows the value, the page's answer
  is not written down. ``print(…)`` stays as it is.
- An example whose answer is a traceback becomes ``try: … except TheError: pass``.
- Examples marked ``+SKIP`` and examples that import a refused module, read files or the clock are
  left out (counted by reason).

A page's examples are cut into scripts of ``CHUNK_UNITS`` or more examples at the breaks between
its example blocks; names a script uses that an earlier example of the page defines bring that
example along (a page's sessions go on from one block to the next).
"""

from __future__ import annotations

import ast
import builtins
import collections
import doctest
import importlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .debian_common import Candidate, import_ok, parse, statement_refusal
from .extract import free_names

DOC_DIR = Path(os.environ.get("NDB_DEBIAN_DOCS", "/usr/share/doc/python3.11/html/_sources"))
CHUNK_UNITS = 8
MAX_UNITS = 20
MAX_CONTEXT = 6  # earlier examples brought along for the names a script uses
_PARAGRAPHS = re.compile(r"\n[ \t]*\n")


@dataclass
class Unit:
    text: str
    line: int  # in the page
    block: int  # the example block it belongs to
    bound: frozenset[str]
    free: frozenset[str]
    value: bool  # shows a value (``_ =``) or an expected error


def doc_files(root: Path = DOC_DIR, only: Optional[set[str]] = None) -> dict[str, str]:
    """``{relative path: text}`` of the pages with examples (or of those named in ``only``)."""
    out: dict[str, str] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*.txt")):
        if only is not None and str(path.relative_to(root)) not in only:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if ">>>" in text:
            out[str(path.relative_to(root))] = text
    return out


def _exception_name(exc_msg: str) -> str:
    """The handler for an example whose answer is ``SomeError: message``: the builtin exception
    named, else ``Exception`` (a module's own error class may not be defined in the script)."""
    name = exc_msg.strip().split("\n")[-1].split(":")[0].strip().split(".")[-1]
    kind = getattr(builtins, name, None)
    return name if isinstance(kind, type) and issubclass(kind, BaseException) else "Exception"


def example_unit(ex: doctest.Example) -> tuple[Optional[str], bool, str]:
    """(the statement's text, whether it shows a value, why it was left out)."""
    if ex.options.get(doctest.SKIP):
        return None, False, "skip_marked"
    source = ex.source.rstrip("\n")
    try:
        tree = parse(source)
    except SyntaxError:
        return None, False, "syntax"
    if not tree.body:
        return None, False, "empty"
    why = statement_refusal(source)
    if why:
        return None, False, why
    if ex.exc_msg is not None:
        handler = _exception_name(ex.exc_msg)
        body = "\n".join("    " + line for line in source.split("\n"))
        return f"try:\n{body}\nexcept {handler}:\n    pass", True, ""
    only = tree.body[0] if len(tree.body) == 1 else None
    if isinstance(only, ast.Expr) and ex.want.strip():
        value = only.value
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print":
            return source, False, ""
        shown = f"_ = {source.strip()}"  # the page's own text where it parses so (its spacing, its comments)
        try:
            parse(shown)
        except SyntaxError:
            shown = f"_ = {ast.unparse(value)}"
        return shown, True, ""
    return source, False, ""


def page_units(text: str, skips: collections.Counter) -> list[Unit]:
    """The examples of a page in order, each with the block it is in (prose between examples
    starts a new block)."""
    units: list[Unit] = []
    block = 0
    line = 1
    parser = doctest.DocTestParser()
    pos = 0
    for match in list(_PARAGRAPHS.finditer(text)) + [None]:
        end = match.start() if match else len(text)
        paragraph = text[pos:end]
        first_line = line
        line += text.count("\n", pos, match.end() if match else len(text))
        pos = match.end() if match else len(text)
        if ">>>" not in paragraph:
            if paragraph.strip():
                block += 1
            continue
        try:
            examples = parser.get_examples(paragraph)
        except ValueError:
            skips["paragraph_unparsable"] += 1
            block += 1
            continue
        for ex in examples:
            skips["examples_seen"] += 1
            made, value, why = example_unit(ex)
            if made is None:
                skips[f"example:{why}"] += 1
                continue
            tree = parse(made)
            bound = frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)) | \
                frozenset(n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))) | \
                frozenset((a.asname or a.name).split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                          for a in n.names)
            units.append(Unit(made, first_line + ex.lineno, block, bound, frozenset(free_names(tree)), value))
    return units


def _with_context(units: list[Unit], start: int, end: int) -> list[int]:
    """Indices of the chunk ``units[start:end]`` and of the earlier examples that define names it
    uses before defining them (transitively, at most ``MAX_CONTEXT``)."""
    chosen = list(range(start, end))
    extra: set[int] = set()
    while len(extra) < MAX_CONTEXT:
        ordered = sorted(extra) + chosen
        defined: set[str] = set()
        missing: set[str] = set()
        for i in ordered:
            missing |= units[i].free - defined
            defined |= units[i].bound
        found = None
        for name in sorted(missing):
            found = next((j for j in range(min(ordered) - 1, -1, -1) if name in units[j].bound), None)
            if found is not None:
                break
        if found is None:
            break  # what is defined nowhere before: the checker leaves its statements out
        extra.add(found)
    return sorted(extra) + chosen


def page_candidates(path: str, text: str, skips: collections.Counter) -> list[Candidate]:
    units = page_units(text, skips)
    module = _page_module(path)
    out: list[Candidate] = []
    start = 0
    while start < len(units):
        end = start + 1
        while end < len(units) and end - start < MAX_UNITS and \
                (end - start < CHUNK_UNITS or units[end].block == units[end - 1].block):
            end += 1
        chunk, implied = _defined_only([units[i] for i in _with_context(units, start, end)], module, skips)
        name = f"{units[start].line}-{units[end - 1].line}"
        if chunk:
            prefix = "".join(line + "\n" for line in sorted(set(implied.values())))
            out.append(Candidate("docs", path, name, [u.text for u in chunk], prefix=prefix,
                                 values=sum(u.value for u in chunk)))
        start = end
    return out


def _page_module(path: str) -> Optional[object]:
    """The module a library page documents, when these sources may import it."""
    name = Path(path).name.removesuffix(".rst.txt").removesuffix(".txt")
    if not Path(path).parts or Path(path).parts[0] != "library" or not import_ok(f"import {name}"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _defined_only(chunk: list[Unit], module: Optional[object], skips: collections.Counter) -> tuple[list[Unit], dict[str, str]]:
    """The examples whose names are defined before them, and the imports the page takes as done:
    a module these sources may import (``ast.dump(…)``), or a public name of the module the page
    documents (``Decimal`` on the page of ``decimal``), when nothing before defines it."""
    defined: set[str] = set()
    implied: dict[str, str] = {}
    kept: list[Unit] = []
    for u in chunk:
        missing = u.free - defined
        lines = {}
        for m in missing:
            if import_ok(f"import {m}"):
                lines[m] = f"import {m}"
            elif module is not None and not m.startswith("_") and hasattr(module, m):
                lines[m] = f"from {getattr(module, '__name__')} import {m}"
        if missing - set(lines):
            skips["example:undefined_name"] += 1
            continue
        implied.update(lines)
        defined |= u.bound | set(lines)
        kept.append(u)
    return kept, implied


def candidates(root: Path = DOC_DIR, only: Optional[set[str]] = None) -> tuple[list[Candidate], collections.Counter]:
    skips: collections.Counter = collections.Counter()
    out: list[Candidate] = []
    for path, text in doc_files(root, only).items():
        skips["files"] += 1
        out.extend(page_candidates(path, text, skips))
    return out, skips
