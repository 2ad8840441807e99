"""What the Debian sources share (``training/data/debian.py``): a *candidate* (statements cut out of
a test method or a page of the documentation, before they are run), how it becomes a program's
text, the held-out split and the licenses.

A candidate is either a **function** (``entry`` names it: the statements are its body and the call
is ``entry()``) or a **script** (no entry: the statements run at module level, traced with an empty
call, as a doctest session runs). ``prefix`` holds what the statements need from their file (allowed
imports, helpers, constants) and is never cut; the checker (``debian_check.py``) may drop statements
that fail, so each one is kept as its own text.
"""

from __future__ import annotations

import ast
import textwrap
import warnings
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

from .corpus_checks import ALLOWED_MODULES, CLOCK_ATTRIBUTES, FORBIDDEN_NAMES
from .programs import Program, is_held_out, program_hash

# Where each Debian source comes from and under which terms: the model card cites this dict, and
# training/README.md says the same in prose.
LICENSES: dict[str, dict[str, str]] = {
    "tests": {
        "package": "libpython3.11-testsuite",
        "path": "/usr/lib/python3.11/test",
        "what": "CPython 3.11's own regression test suite (Lib/test)",
        "license": "PSF-2.0 (Python Software Foundation License Version 2)",
        "attribution": "Copyright (c) 2001-2023 Python Software Foundation; All Rights Reserved. "
                       "Test methods rewritten into standalone functions (asserts become assignments "
                       "of the checked value).",
        "copyright_file": "/usr/share/doc/libpython3.11-testsuite/copyright",
    },
    "docs": {
        "package": "python3.11-doc",
        "path": "/usr/share/doc/python3.11/html/_sources",
        "what": "the interactive (>>>) examples of the Python 3.11 documentation",
        "license": "PSF-2.0 (Python Software Foundation License Version 2; the documentation's "
                   "code examples are also under the Zero-Clause BSD license)",
        "attribution": "Copyright (c) 2001-2023 Python Software Foundation; All Rights Reserved. "
                       "Examples of one page joined into scripts; a shown value is bound to _ as the REPL does.",
        "copyright_file": "/usr/share/doc/python3.11-doc/copyright",
    },
}
SOURCES = tuple(LICENSES)

# A kept program must be more than a line or two of work: at least three lines run (a call, three
# lines and the return; a loop counts each time round).
MIN_EVENTS = 5


@dataclass
class Candidate:
    source: str  # a key of LICENSES
    file: str  # relative to the source's folder
    name: str  # the test (Class.method) or the page's block range, for the stats and the id
    statements: list[str]
    entry: str = ""  # a function's name, "" for a script
    prefix: str = ""
    values: int = 0  # statements that show a computed value (a rewritten assert, a doctest's shown result)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.source}:{self.file}::{self.name}"

    @property
    def split_unit(self) -> str:
        """What is held out whole: a documentation page (its scripts share the examples that define
        their names), a test class (test modules are large: 5 % of them is a handful of files and 2 %
        of the programs; a class's methods share its setUp and its attributes)."""
        if self.source == "tests" and "." in self.name:
            return f"{self.file}::{self.name.split('.')[0]}"
        return self.file

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Candidate":
        return cls(**data)


@dataclass
class DebianProgram(Program):
    split_id: str = ""  # held out by test class or documentation page (``Candidate.split_unit``), not by program


def split_id(source: str, unit: str) -> str:
    return program_hash(f"debian:{source}/{unit}")


def held_out(source: str, unit: str) -> bool:
    return is_held_out(split_id(source, unit))


def assemble(prefix: str, statements: list[str], entry: str) -> tuple[str, list[tuple[int, int]]]:
    """The program text and, for each statement, the lines (first, last) it takes in it."""
    head = prefix.rstrip("\n")
    lines: list[str] = head.split("\n") if head else []
    if lines:
        lines += ["", ""]
    indent = ""
    if entry:
        lines.append(f"def {entry}():")
        indent = "    "
    spans: list[tuple[int, int]] = []
    for text in statements:
        body = text.rstrip("\n").split("\n")
        first = len(lines) + 1
        lines.extend(indent + line if line else line for line in body)
        spans.append((first, len(lines)))
    if entry and not statements:
        lines.append("    pass")
    return "\n".join(lines) + "\n", spans


def to_program(c: Candidate) -> DebianProgram:
    source, _ = assemble(c.prefix, c.statements, c.entry)
    call = f"{c.entry}()" if c.entry else ""
    # one origin for the recipe's share; the family names the source (the stats count both)
    return DebianProgram(source=source, call=call, entry=c.entry, family=c.source,
                         program_id=program_hash(source + "\n#call " + call), origin="debian",
                         split_id=split_id(c.source, c.split_unit))


def parse(text: str) -> ast.Module:
    """``ast.parse`` without the warnings of old code (``'\\s'`` in a plain string): the pages and
    test modules are what they are, and the run decides."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)


def statement_text(node: ast.stmt) -> str:
    return ast.unparse(node)


# Beyond the corpus's allowed modules (corpus_checks.ALLOWED_MODULES): more of the standard
# library that computes without I/O, the clock or randomness and that Pyodide ships; test modules
# and examples import them often.
EXTRA_MODULES = frozenset("""struct json base64 binascii difflib fnmatch html colorsys calendar ipaddress graphlib
reprlib keyword pickle zlib""".split())
MODULES = ALLOWED_MODULES | EXTRA_MODULES

# Values that change from run to run or between Python builds (an address, a salted hash), or
# that print pages of help text.
UNSTABLE_NAMES = frozenset({"id", "hash", "help", "vars", "locals", "dir", "memoryview", "__builtins__", "__import__",
                            "__file__", "__spec__", "__loader__"})
# State a program would leave behind in the interpreter that traces the next one (a tracer runs
# many programs): decimal's thread context (``getcontext().prec = 50``). ``localcontext()`` is fine.
GLOBAL_STATE_NAMES = frozenset({"getcontext", "setcontext", "DefaultContext"})


def import_ok(text: str) -> bool:
    """``import x`` / ``from x import y`` of a module these sources may use (one import line)."""
    words = text.split()
    return len(words) > 1 and words[0] in ("import", "from") and words[1].split(".")[0] in MODULES


def statement_refusal(text: str) -> Optional[str]:
    """Why a statement (or a program) cannot be part of a Debian program: the corpus's rules
    (``corpus_checks.refusal``) with the modules of ``MODULES`` allowed, and names whose values
    differ from run to run refused as well."""
    try:
        tree = parse(textwrap.dedent(text))
    except SyntaxError:
        return "syntax"
    return node_refusal(tree)


def node_refusal(tree: ast.AST) -> Optional[str]:
    """``statement_refusal`` of a parsed statement or program."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if isinstance(node, ast.ImportFrom) and node.level:
                return "local_import"
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if any(n.split(".")[0] not in MODULES for n in names):
                return "import"
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            return "io_or_eval"
        elif isinstance(node, ast.Name) and node.id in UNSTABLE_NAMES:
            return "unstable"
        elif isinstance(node, (ast.Name, ast.Attribute)) and (node.id if isinstance(node, ast.Name) else node.attr) in GLOBAL_STATE_NAMES:
            return "global_state"
        elif isinstance(node, ast.Attribute) and node.attr in CLOCK_ATTRIBUTES:
            return "clock"
        elif isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
            return "async"
    return None
