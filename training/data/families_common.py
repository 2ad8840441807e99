"""Shared pieces of the Python-construct families (``python_families.py``).

A family builds a ``Piece``: top-level definitions (classes, functions, imports) and a *driver*,
the statements that use them, with the inputs the driver reads. ``render`` writes a piece as a
program of one of two shapes: an entry function that takes the inputs as parameters (the program's
call passes them as literals), or module-level code that assigns the inputs, runs the driver at the
top level and prints the result (call ""). The same definitions are thus seen under both kinds of
trace: one that starts in a function and one that starts in ``<module>``.
"""

from __future__ import annotations

import builtins
import keyword
import random
from dataclasses import dataclass, field

from .generator import ProgramRandom
from .names import wide_name
from .values import rand_int, rand_word, source_of

# Names the templates write literally in a scope that also holds drawn names (a handler's `e`, a
# wrapper's `result`, a setter's `value`): a drawn name must never be one of them. Literal names
# confined to their own small scope (a lambda's `p`, a method's `t`) need not be listed.
RESERVED = set("self cls other args kwargs func wrapper deco exc_type exc tb e result cache value".split())
_BUILTIN_NAMES = set(dir(builtins)) | set(keyword.kwlist)

ENTRY_NAMES = ["main", "run", "demo", "simulate", "example", "check", "play", "test_run", "scenario"]


@dataclass
class Piece:
    defs: list[list[str]]  # top-level blocks, each a list of lines at column 0
    driver: list[str] = field(default_factory=list)  # statements using the defs, column 0
    inputs: list[tuple[str, str]] = field(default_factory=list)  # (name, literal) the driver reads
    result: str = "None"  # returned by the entry function, printed by module-level code
    direct: str = ""  # a call of a definition itself, used as the call when there is no driver
    module_share: float = 0.25  # how often the piece is written as module-level code


class FamilyRandom(ProgramRandom):
    """``ProgramRandom`` with a share of wide names drawn per program: these programs name many
    things (a class, its attributes and methods), and a fixed 35 % would make nearly every one
    odd-looking, while some programs should read like textbook code and others use mostly unseen
    names."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.wide_share = rng.choice([0.05, 0.15, 0.25, 0.4])
        self.used |= RESERVED


def new_g(rng: random.Random) -> FamilyRandom:
    return FamilyRandom(rng)


def camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def class_name(g: ProgramRandom, pool: list[str], suffix: str = "") -> str:
    """A CamelCase name from ``pool`` or, as often as ``g`` draws wide names, from the wide pool."""
    if g.chance(getattr(g, "wide_share", 0.35) + 0.1):
        for _ in range(6):
            name = camel(wide_name(g.rng)) + suffix
            if name.isidentifier() and name not in g.used and name not in _BUILTIN_NAMES:
                g.used.add(name)
                return name
    free = [c for c in pool if c not in g.used and c not in _BUILTIN_NAMES]
    name = g.choice(free) if free else f"{pool[0]}{len(g.used)}"
    g.used.add(name)
    return name


def entry_name(g: ProgramRandom) -> str:
    return g.pick(ENTRY_NAMES) if g.chance(0.5) else g.func_name()


def ints(g: ProgramRandom, lo: int, hi: int, n_lo: int = 2, n_hi: int = 6) -> list[int]:
    return [g.rng.randint(lo, hi) for _ in range(g.rng.randint(n_lo, n_hi))]


def some_ints(g: ProgramRandom, n_lo: int = 2, n_hi: int = 6) -> list[int]:
    """Ints drawn like the generator's inputs (mostly small, some negative or large)."""
    return [rand_int(g.rng) for _ in range(g.rng.randint(n_lo, n_hi))]


def words(g: ProgramRandom, n_lo: int = 2, n_hi: int = 5) -> list[str]:
    """Distinct words (a list of them may become a dict's keys)."""
    n = g.rng.randint(n_lo, n_hi)
    out: list[str] = []
    for _ in range(n * 10):
        w = rand_word(g.rng)
        if w and w not in out:
            out.append(w)
        if len(out) == n:
            break
    return out


def word(g: ProgramRandom) -> str:
    w = rand_word(g.rng)
    return w or "x"


def lit(value: object) -> str:
    return source_of(value)


def indent(lines: list[str], levels: int = 1) -> list[str]:
    pad = "    " * levels
    return [pad + l if l else l for l in lines]


def method(name: str, params: list[str], body: list[str], decorator: str = "") -> list[str]:
    """A method's lines, indented one level (inside a class body)."""
    head = [f"@{decorator}"] if decorator else []
    return indent(head + [f"def {name}({', '.join(params)}):", *indent(body)])


def render(g: ProgramRandom, piece: Piece, module: bool) -> tuple[str, str, str]:
    """(source, call, entry) of ``piece``: module-level code when ``module``, else an entry
    function (or the piece's direct call)."""
    blocks = ["\n".join(b) for b in piece.defs]
    if module:
        lines = [f"{name} = {value}" for name, value in piece.inputs] + piece.driver
        shown = piece.direct or piece.result
        if piece.direct and g.chance(0.5):
            r = g.pick(["answer", "res", "outcome", "got"])
            lines += [f"{r} = {piece.direct}", f"print({r})"]
        elif shown != "None":
            lines.append(f"print({shown})")
        blocks.append("\n".join(lines))
        call, entry = "", "<module>"
    elif piece.direct:
        call = piece.direct
        entry = piece.direct.split("(", 1)[0]
    else:
        entry = entry_name(g)
        inline = not piece.inputs or g.chance(0.2)  # inputs written inside the body: `main()`
        params = [] if inline else [name for name, _ in piece.inputs]
        body = [f"{name} = {value}" for name, value in piece.inputs] if inline else []
        body += piece.driver
        body.append(f"return {piece.result}")
        blocks.append("\n".join([f"def {entry}({', '.join(params)}):", *indent(body)]))
        call = f"{entry}({'' if inline else ', '.join(value for _, value in piece.inputs)})"
    sep = "\n\n\n" if g.chance(0.7) else "\n\n"
    return sep.join(blocks) + "\n", call, entry


def klass(name: str, methods: list[list[str]], base: str = "", attrs: list[str] | None = None) -> list[str]:
    """A class block: class attributes first, then methods (from ``method``) a blank line apart."""
    body = indent(attrs or [])
    for m in methods:
        if body:
            body.append("")
        body += m
    return [f"class {name}({base}):" if base else f"class {name}:", *(body or ["    pass"])]


def maybe_print(g: ProgramRandom, p: float, *exprs: str) -> list[str]:
    """Now and then a ``print`` of ``exprs``: output is part of what a program does."""
    return [f"print({', '.join(exprs)})"] if g.chance(p) else []
