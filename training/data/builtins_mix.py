"""Programs that teach Python's builtins: the methods of str, list, dict, set and tuple and the
builtin functions, drawn from the whole API of each type, on long and messy literals.

A program is built a statement at a time while it is *run* here: every step is executed on the
values the program holds at that point (``exec`` of the generated statement on a copy of them), so
an argument can be chosen from the value itself (a separator the string holds, an index past the
end, a key that is there or not), a step that would raise by accident is drawn again, and a value
that would depend on the string hash seed (a set of strings) or grow too long is never kept. The
program is then run once more whole, with its events counted, and drawn again when it raises, runs
past ``MAX_EVENTS`` events or ``MAX_LINES`` lines.

Shapes (``family`` is ``FOCUS_SHAPE``, e.g. ``str_steps``; FOCUS is the type of the first input):

- **steps**: one builtin or method per line over the inputs and the values made from them, some of
  them in-place changes (``xs.insert(-1, 4)``, ``d.update(...)``, ``del xs[::2]``), now and then an
  alias (``ys = xs`` then ``xs.append(...)``) or a copy, and a ``try``/``except`` around a call that
  may raise (``list.remove`` of a missing item, ``d[k]``, ``int(s)``);
- **mutate**: the same with most steps changing a list, dict or set in place;
- **loop**: a loop that accumulates method results: a list of results, a running dict of counts or
  groups, a string built piece by piece, a total or a set, sometimes through a helper function
  whose own return is a builtin call;

each ending in a ``return`` whose expression is itself a builtin or method call (sometimes two
chained: ``return s.rpartition(',')[0].upper()``), written as a function with a call of literals
or, a quarter of the time, as a module-level script that prints. Operations are drawn from the API
of the types (``OPS``), not from any benchmark's functions. Written for this project (no third-party
code or data). Worker-side: imports neither numpy nor torch.

    python3 -m training.data.builtins_mix --n 5 --seed 1     # prints programs as JSONL
"""

from __future__ import annotations

import ast
import builtins
import copy
import io
import keyword
import random
import sys
from contextlib import redirect_stdout
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional

from .generator import ProgramRandom
from .programs import Program, print_programs, program_hash
from .values import WORDS, source_of

ORIGIN = "methods"
MAX_LINES = 40
MAX_EVENTS = 260  # counted here (call, line, return, exception of the program's frames), below the ~300 asked
MAX_REPR = 90  # the repr of any value a program holds: what the model has to write stays short
MAX_STR = 60
FILENAME = "<builtins_mix>"

# Names the templates write themselves (comprehension and lambda variables, a handler's name): a
# drawn name is never one of them, nor a builtin or keyword.
_TEMPLATE_VARS = set("w n c kv p k i a b x ch e err _ q".split())
_TAKEN = set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist) | _TEMPLATE_VARS

NAMES = {
    "str": ["s", "text", "line", "word", "label", "raw", "msg", "title", "path", "code", "entry", "head", "tail", "clean", "joined", "padded", "first", "rest"],
    "list": ["xs", "nums", "values", "data", "scores", "temps", "ids", "marks", "deltas", "sizes", "ys"],
    "words": ["words", "names", "tokens", "parts", "tags", "fields", "pieces", "chunks", "items", "cells"],
    "dict": ["d", "counts", "table", "stock", "ages", "prices", "lookup", "config", "totals", "index", "inventory"],
    "set": ["seen", "pool", "evens", "picked", "group", "bag", "visited", "keep", "ids_set"],
    "tuple": ["t", "point", "triple", "coords", "record", "dims", "rgb", "span"],
    "pairs": ["pairs", "entries", "rows", "records", "ranking", "couples"],
    "int": ["count", "idx", "pos", "size", "width", "num", "limit", "found", "hits", "m", "total"],
    "float": ["ratio", "avg", "price", "score", "mean", "temp", "y", "share"],
    "bool": ["ok", "flag", "has", "is_ok", "same", "done", "valid"],
    "none": ["missing", "nothing", "got"],
    "other": ["res", "r", "val", "outcome", "info", "blob", "result"],
}
ITEM_NAMES = {
    "str": ["word", "token", "item", "part", "piece", "name", "line", "entry", "tok"],
    "char": ["char", "letter", "symbol", "glyph"],
    "int": ["num", "value", "item", "n_", "cur", "number", "score"],
    "key": ["key", "name", "label", "k_"],
    "other": ["item", "elem", "thing", "entry"],
}
HELPER_NAMES = ["clean", "norm", "key_of", "score", "shorten", "tidy", "measure", "label_of", "convert", "fix", "encode", "weight_of", "shape_of"]
FUNC_NAMES = ["process", "transform", "summarize", "analyze", "tally", "rebuild", "normalize", "parse_text", "run", "main", "compute",
              "reshape", "collect", "inspect", "merge", "extract", "report", "demo", "check", "build"]

# ----------------------------------------------------------------------------------------------
# Literals: long and messy on purpose (repeats, empties, whitespace, mixed case, negatives,
# duplicates, unicode letters sometimes)

UNICODE_WORDS = ["café", "naïve", "straße", "über", "jalapeño", "façade", "résumé", "Ærø", "piñata", "Ωmega", "δέλτα", "crème", "Zürich", "mañana"]
ODD_WORDS = ["Apple", "APPLE", "apple", "x", "id", "ok", "a1", "b2", "42", "007", "-3", "3.5", "N/A", "", " ", "  pad  ", "foo_bar",
             "FooBar", "hello!", "yes", "no", "None", "true", "e-mail", "O'Neil", "abc123", "ABC", "xXx"]


def rand_word(g: "Mix") -> str:
    r = g.rng.random()
    if r < 0.5:
        w = g.choice(WORDS)
    elif r < 0.62:
        w = g.choice(WORDS).capitalize() if g.chance(0.7) else g.choice(WORDS).upper()
    elif r < 0.7:
        w = g.choice(UNICODE_WORDS)
    elif r < 0.82:
        w = "".join(g.choice(list("abcdeilmnorstuy")) for _ in range(g.small(1, 8)))
    else:
        w = g.choice(ODD_WORDS)
    return w


def rand_text(g: "Mix") -> str:
    kind = g.rng.choices(["sentence", "csv", "kv", "path", "lines", "tabs", "number", "word", "repeat", "mixed", "blank", "ident", "unicode"],
                         weights=[5, 3, 2, 1.5, 1.5, 0.7, 1.5, 2, 1.5, 1.5, 0.6, 1.2, 0.8])[0]
    if kind == "sentence":
        ws = [g.choice(WORDS) for _ in range(g.small(2, 7))]
        if g.chance(0.4):
            ws[0] = ws[0].capitalize()
        if g.chance(0.3):
            ws[g.rng.randrange(len(ws))] += g.choice([",", "!", ".", "?", ";"])
        s = g.choice([" ", " ", "  "]).join(ws)
        if g.chance(0.35):
            s = g.choice([" ", "  ", "\t", ""]) + s + g.choice([" ", "   ", ".", "!", "\n"])
        return s
    if kind == "csv":
        sep = g.choice([",", ", ", ";", "|", ","])
        cells = [g.choice([g.choice(WORDS), str(g.rng.randint(-20, 99)), "", " " + g.choice(WORDS) + " ", g.choice(WORDS).upper()]) for _ in range(g.small(2, 7))]
        return sep.join(cells)
    if kind == "kv":
        pairs = [f"{g.choice(['x', 'y', 'id', 'name', 'size', 'mode', 'level', 'a', 'b'])}{g.choice(['=', ':', '='])}{g.choice([str(g.rng.randint(-9, 99)), g.choice(WORDS)])}" for _ in range(g.small(2, 5))]
        return g.choice([";", "&", ", ", " "]).join(pairs)
    if kind == "path":
        parts = [g.choice(WORDS + ["usr", "local", "bin", "tmp", "docs", "src"]) for _ in range(g.small(2, 4))]
        s = "/".join(parts) + g.choice(["", ".txt", ".tar.gz", ".py", "/"])
        return ("/" + s) if g.chance(0.4) else s
    if kind == "lines":
        rows = [g.choice(["", " ".join(g.choice(WORDS) for _ in range(g.small(1, 3))), "  " + g.choice(WORDS)]) for _ in range(g.small(2, 4))]
        return "\n".join(rows) + g.choice(["", "\n"])
    if kind == "tabs":
        return "\t".join(g.choice(WORDS)[: g.small(1, 6)] for _ in range(g.small(2, 4)))
    if kind == "number":
        return g.choice(["0042", "-17", " 12 ", "3.75", "1e3", "12abc", "1_000", "+8", "٣", "0", "-0.5", "2024", " 7", "99", "1,234", "0x1f", "10"])
    if kind == "word":
        return rand_word(g)
    if kind == "repeat":
        piece = g.choice(["ab", "na", "la-", "ha", "xo", "abc", "to", "a b ", "Yo"])
        return piece * g.small(2, 5) + g.choice(["", "!", " end", piece[:1]])
    if kind == "mixed":
        return g.choice(["Hello World 2024!", "mIxEd CaSe", "ID-42-x", "the Quick BROWN fox", "R2-D2 and C-3PO", "Room 101, Floor 3",
                         "aaa bbb aaa", "Mississippi", "banana split", "CamelCaseString", "  spaced   out  ", "ALL CAPS here", "o.k. then..."])
    if kind == "blank":
        return g.choice(["", " ", "   ", " \t\n ", "\n"])
    if kind == "ident":
        ws = [g.choice(WORDS) for _ in range(g.small(2, 4))]
        return g.choice(["_".join(ws), "".join(w.capitalize() for w in ws), "-".join(ws), "_".join(ws).upper()])
    return " ".join(g.choice(UNICODE_WORDS + WORDS[:6]) for _ in range(g.small(2, 4)))


def rand_ints(g: "Mix", lo: int = 0, hi: int = 9) -> list[int]:
    n = g.rng.choice([0, 1, 2, 3, 4, 5, 5, 6, 6, 7, 8, 9]) if hi == 9 and lo == 0 else g.rng.randint(lo, hi)
    style = g.choice(["small", "small", "wide", "dups", "sorted"])
    if style == "wide":
        xs = [g.rng.randint(-50, 120) for _ in range(n)]
    elif style == "dups":
        pool = [g.rng.randint(-5, 12) for _ in range(g.small(1, 3))]
        xs = [g.choice(pool) for _ in range(n)]
    else:
        xs = [g.rng.randint(-9, 25) for _ in range(n)]
    return sorted(xs) if style == "sorted" else xs


def rand_words(g: "Mix") -> list[str]:
    if g.chance(0.2):
        return rand_text(g).split(g.choice([None, ",", " "]))[:9]
    ws = [rand_word(g) for _ in range(g.rng.choice([0, 1, 2, 3, 4, 4, 5, 5, 6, 7]))]
    if ws and g.chance(0.35):  # duplicates
        ws.insert(g.rng.randrange(len(ws) + 1), g.choice(ws))
    return ws


def rand_dict(g: "Mix") -> dict[str, Any]:
    keys: list[str] = []
    for _ in range(g.rng.choice([0, 1, 2, 3, 3, 4, 4, 5, 6])):
        w = rand_word(g) if g.chance(0.6) else g.choice(WORDS)
        if w not in keys:
            keys.append(w)
    if g.chance(0.8):
        return {k: g.rng.randint(-10, 50) for k in keys}
    return {k: rand_word(g) for k in keys}


def rand_set(g: "Mix") -> set[int]:
    return {g.rng.randint(-5, 20) for _ in range(g.rng.choice([0, 1, 2, 3, 4, 5, 6, 7]))}


def rand_tuple(g: "Mix") -> tuple:
    if g.chance(0.6):
        return tuple(g.rng.randint(-9, 30) for _ in range(g.small(1, 6)))
    return tuple(g.choice([rand_word(g), g.rng.randint(-5, 50), g.choice([2.5, -1.0, 0.5]), True, None]) for _ in range(g.small(2, 5)))


def rand_pairs(g: "Mix") -> Any:
    pairs = [(g.choice(WORDS) if g.chance(0.8) else rand_word(g), g.rng.randint(-5, 40)) for _ in range(g.small(1, 6))]
    return tuple(pairs) if g.chance(0.25) else pairs


def rand_float(g: "Mix") -> float:
    if g.chance(0.6):
        return g.choice([2.5, 3.5, -1.5, 0.125, 2.675, 1.005, 3.14159, 10.0, -0.5, 7.25, 0.001, 12.345, 4.5, -2.5, 99.95, 0.1])
    return round(g.rng.uniform(-30, 120), g.small(1, 3))


def rand_int(g: "Mix") -> int:
    r = g.rng.random()
    if r < 0.1:
        return 0
    if r < 0.6:
        return g.rng.randint(1, 30)
    if r < 0.8:
        return -g.rng.randint(1, 40)
    return g.rng.randint(31, 999)


MAKERS: dict[str, Callable[["Mix"], Any]] = {"str": rand_text, "list": rand_ints, "words": rand_words, "dict": rand_dict, "set": rand_set,
                                             "tuple": rand_tuple, "pairs": rand_pairs, "float": rand_float, "int": rand_int}

# ----------------------------------------------------------------------------------------------
# What a value is


def is_str(x: Any) -> bool:
    return type(x) is str


def is_nestr(x: Any) -> bool:
    return type(x) is str and len(x) > 0


def is_list(x: Any) -> bool:
    return type(x) is list


def is_nelist(x: Any) -> bool:
    return type(x) is list and len(x) > 0


def is_ints(x: Any) -> bool:
    return type(x) is list and all(type(e) is int for e in x)


def is_words(x: Any) -> bool:
    return type(x) is list and all(type(e) is str for e in x)


def is_sortable(x: Any) -> bool:
    return type(x) in (list, tuple) and (all(type(e) in (int, float) for e in x) or all(type(e) is str for e in x))


def is_dict(x: Any) -> bool:
    return type(x) is dict and all(type(k) is str for k in x)


def is_dint(x: Any) -> bool:
    return is_dict(x) and all(type(v) is int for v in x.values())


def is_nedict(x: Any) -> bool:
    return is_dict(x) and len(x) > 0


def is_set(x: Any) -> bool:
    return type(x) is set and all(type(e) is int for e in x)


def is_tuple(x: Any) -> bool:
    return type(x) is tuple



def is_pairs(x: Any) -> bool:
    return type(x) in (list, tuple) and len(x) > 0 and all(type(e) is tuple and len(e) == 2 and type(e[0]) is str and type(e[1]) is int for e in x)


def is_int(x: Any) -> bool:
    return type(x) is int


def is_float(x: Any) -> bool:
    return type(x) is float


def is_num(x: Any) -> bool:
    return type(x) in (int, float)


def is_bool(x: Any) -> bool:
    return type(x) is bool


def is_sized(x: Any) -> bool:
    return type(x) in (str, list, tuple, dict, set)


def any_value(x: Any) -> bool:
    return True


def kind_of(x: Any) -> str:
    if type(x) is bool:
        return "bool"
    if x is None:
        return "none"
    if type(x) in (int, float, str, set):
        return {int: "int", float: "float", str: "str", set: "set"}[type(x)]
    if is_pairs(x):
        return "pairs"
    if type(x) is list:
        return "list" if is_ints(x) else "words" if is_words(x) else "other"
    if type(x) is dict:
        return "dict"
    if type(x) is tuple:
        return "tuple"
    return "other"


# ----------------------------------------------------------------------------------------------
# Arguments chosen from the value itself

SEPS = [",", " ", ";", "=", "/", "-", ".", ":", "|", ", ", "\n", "\t", "  ", "a", "x"]


def q(x: Any) -> str:
    return source_of(x)


def sep_of(g: "Mix", s: str) -> str:
    present = [c for c in SEPS if c in s]
    return q(g.choice(present) if present and g.chance(0.8) else g.choice(SEPS[:10]))


def sub_of(g: "Mix", s: str) -> str:
    if s and g.chance(0.7):
        i = g.rng.randrange(len(s))
        return q(s[i : i + g.small(1, 3)])
    return q(g.choice(["a", "e", "o", " ", ",", "xy", "the", "an", "!", "1", "A", "ss", "é"]))


def chars_of(g: "Mix", s: str) -> str:
    if s and g.chance(0.6):
        return q("".join(sorted(set(s[:2] + s[-2:]))))
    return q(g.choice([" ", " .,!", ".", "-", "xyz", "0", "*#", "\n ", "ab", "!?"]))


def prefix_of(g: "Mix", s: str) -> str:
    if s and g.chance(0.6):
        return q(s[: g.small(1, 4)])
    return q(g.choice(["a", "the", "x", "/", " ", "ab", "A"]))


def suffix_of(g: "Mix", s: str) -> str:
    if s and g.chance(0.6):
        return q(s[-g.small(1, 4) :])
    return q(g.choice(["s", "ing", ".txt", "!", " ", "ed", "a"]))


def pos_in(g: "Mix", x: Any, neg: float = 0.35) -> int:
    n = max(1, len(x))
    if g.chance(0.1):
        return n + g.small(1, 4)  # past the end
    return -g.rng.randint(1, n) if g.chance(neg) else g.rng.randrange(n)


def width_of(g: "Mix", s: str) -> int:
    return max(0, min(40, len(s) + g.rng.randint(-2, 7)))


def fill_char(g: "Mix") -> str:
    return q(g.choice(list("*-._#=0~")))


def elem_of(g: "Mix", xs: Any) -> str:
    if len(xs) and g.chance(0.7):
        return q(g.choice(list(xs)))
    return q(fresh_elem(g, xs))


def fresh_elem(g: "Mix", xs: Any) -> Any:
    if is_words(xs) and (xs or g.chance(0.5)):
        return rand_word(g) if g.chance(0.6) else g.choice(["", "zzz", "apple", "X"])
    if is_pairs(xs):
        return (g.choice(WORDS), g.rng.randint(-5, 40))
    return g.rng.randint(-9, 30)


def key_of(g: "Mix", d: dict) -> str:
    if d and g.chance(0.7):
        return q(g.choice(list(d)))
    return q(g.choice(WORDS) if g.chance(0.7) else rand_word(g))


def dval(g: "Mix", d: dict) -> str:
    if d and all(type(v) is str for v in d.values()):
        return q(rand_word(g))
    return q(g.rng.randint(-10, 50))


def ident(g: "Mix") -> str:
    return g.choice(["size", "color", "mode", "qty", "level", "kind", "tag", "owner"])


def ints_lit(g: "Mix", lo: int = 1, hi: int = 4) -> str:
    return q([g.rng.randint(-5, 20) for _ in range(g.small(lo, hi))])


def set_lit(g: "Mix", base: Any = ()) -> str:
    items = set(g.rng.sample(sorted(base), min(len(base), g.small(0, 2)))) if base else set()
    items |= {g.rng.randint(-5, 20) for _ in range(g.small(1, 4))}
    return q(items)


# ----------------------------------------------------------------------------------------------
# Operations: the API of each type. A template writes code for an operand (a name, or an
# expression when calls are chained) given its value; None when it does not apply.

Template = Callable[["Mix", str, Any], Optional[str]]


@dataclass
class Op:
    tags: tuple[str, ...]  # "str.split", "list.append", "builtin.sorted", "list:del" (syntax, not a method)
    kind: str  # "expr" (a value) or "stmt" (changes a value in place, or binds names)
    pred: Callable[[Any], bool]
    templates: tuple[Template, ...]
    weight: float = 1.0
    call: bool = True  # the expression is a call (what a return expression should be)


OPS: list[Op] = []


def E(tags: str, pred: Callable[[Any], bool], *templates: Template, weight: float = 1.0, call: bool = True) -> None:
    OPS.append(Op(tuple(tags.split("+")), "expr", pred, templates, weight, call))


def S(tags: str, pred: Callable[[Any], bool], *templates: Template, weight: float = 1.0) -> None:
    OPS.append(Op(tuple(tags.split("+")), "stmt", pred, templates, weight, False))


# -- str ---------------------------------------------------------------------------------------
E("str.split", is_str,
  lambda g, v, x: f"{v}.split()", lambda g, v, x: f"{v}.split({sep_of(g, x)})",
  lambda g, v, x: f"{v}.split({sep_of(g, x)}, {g.small(1, 3)})", lambda g, v, x: f"{v}.split(maxsplit={g.small(1, 2)})")
E("str.rsplit", is_str,
  lambda g, v, x: f"{v}.rsplit({sep_of(g, x)}, {g.small(1, 2)})", lambda g, v, x: f"{v}.rsplit(maxsplit=1)",
  lambda g, v, x: f"{v}.rsplit({sep_of(g, x)})", lambda g, v, x: f"{v}.rsplit(None, {g.small(1, 2)})")
E("str.partition", is_str, lambda g, v, x: f"{v}.partition({sep_of(g, x)})", lambda g, v, x: f"{v}.partition({sep_of(g, x)})[{g.choice(['0', '2', '-1'])}]")
E("str.rpartition", is_str, lambda g, v, x: f"{v}.rpartition({sep_of(g, x)})", lambda g, v, x: f"{v}.rpartition({sep_of(g, x)})[{g.choice(['0', '2', '1'])}]")
for _m in ("strip", "lstrip", "rstrip"):
    E(f"str.{_m}", is_str, lambda g, v, x, m=_m: f"{v}.{m}()", lambda g, v, x, m=_m: f"{v}.{m}({chars_of(g, x)})")
E("str.replace", is_str,
  lambda g, v, x: f"{v}.replace({sub_of(g, x)}, {q(g.choice(['', '_', '-', ' ', '**', 'X', 'ee', '0']))})",
  lambda g, v, x: f"{v}.replace({sub_of(g, x)}, {q(g.choice(['', '_', '#', 'Y']))}, {g.small(1, 2)})",
  lambda g, v, x: f"{v}.replace(' ', '')")
for _m in ("find", "rfind", "index", "rindex", "count"):
    E(f"str.{_m}", is_str,
      lambda g, v, x, m=_m: f"{v}.{m}({sub_of(g, x)})",
      lambda g, v, x, m=_m: f"{v}.{m}({sub_of(g, x)}, {pos_in(g, x)})",
      lambda g, v, x, m=_m: f"{v}.{m}({sub_of(g, x)}, {g.small(0, 3)}, {pos_in(g, x, 0.5)})")
for _m, _pick in (("startswith", prefix_of), ("endswith", suffix_of)):
    E(f"str.{_m}", is_str,
      lambda g, v, x, m=_m, f=_pick: f"{v}.{m}({f(g, x)})",
      lambda g, v, x, m=_m, f=_pick: f"{v}.{m}(({f(g, x)}, {f(g, x)}))",
      lambda g, v, x, m=_m: f"{v}.{m}({sub_of(g, x)}, {pos_in(g, x)})")
for _m in ("center", "ljust", "rjust"):
    E(f"str.{_m}", is_str, lambda g, v, x, m=_m: f"{v}.{m}({width_of(g, x)})", lambda g, v, x, m=_m: f"{v}.{m}({width_of(g, x)}, {fill_char(g)})")
E("str.zfill", is_str, lambda g, v, x: f"{v}.zfill({width_of(g, x)})")
for _m in ("upper", "lower", "title", "capitalize", "swapcase", "casefold"):
    E(f"str.{_m}", is_str, lambda g, v, x, m=_m: f"{v}.{m}()", weight=0.7)
E("str.join", is_str,
  lambda g, v, x: f"{q(g.choice(['-', ' ', '', '.', ', ', '|']))}.join({v})", lambda g, v, x: f"{q(g.choice(['', '-', '+']))}.join(reversed({v}))",
  lambda g, v, x: f"{q(g.choice(['', ' ', '/']))}.join(sorted({v}))")
E("str.join", is_words,
  lambda g, v, x: f"{q(g.choice([' ', ',', ', ', '', '-', ' | ', chr(10)]))}.join({v})",
  lambda g, v, x: f"{q(g.choice([' ', '-', '']))}.join(w.{g.choice(['upper', 'strip', 'title', 'lower'])}() for w in {v})",
  lambda g, v, x: f"{q(g.choice([',', ' ']))}.join(sorted({v}, key=str.lower))",
  lambda g, v, x: f"{q(g.choice(['', '.']))}.join(w[:1] for w in {v} if w)",
  lambda g, v, x: f"{q(g.choice(['/', '_']))}.join(w for w in {v} if w.strip())")
E("str.join", is_ints, lambda g, v, x: f"{q(g.choice([',', ' ', '-', '']))}.join(map(str, {v}))", lambda g, v, x: f"{q(g.choice([' + ', ', ']))}.join(str(n) for n in {v})")
E("str.splitlines", is_str, lambda g, v, x: f"{v}.splitlines()", lambda g, v, x: f"{v}.splitlines(keepends=True)", lambda g, v, x: f"{v}.splitlines(True)")
E("str.expandtabs", is_str, lambda g, v, x: f"{v}.expandtabs()", lambda g, v, x: f"{v}.expandtabs({g.small(1, 6)})")
for _m in ("isdigit", "isalpha", "isspace", "isupper", "islower", "isalnum", "istitle", "isdecimal", "isnumeric", "isidentifier", "isprintable", "isascii"):
    E(f"str.{_m}", is_str, lambda g, v, x, m=_m: f"{v}.{m}()", weight=0.3)
E("str.translate+str.maketrans", is_str,
  lambda g, v, x: (lambda a: f"{v}.translate(str.maketrans({q(a)}, {q(''.join(g.choice(list('xyz*_0123AEIOU')) for _ in a))}))")(''.join(g.rng.sample('aeiostnrl ', g.small(1, 3)))),
  lambda g, v, x: f"{v}.translate(str.maketrans({q(g.choice(['ab', 'ae', 'lo']))}, {q(g.choice(['ba', 'AE', '01']))}, {q(g.choice([' ', 'aeiou', ',.!', '-']))}))",
  lambda g, v, x: f"{v}.translate(str.maketrans({{{q(g.choice('aeiou'))}: {q(g.choice(['1', '*', 'AA']))}, {q(g.choice([' ', ',', 's']))}: None}}))")
E("str.format", is_str,
  lambda g, v, x: f"'[{{}}]'.format({v})", lambda g, v, x: f"'{{:>{width_of(g, x)}}}|'.format({v})", lambda g, v, x: f"'{{0}}-{{0}}'.format({v})",
  lambda g, v, x: f"'{{:{g.choice('*-.')}^{width_of(g, x)}}}'.format({v})", lambda g, v, x: f"'{{!r}} has {{}} chars'.format({v}, len({v}))",
  lambda g, v, x: f"'{{:.{g.small(1, 4)}}}'.format({v})")
E("str.format", is_int, lambda g, v, x: f"'{{:,}}'.format({v})", lambda g, v, x: f"'{{:+d}}'.format({v})", lambda g, v, x: f"'{{:0{g.small(3, 6)}d}}'.format({v})",
  lambda g, v, x: f"'{{:x}}/{{:o}}'.format({v}, {v})", lambda g, v, x: f"'{{:>6}}|{{:<4}}|'.format({v}, {v})")
E("str.format", is_float, lambda g, v, x: f"'{{:.{g.small(0, 3)}f}}'.format({v})", lambda g, v, x: f"'{{:8.2f}}'.format({v})", lambda g, v, x: f"'{{:.1%}}'.format({v})",
  lambda g, v, x: f"'{{:e}}'.format({v})")
E("str.format_map", lambda x: is_dict(x) and any(k.isidentifier() for k in x),
  lambda g, v, x: (lambda k: f"'{{{k}}}|'.format_map({v})")(g.choice([k for k in x if k.isidentifier()])),
  lambda g, v, x: (lambda k: f"'{k}={{{k}!r}}'.format_map({v})")(g.choice([k for k in x if k.isidentifier()])))
E("str.removeprefix", is_str, lambda g, v, x: f"{v}.removeprefix({prefix_of(g, x)})")
E("str.removesuffix", is_str, lambda g, v, x: f"{v}.removesuffix({suffix_of(g, x)})")
E("str.encode", is_str, lambda g, v, x: f"{v}.encode()", lambda g, v, x: f"len({v}.encode('utf-8'))", weight=0.5)
E("bytes.decode", lambda x: type(x) is bytes, lambda g, v, x: f"{v}.decode()", lambda g, v, x: f"{v}.decode('utf-8').upper()")
E("str:getitem", is_nestr, lambda g, v, x: f"{v}[{pos_in(g, x) % len(x) if g.chance(0.5) else -g.rng.randint(1, len(x))}]", call=False)
E("str:slice", is_str,
  lambda g, v, x: f"{v}[{g.choice(['::-1', '::2', '1::2', '::-2', '1:-1'])}]", lambda g, v, x: f"{v}[{pos_in(g, x)}:]", lambda g, v, x: f"{v}[:{pos_in(g, x)}]",
  lambda g, v, x: f"{v}[-{g.small(1, 5)}:]", lambda g, v, x: f"{v}[{g.small(0, 3)}:{pos_in(g, x)}:{g.choice([2, 3, -1])}]", call=False)
E("str:ops", is_str,
  lambda g, v, x: f"{v} * {g.small(2, 3)}", lambda g, v, x: f"{v} + {q(g.choice(['!', '...', ' ', '-x', '']))}", lambda g, v, x: f"{sub_of(g, x)} in {v}",
  lambda g, v, x: f"{v} == {v}[::-1]", lambda g, v, x: f"{v}.lower() < {q(g.choice(WORDS))}", lambda g, v, x: f"{sub_of(g, x)} not in {v}", weight=0.7, call=False)
E("builtin.any", is_str, lambda g, v, x: f"any(c.{g.choice(['isdigit', 'isupper', 'isspace', 'isalpha'])}() for c in {v})")
E("builtin.all", is_str, lambda g, v, x: f"all(c.isalpha() or c == ' ' for c in {v})", lambda g, v, x: f"all(w.istitle() for w in {v}.split())")
E("builtin.len", is_sized, lambda g, v, x: f"len({v})", weight=0.6)
E("builtin.sorted", is_str, lambda g, v, x: f"sorted({v})", lambda g, v, x: f"sorted({v}, reverse=True)", lambda g, v, x: f"sorted({v}.split(), key=len)",
  lambda g, v, x: f"sorted({v}.lower().split(), key=lambda w: (len(w), w))")
E("builtin.set", is_str, lambda g, v, x: f"sorted(set({v}))", lambda g, v, x: f"len(set({v}))", lambda g, v, x: f"''.join(sorted(set({v})))",
  lambda g, v, x: f"sorted(set({v}.split()), key={v}.split().index)")
E("builtin.reversed", is_str, lambda g, v, x: f"''.join(reversed({v}))", lambda g, v, x: f"list(reversed({v}.split()))")
E("builtin.enumerate", is_str, lambda g, v, x: f"list(enumerate({v}[:{g.small(2, 5)}]))", lambda g, v, x: f"list(enumerate({v}.split(), {g.choice([1, 1, 10, -1])}))",
  lambda g, v, x: f"[i for i, c in enumerate({v}) if c == {q(g.choice(list(x)) if x else ' ')}]")
E("builtin.zip", is_str, lambda g, v, x: f"list(zip({v}[:{g.small(2, 5)}], {v}[-{g.small(1, 4)}:]))",
  lambda g, v, x: f"[a + b for a, b in zip({v}, {v}[1:{g.small(3, 6)}])]")
E("builtin.ord", is_nestr, lambda g, v, x: f"ord({v}[{g.choice(['0', '-1'])}])", lambda g, v, x: f"[ord(c) for c in {v}[:{g.small(2, 4)}]]", lambda g, v, x: f"sum(ord(c) for c in {v}) % {g.small(7, 100)}")
E("builtin.max", is_str, lambda g, v, x: f"max({v})" if x else None, lambda g, v, x: f"max({v}.split(), key=len, default='')", lambda g, v, x: f"max({v}.split(), default='none')")
E("builtin.min", is_str, lambda g, v, x: f"min({v}.split(), key=len, default='')", lambda g, v, x: f"min({v}) if {v} else ''", lambda g, v, x: f"min({v}.lower().split(), default='?')")
E("builtin.map", is_str, lambda g, v, x: f"list(map(str.{g.choice(['upper', 'title', 'strip'])}, {v}.split({sep_of(g, x)})))",
  lambda g, v, x: f"list(map(len, {v}.split()))", lambda g, v, x: f"list(map(lambda w: w[::-1], {v}.split()))")
E("builtin.filter", is_str, lambda g, v, x: f"''.join(filter(str.{g.choice(['isalnum', 'isalpha', 'isdigit', 'isupper'])}, {v}))",
  lambda g, v, x: f"list(filter(None, {v}.split({sep_of(g, x)})))", lambda g, v, x: f"''.join(filter(lambda c: c not in {chars_of(g, x)}, {v}))")
E("builtin.int", is_str, lambda g, v, x: f"int({v})", lambda g, v, x: f"int({v}.strip() or '0')", lambda g, v, x: f"int({v}, {g.choice([2, 8, 16, 36])})",
  lambda g, v, x: f"int({v}) if {v}.strip().lstrip('-').isdigit() else -1", weight=0.8)
E("builtin.float", is_str, lambda g, v, x: f"float({v})", lambda g, v, x: f"float({v}.replace(',', '') or 0)", weight=0.6)
E("builtin.bool", any_value, lambda g, v, x: f"bool({v})", weight=0.2)
E("builtin.list", is_str, lambda g, v, x: f"list({v}[:{g.small(3, 8)}])")
# -- list --------------------------------------------------------------------------------------
S("list.append", is_list, lambda g, v, x: f"{v}.append({q(fresh_elem(g, x)) if g.chance(0.6) else elem_of(g, x)})")
S("list.extend", is_list,
  lambda g, v, x: f"{v}.extend({q([fresh_elem(g, x) for _ in range(g.small(1, 3))])})",
  lambda g, v, x: f"{v}.extend({v}[:{g.small(1, 2)}])",
  lambda g, v, x: f"{v}.extend(range({g.small(0, 3)}))" if is_ints(x) else f"{v}.extend({q(g.choice(['ab', 'xy', 'hi']))})",
  lambda g, v, x: (lambda o: f"{v}.extend({o})" if o else None)(g.other(v, is_list)))
S("list.insert", is_list,
  lambda g, v, x: f"{v}.insert(0, {q(fresh_elem(g, x))})", lambda g, v, x: f"{v}.insert(-1, {q(fresh_elem(g, x))})",
  lambda g, v, x: f"{v}.insert({len(x) + g.small(1, 5)}, {q(fresh_elem(g, x))})", lambda g, v, x: f"{v}.insert({pos_in(g, x)}, {elem_of(g, x)})",
  lambda g, v, x: f"{v}.insert(-{g.small(2, 9)}, {q(fresh_elem(g, x))})", lambda g, v, x: f"{v}.insert(len({v}) // 2, {q(fresh_elem(g, x))})")
S("list.pop", is_nelist, lambda g, v, x: f"{v}.pop()", lambda g, v, x: f"{v}.pop(0)", lambda g, v, x: f"{v}.pop({pos_in(g, x)})", lambda g, v, x: f"{v}.pop(-2)")
E("list.pop", is_nelist, lambda g, v, x: f"{v}.pop()", lambda g, v, x: f"{v}.pop(0)", lambda g, v, x: f"{v}.pop({pos_in(g, x)})")
S("list.remove", is_nelist, lambda g, v, x: f"{v}.remove({q(g.choice(x))})")
S("list.sort", lambda x: type(x) is list and is_sortable(x),
  lambda g, v, x: f"{v}.sort()", lambda g, v, x: f"{v}.sort(reverse=True)",
  lambda g, v, x: f"{v}.sort(key={g.choice(['abs', 'lambda n: (n % 3, n)', 'lambda n: -n', 'lambda n: str(n)'])})" if is_ints(x) else f"{v}.sort(key={g.choice(['len', 'str.lower', 'lambda w: w[-1:]', 'lambda w: (len(w), w)'])})",
  lambda g, v, x: f"{v}.sort(key={'abs' if is_ints(x) else 'len'}, reverse=True)")
S("list.sort", lambda x: type(x) is list and is_pairs(x), lambda g, v, x: f"{v}.sort(key=lambda p: p[1])", lambda g, v, x: f"{v}.sort(key=lambda p: (-p[1], p[0]))")
S("list.reverse", is_list, lambda g, v, x: f"{v}.reverse()")
S("list.clear", is_nelist, lambda g, v, x: f"{v}.clear()", weight=0.3)
E("list.copy", is_list, lambda g, v, x: f"{v}.copy()", weight=0.5)
E("list.index", is_nelist, lambda g, v, x: f"{v}.index({q(g.choice(x))})", lambda g, v, x: f"{v}.index({q(g.choice(x))}, {g.small(0, 2)})",
  lambda g, v, x: f"{v}.index({elem_of(g, x)}) if {elem_of(g, x)} in {v} else -1")
E("list.count", is_list, lambda g, v, x: f"{v}.count({elem_of(g, x)})", lambda g, v, x: f"[{v}.count(n) for n in {v}]" if len(x) < 7 else None)
S("list:del", is_nelist, lambda g, v, x: f"del {v}[{pos_in(g, x) % len(x)}]", lambda g, v, x: f"del {v}[{g.small(0, 2)}:{g.small(2, 4)}]",
  lambda g, v, x: f"del {v}[::2]", lambda g, v, x: f"del {v}[-{g.small(1, 3)}:]", lambda g, v, x: f"del {v}[-1]")
S("list:setitem", is_nelist, lambda g, v, x: f"{v}[{pos_in(g, x) % len(x)}] = {q(fresh_elem(g, x))}", lambda g, v, x: f"{v}[-1] = {q(fresh_elem(g, x))}",
  lambda g, v, x: f"{v}[{g.small(0, 1)}:{g.small(1, 3)}] = {q([fresh_elem(g, x) for _ in range(g.small(0, 3))])}",
  lambda g, v, x: f"{v} += [{q(fresh_elem(g, x))}]", lambda g, v, x: f"{v}[:0] = {v}[-{g.small(1, 2)}:]")
E("list:slice", is_list,
  lambda g, v, x: f"{v}[{g.choice(['::2', '::-1', '1::2', '::-2', '1:-1', '-1:-4:-1', '::3'])}]", lambda g, v, x: f"{v}[-{g.small(1, 4)}:]",
  lambda g, v, x: f"{v}[{g.small(0, 4)}:{pos_in(g, x)}]", lambda g, v, x: f"{v}[{pos_in(g, x)}:{g.small(0, 2)}:-{g.small(1, 2)}]", lambda g, v, x: f"{v}[{len(x) + 2}:]", call=False)
E("list:getitem", is_nelist, lambda g, v, x: f"{v}[{pos_in(g, x) % len(x)}]", lambda g, v, x: f"{v}[-1]", lambda g, v, x: f"{v}[-{g.rng.randint(1, len(x))}]", weight=0.6, call=False)
E("list:ops", is_list,
  lambda g, v, x: (lambda o: f"{v} + {o or q([fresh_elem(g, x)])}")(g.other(v, is_list)), lambda g, v, x: f"{v} * 2", lambda g, v, x: f"{elem_of(g, x)} in {v}",
  lambda g, v, x: f"{v} == sorted({v})" if is_sortable(x) else None, lambda g, v, x: f"[{q(fresh_elem(g, x))}] + {v}[1:]", weight=0.7, call=False)
E("builtin.sorted", lambda x: type(x) in (list, tuple, set) and (is_sortable(x) or is_set(x)),
  lambda g, v, x: f"sorted({v})", lambda g, v, x: f"sorted({v}, reverse=True)",
  lambda g, v, x: (f"sorted({v}, key={g.choice(['abs', 'lambda n: -n', 'lambda n: (n % 2, n)', 'lambda n: (n > 0, abs(n))'])})"
                   if all(type(e) is int for e in x) else f"sorted({v}, key={g.choice(['len', 'str.lower', 'lambda w: w[::-1]', 'lambda w: (-len(w), w)'])})"),
  lambda g, v, x: f"sorted({v}, key={'abs' if all(type(e) is int for e in x) else 'len'}, reverse=True)")
E("builtin.sorted", is_pairs, lambda g, v, x: f"sorted({v}, key=lambda p: p[1])", lambda g, v, x: f"sorted({v}, key=lambda p: (-p[1], p[0]))",
  lambda g, v, x: f"sorted({v})", lambda g, v, x: f"sorted({v}, key=lambda p: len(p[0]), reverse=True)")
E("builtin.reversed", lambda x: type(x) in (list, tuple), lambda g, v, x: f"list(reversed({v}))", lambda g, v, x: f"tuple(reversed({v}))",
  lambda g, v, x: f"next(reversed({v}), None)")
E("builtin.enumerate", lambda x: type(x) in (list, tuple),
  lambda g, v, x: f"list(enumerate({v}))", lambda g, v, x: f"list(enumerate({v}, {g.choice([1, 1, 5, -2])}))",
  lambda g, v, x: f"[i * n for i, n in enumerate({v})]" if is_ints(x) else f"{{i: w for i, w in enumerate({v}, 1)}}",
  lambda g, v, x: f"[i for i, n in enumerate({v}) if n == {elem_of(g, x)}]")
E("builtin.zip", lambda x: type(x) in (list, tuple),
  lambda g, v, x: (lambda o: f"list(zip({v}, {o}))" if o else f"list(zip({v}, {q(rand_words(g)[:4])}))")(g.other(v, lambda y: type(y) in (list, tuple, str))),
  lambda g, v, x: f"list(zip({v}, {v}[1:]))",
  lambda g, v, x: f"[b - a for a, b in zip({v}, {v}[1:])]" if is_ints(x) else f"list(zip({v}, range({g.small(1, 4)})))",
  lambda g, v, x: f"dict(zip({v}, {q(list(range(g.small(1, 5))))}))" if all(type(e) in (str, int) for e in x) else None)
E("builtin.zip", is_pairs, lambda g, v, x: f"list(zip(*{v}))", lambda g, v, x: f"[list(col) for col in zip(*{v})]")
E("builtin.map", is_ints, lambda g, v, x: f"list(map(abs, {v}))", lambda g, v, x: f"list(map(lambda n: n * {g.small(2, 4)} - 1, {v}))",
  lambda g, v, x: f"list(map(str, {v}))", lambda g, v, x: f"list(map(lambda n: n % {g.small(2, 7)}, {v}))")
E("builtin.map", is_words, lambda g, v, x: f"list(map(len, {v}))", lambda g, v, x: f"list(map(str.{g.choice(['upper', 'title', 'strip', 'casefold'])}, {v}))",
  lambda g, v, x: f"list(map(lambda w: w[:{g.small(1, 3)}], {v}))", lambda g, v, x: f"list(map(lambda w: w.count({q(g.choice('aeiou'))}), {v}))")
E("builtin.filter", is_ints, lambda g, v, x: f"list(filter(lambda n: n > {g.rng.randint(-3, 10)}, {v}))", lambda g, v, x: f"list(filter(None, {v}))",
  lambda g, v, x: f"list(filter(lambda n: n % {g.small(2, 3)}, {v}))")
E("builtin.filter", is_words, lambda g, v, x: f"list(filter(str.{g.choice(['isalpha', 'isupper', 'istitle', 'isdigit'])}, {v}))", lambda g, v, x: f"list(filter(None, {v}))",
  lambda g, v, x: f"list(filter(lambda w: len(w) > {g.small(1, 4)}, {v}))")
E("builtin.sum", lambda x: type(x) in (list, tuple, set) and all(type(e) in (int, float) for e in x),
  lambda g, v, x: f"sum({v})", lambda g, v, x: f"sum({v}, {g.rng.randint(-10, 100)})", lambda g, v, x: f"sum(n for n in {v} if n > 0)",
  lambda g, v, x: f"sum(map(abs, {v}))", lambda g, v, x: f"sum(n * n for n in {v})")
E("builtin.sum", is_words, lambda g, v, x: f"sum(len(w) for w in {v})", lambda g, v, x: f"sum(1 for w in {v} if w.{g.choice(['istitle', 'isalpha', 'islower'])}())",
  lambda g, v, x: f"sum(map(len, {v}), {g.small(0, 5)})")
E("builtin.sum", is_pairs, lambda g, v, x: f"sum(n for _, n in {v})", lambda g, v, x: f"sum(p[1] for p in {v} if p[1] > 0)")
for _m in ("min", "max"):
    E(f"builtin.{_m}", lambda x: type(x) in (list, tuple, set) and (is_sortable(x) or is_set(x)),
      lambda g, v, x, m=_m: f"{m}({v})", lambda g, v, x, m=_m: f"{m}({v}, default={q(g.choice([0, -1, None, 'empty']))})",
      lambda g, v, x, m=_m: f"{m}({v}, key={'abs' if all(type(e) is int for e in x) else 'len'})",
      lambda g, v, x, m=_m: f"{m}({v}, key={'lambda n: (n % 5, n)' if all(type(e) is int for e in x) else 'str.lower'}, default=None)")
    E(f"builtin.{_m}", is_pairs, lambda g, v, x, m=_m: f"{m}({v}, key=lambda p: p[1])", lambda g, v, x, m=_m: f"{m}({v})[0]")
    E(f"builtin.{_m}", is_num, lambda g, v, x, m=_m: f"{m}({v}, {g.rng.randint(-5, 20)})", lambda g, v, x, m=_m: f"{m}({v}, {g.rng.randint(-5, 20)}, {g.rng.randint(-5, 20)})",
      lambda g, v, x: f"max({g.rng.randint(-5, 0)}, min({v}, {g.rng.randint(1, 20)}))")
E("builtin.any", lambda x: type(x) in (list, tuple, set),
  lambda g, v, x: f"any({v})", lambda g, v, x: f"any(n < 0 for n in {v})" if all(type(e) in (int, float) for e in x) else f"any(w.isupper() for w in {v})" if is_words(x) else None)
E("builtin.all", lambda x: type(x) in (list, tuple, set),
  lambda g, v, x: f"all({v})", lambda g, v, x: f"all(n % 2 == 0 for n in {v})" if all(type(e) is int for e in x) else f"all(w.islower() for w in {v})" if is_words(x) else None)
E("builtin.abs", is_ints, lambda g, v, x: f"[abs(n) for n in {v}]", lambda g, v, x: f"abs(sum({v}))", lambda g, v, x: f"max(abs(n) for n in {v})" if x else None)
E("builtin.abs", is_num, lambda g, v, x: f"abs({v})", lambda g, v, x: f"abs({v} - {g.rng.randint(-20, 20)})")
E("builtin.round", lambda x: is_ints(x) and len(x) > 0, lambda g, v, x: f"round(sum({v}) / len({v}), {g.small(0, 3)})", lambda g, v, x: f"round(sum({v}) / {g.small(2, 7)})",
  lambda g, v, x: f"[round(n / {g.small(2, 4)}) for n in {v}]")
E("builtin.round", is_float, lambda g, v, x: f"round({v})", lambda g, v, x: f"round({v}, {g.small(0, 2)})", lambda g, v, x: f"round({v}, -1)", lambda g, v, x: f"round({v} * 2) / 2")
E("builtin.round", is_int, lambda g, v, x: f"round({v}, -1)", lambda g, v, x: f"round({v} + 0.5)", lambda g, v, x: f"round({v} / {g.small(2, 8)}, 2)", lambda g, v, x: f"[round(h + 0.5) for h in range({v} % 4, {v} % 4 + 4)]")
E("builtin.divmod", is_ints, lambda g, v, x: f"divmod(sum({v}), {g.small(2, 7)})", lambda g, v, x: f"divmod(len({v}), {g.small(2, 4)})")
E("builtin.divmod", is_int, lambda g, v, x: f"divmod({v}, {g.small(2, 12)})", lambda g, v, x: f"divmod({v}, -{g.small(2, 7)})", lambda g, v, x: f"divmod(-{v}, {g.small(2, 7)})")
E("builtin.set", lambda x: type(x) in (list, tuple) and all(type(e) is int for e in x),
  lambda g, v, x: f"set({v})", lambda g, v, x: f"sorted(set({v}))", lambda g, v, x: f"len(set({v}))", lambda g, v, x: f"set({v}) & {set_lit(g, x)}",
  lambda g, v, x: f"len({v}) != len(set({v}))")
E("builtin.set", is_words, lambda g, v, x: f"sorted(set({v}))", lambda g, v, x: f"len(set({v}))", lambda g, v, x: f"sorted(set({v}), key={v}.index)",
  lambda g, v, x: f"sorted(set(w.lower() for w in {v}))")
E("builtin.tuple", lambda x: type(x) in (list, str, set), lambda g, v, x: f"tuple({v})" if not is_set(x) else f"tuple(sorted({v}))", lambda g, v, x: f"tuple(sorted({v}))" if is_sortable(x) or is_set(x) else None)
E("dict.fromkeys", lambda x: type(x) in (list, str, tuple) and all(type(e) in (str, int) for e in x),
  lambda g, v, x: f"dict.fromkeys({v})", lambda g, v, x: f"dict.fromkeys({v}, {q(g.choice([0, 1, None, '', []]))})", lambda g, v, x: f"list(dict.fromkeys({v}))")
E("builtin.dict", is_words, lambda g, v, x: f"dict(zip({v}, map(len, {v})))", lambda g, v, x: f"dict(enumerate({v}))")
E("builtin.dict", is_pairs, lambda g, v, x: f"dict({v})", lambda g, v, x: f"{{name: n for name, n in {v} if n > {g.rng.randint(0, 10)}}}")
E("builtin.dict", is_ints, lambda g, v, x: f"dict(enumerate({v}, 1))")
E("builtin.str", lambda x: type(x) in (list, tuple, int, float, bool, dict) or x is None, lambda g, v, x: f"str({v})", lambda g, v, x: f"str({v})[::-1]" if is_num(x) else f"str({v})[:{g.small(5, 12)}]", weight=0.3)
E("builtin.list", lambda x: type(x) in (tuple, set, dict, str), lambda g, v, x: f"list({v})" if not is_set(x) else f"list(sorted({v}))", weight=0.6)
E("builtin.isinstance", any_value, lambda g, v, x: f"isinstance({v}, {g.choice(['int', 'str', 'list', 'dict', 'tuple', 'float', 'bool'])})",
  lambda g, v, x: f"isinstance({v}, {g.choice(['(int, float)', '(list, tuple)', '(str, bytes)', '(set, dict)'])})", weight=0.25)
E("builtin.range", is_list, lambda g, v, x: f"list(range(len({v}) - 1, -1, -{g.small(1, 2)}))", lambda g, v, x: f"[{v}[i] for i in range(0, len({v}), {g.small(2, 3)})]",
  lambda g, v, x: f"[{v}[i] for i in range(len({v}) - 1, -1, -1)]")
E("builtin.range", is_int, lambda g, v, x: f"list(range({v} % 9))", lambda g, v, x: f"list(range({v}, {v} - {g.small(5, 15)}, -{g.small(1, 4)}))",
  lambda g, v, x: f"sum(range({v} % 12))", lambda g, v, x: f"len(range({g.rng.randint(-5, 5)}, {v}, {g.small(2, 5)}))", lambda g, v, x: f"list(range({v} % 10, -{g.small(1, 6)}, -{g.small(2, 3)}))")
E("builtin.next", is_list, lambda g, v, x: f"next((n for n in {v} if n > {g.rng.randint(-2, 10)}), None)" if is_ints(x) else f"next((w for w in {v} if w.{g.choice(['istitle', 'isupper', 'isdigit'])}()), None)" if is_words(x) else None,
  lambda g, v, x: f"next(iter({v}), {q(g.choice([0, None, 'none']))})")
# -- dict --------------------------------------------------------------------------------------
E("dict.get", is_dict, lambda g, v, x: f"{v}.get({key_of(g, x)})", lambda g, v, x: f"{v}.get({key_of(g, x)}, {dval(g, x)})",
  lambda g, v, x: f"{v}.get({key_of(g, x)}, 0) + {g.small(1, 5)}" if is_dint(x) else None, lambda g, v, x: f"[{v}.get(k, -1) for k in {q([rand_word(g) if g.chance(0.4) else g.choice(list(x) or WORDS) for _ in range(g.small(2, 3))])}]")
E("dict.setdefault", is_dict, lambda g, v, x: f"{v}.setdefault({key_of(g, x)}, {dval(g, x)})", lambda g, v, x: f"{v}.setdefault({key_of(g, x)})")
S("dict.setdefault", is_dict, lambda g, v, x: f"{v}.setdefault({key_of(g, x)}, {dval(g, x)})")
E("dict.pop", is_dict, lambda g, v, x: f"{v}.pop({key_of(g, x)}, {q(g.choice([None, 0, -1, 'missing']))})", lambda g, v, x: f"{v}.pop({q(g.choice(list(x)))})" if x else None)
S("dict.pop", is_nedict, lambda g, v, x: f"{v}.pop({q(g.choice(list(x)))})", lambda g, v, x: f"{v}.pop({key_of(g, x)}, None)")
E("dict.popitem", is_nedict, lambda g, v, x: f"{v}.popitem()")
S("dict.popitem", is_nedict, lambda g, v, x: f"{v}.popitem()", weight=0.5)
S("dict.update", is_dict,
  lambda g, v, x: f"{v}.update({{{key_of(g, x)}: {dval(g, x)}, {key_of(g, x)}: {dval(g, x)}}})", lambda g, v, x: f"{v}.update({ident(g)}={dval(g, x)})",
  lambda g, v, x: f"{v}.update([({key_of(g, x)}, {dval(g, x)})])", lambda g, v, x: (lambda o: f"{v}.update({o})" if o else None)(g.other(v, is_dict)),
  lambda g, v, x: f"{v}.update(zip({q([g.choice(WORDS) for _ in range(2)])}, {q([g.small(0, 9) for _ in range(3)])}))" if is_dint(x) else None)
E("dict.keys", is_dict, lambda g, v, x: f"list({v}.keys())", lambda g, v, x: f"sorted({v}.keys())", lambda g, v, x: f"{key_of(g, x)} in {v}.keys()",
  lambda g, v, x: f"sorted({v}.keys() - {{{key_of(g, x)}}})")
E("dict.values", is_dict, lambda g, v, x: f"list({v}.values())", lambda g, v, x: f"sum({v}.values())" if is_dint(x) else f"sorted({v}.values())",
  lambda g, v, x: f"sorted({v}.values(), reverse=True)", lambda g, v, x: f"max({v}.values(), default=0)" if is_dint(x) else f"{dval(g, x)} in {v}.values()")
E("dict.items", is_dict, lambda g, v, x: f"list({v}.items())", lambda g, v, x: f"sorted({v}.items())",
  lambda g, v, x: f"sorted({v}.items(), key=lambda kv: kv[1])", lambda g, v, x: f"sorted({v}.items(), key=lambda kv: (-kv[1], kv[0]))" if is_dint(x) else None,
  lambda g, v, x: f"[k for k, n in {v}.items() if n > {g.rng.randint(0, 20)}]" if is_dint(x) else f"[k for k, s in {v}.items() if s.istitle()]",
  lambda g, v, x: f"max({v}.items(), key=lambda kv: kv[1], default=None)")
E("dict.copy", is_dict, lambda g, v, x: f"{v}.copy()", weight=0.5)
S("dict.clear", is_nedict, lambda g, v, x: f"{v}.clear()", weight=0.3)
E("dict:comprehension", is_dict,
  lambda g, v, x: f"{{k: n * {g.small(2, 3)} for k, n in {v}.items()}}" if is_dint(x) else None, lambda g, v, x: f"{{n: k for k, n in {v}.items()}}",
  lambda g, v, x: f"{{k: n for k, n in {v}.items() if n % 2 == 0}}" if is_dint(x) else f"{{k: s.upper() for k, s in {v}.items()}}",
  lambda g, v, x: f"{{k.upper(): len(k) for k in {v}}}", lambda g, v, x: f"{{k[:{g.small(1, 2)}]: n for k, n in {v}.items()}}", call=False)
E("dict:in", is_dict, lambda g, v, x: f"{key_of(g, x)} in {v}", lambda g, v, x: f"{key_of(g, x)} not in {v}", weight=0.6, call=False)
S("dict:setitem", is_dict, lambda g, v, x: f"{v}[{key_of(g, x)}] = {dval(g, x)}", lambda g, v, x: f"{v}[{q(g.choice(list(x)))}] += {g.small(1, 9)}" if is_dint(x) and x else None,
  lambda g, v, x: (lambda k: f"{v}[{k}] = {v}.get({k}, 0) + 1")(key_of(g, x)) if is_dint(x) else None)
S("dict:del", is_nedict, lambda g, v, x: f"del {v}[{q(g.choice(list(x)))}]")
E("dict:getitem", is_nedict, lambda g, v, x: f"{v}[{q(g.choice(list(x)))}]", weight=0.6, call=False)
E("dict:or", is_dict, lambda g, v, x: f"{v} | {{{key_of(g, x)}: {dval(g, x)}}}", lambda g, v, x: f"{{**{v}, {key_of(g, x)}: {dval(g, x)}}}", call=False)
E("builtin.max", is_nedict, lambda g, v, x: f"max({v}, key={v}.get)", lambda g, v, x: f"max({v}, key=len)", lambda g, v, x: f"max({v})")
E("builtin.min", is_nedict, lambda g, v, x: f"min({v}, key={v}.get)", lambda g, v, x: f"min({v}, key=lambda k: (len(k), k))")
E("builtin.sorted", is_dict, lambda g, v, x: f"sorted({v}, key={v}.get, reverse=True)", lambda g, v, x: f"sorted({v})", lambda g, v, x: f"sorted({v}, key=lambda k: ({v}[k], k))",
  lambda g, v, x: f"sorted({v}, key=len)")
E("builtin.sum", is_dint, lambda g, v, x: f"sum({v}.values())", lambda g, v, x: f"sum(len(k) for k in {v})")
E("builtin.dict", is_dict, lambda g, v, x: f"dict(sorted({v}.items()))", lambda g, v, x: f"dict({v}, {ident(g)}={dval(g, x)})",
  lambda g, v, x: f"dict(sorted({v}.items(), key=lambda kv: kv[1], reverse=True))", lambda g, v, x: f"dict(zip({v}.values(), {v}))" if is_dint(x) else None)
E("builtin.enumerate", is_dict, lambda g, v, x: f"list(enumerate({v}))", lambda g, v, x: f"[f'{{i}}:{{k}}' for i, k in enumerate({v}, 1)]")
E("builtin.next", is_nedict, lambda g, v, x: f"next(iter({v}))", lambda g, v, x: f"next(iter({v}.values()))")
# -- set (of ints: a set of strings would list its items in an order set by the hash seed) -------
S("set.add", is_set, lambda g, v, x: f"{v}.add({elem_of(g, x)})")
S("set.discard", is_set, lambda g, v, x: f"{v}.discard({elem_of(g, x)})")
S("set.remove", lambda x: is_set(x) and len(x) > 0, lambda g, v, x: f"{v}.remove({q(g.choice(sorted(x)))})")
E("set.pop", lambda x: is_set(x) and len(x) > 0, lambda g, v, x: f"{v}.pop()")
for _m in ("union", "intersection", "difference", "symmetric_difference"):
    E(f"set.{_m}", is_set, lambda g, v, x, m=_m: f"{v}.{m}({set_lit(g, x)})", lambda g, v, x, m=_m: f"{v}.{m}({ints_lit(g)})",
      lambda g, v, x, m=_m: f"{v}.{m}({set_lit(g, x)}, {ints_lit(g)})", lambda g, v, x, m=_m: (lambda o: f"{v}.{m}({o})" if o else None)(g.other(v, lambda y: is_set(y) or is_ints(y))))
for _m in ("issubset", "issuperset", "isdisjoint"):
    E(f"set.{_m}", is_set, lambda g, v, x, m=_m: f"{v}.{m}({set_lit(g, x)})", lambda g, v, x, m=_m: f"{v}.{m}(range({g.rng.randint(-5, 3)}, {g.rng.randint(4, 21)}))",
      lambda g, v, x, m=_m: f"{v}.{m}({ints_lit(g)})")
S("set.update", is_set, lambda g, v, x: f"{v}.update({set_lit(g, x)})", lambda g, v, x: f"{v}.update({ints_lit(g)}, range({g.small(0, 4)}))",
  lambda g, v, x: (lambda o: f"{v}.update({o})" if o else None)(g.other(v, lambda y: is_set(y) or is_ints(y))))
for _m in ("intersection_update", "difference_update", "symmetric_difference_update"):
    S(f"set.{_m}", is_set, lambda g, v, x, m=_m: f"{v}.{m}({set_lit(g, x)})", lambda g, v, x, m=_m: f"{v}.{m}({ints_lit(g)})")
E("set.copy", is_set, lambda g, v, x: f"{v}.copy()", weight=0.5)
S("set.clear", lambda x: is_set(x) and len(x) > 0, lambda g, v, x: f"{v}.clear()", weight=0.3)
E("set:ops", is_set, lambda g, v, x: f"{v} {g.choice(['|', '&', '-', '^'])} {set_lit(g, x)}", lambda g, v, x: f"{v} {g.choice(['<=', '>=', '<', '=='])} {set_lit(g, x)}",
  lambda g, v, x: f"{elem_of(g, x)} in {v}", lambda g, v, x: (lambda o: f"{v} {g.choice(['|', '&', '-', '^'])} {o}" if o else None)(g.other(v, is_set)), call=False)
S("set:augassign", is_set, lambda g, v, x: f"{v} {g.choice(['|=', '&=', '-=', '^='])} {set_lit(g, x)}")
E("set:comprehension", is_set, lambda g, v, x: f"{{n % {g.small(2, 5)} for n in {v}}}", lambda g, v, x: f"{{abs(n) for n in {v}}}", lambda g, v, x: f"{{n for n in {v} if n > {g.rng.randint(0, 10)}}}", call=False)
E("builtin.frozenset", is_set, lambda g, v, x: f"frozenset({v})", lambda g, v, x: f"frozenset({v}) | {{{g.rng.randint(0, 9)}}}", weight=0.4)
E("builtin.len", is_set, lambda g, v, x: f"len({v} | {set_lit(g, x)})", lambda g, v, x: f"len({v})")
# -- tuple -------------------------------------------------------------------------------------
E("tuple.count", is_tuple, lambda g, v, x: f"{v}.count({elem_of(g, x)})", lambda g, v, x: f"{v}.count({v}[0])" if x else None)
E("tuple.index", lambda x: is_tuple(x) and len(x) > 0, lambda g, v, x: f"{v}.index({q(g.choice(x))})", lambda g, v, x: f"{v}.index({q(g.choice(x))}, {g.small(0, 2)})")
E("tuple:concat", is_tuple, lambda g, v, x: f"{v} + ({q(fresh_elem(g, x))},)", lambda g, v, x: f"({q(fresh_elem(g, x))},) + {v}[1:]", lambda g, v, x: f"{v} * 2",
  lambda g, v, x: (lambda o: f"{v} + {o}" if o else None)(g.other(v, is_tuple)), call=False)
E("tuple:slice", is_tuple, lambda g, v, x: f"{v}[::-1]", lambda g, v, x: f"{v}[1:]", lambda g, v, x: f"{v}[-1]" if x else None, lambda g, v, x: f"{v}[:-1]", lambda g, v, x: f"{v}[::2]", call=False)
E("builtin.tuple", lambda x: type(x) is tuple and all(type(e) is int for e in x), lambda g, v, x: f"tuple(n * {g.small(2, 3)} for n in {v})", lambda g, v, x: f"tuple(sorted({v}, reverse=True))")
E("builtin.len", is_tuple, lambda g, v, x: f"len({v} + {v})", weight=0.3)
# -- numbers and bools -------------------------------------------------------------------------
E("builtin.pow", is_int, lambda g, v, x: f"pow({v}, 2)", lambda g, v, x: f"pow({v}, {g.small(2, 5)}, {g.small(3, 13)})", lambda g, v, x: f"pow(abs({v}) % 10, 3)")
E("builtin.int", is_float, lambda g, v, x: f"int({v})", lambda g, v, x: f"int(-{v})", lambda g, v, x: f"int({v} * 10) // 10")
E("builtin.int", is_bool, lambda g, v, x: f"int({v})", lambda g, v, x: f"{v} + {g.small(1, 3)}")
E("builtin.float", is_int, lambda g, v, x: f"float({v})", lambda g, v, x: f"float({v}) / {g.small(2, 8)}")
E("builtin.str", is_num, lambda g, v, x: f"str({v}).zfill({g.small(3, 7)})", lambda g, v, x: f"str({v}) + {q(g.choice(['%', ' cm', '!', '0']))}", lambda g, v, x: f"str({v}).rjust({g.small(4, 8)}, '.')")
E("builtin.bool", is_num, lambda g, v, x: f"bool({v} % {g.small(2, 5)})" if is_int(x) else f"bool(round({v}))", weight=0.4)
E("builtin.chr", is_int, lambda g, v, x: f"chr(ord('a') + {v} % 26)", lambda g, v, x: f"chr(65 + abs({v}) % 26)", lambda g, v, x: f"''.join(chr(ord('a') + i) for i in range({v} % 6))")
E("builtin.ord", is_int, lambda g, v, x: f"ord(str({v})[0])", weight=0.4)
E("builtin.bin", is_int, lambda g, v, x: f"bin({v})", lambda g, v, x: f"bin({v}).count('1')", lambda g, v, x: f"bin({v})[2:].zfill(8)" if x >= 0 else None)
E("builtin.hex", is_int, lambda g, v, x: f"hex({v})", lambda g, v, x: f"int(hex({v}), 16)")
E("builtin.oct", is_int, lambda g, v, x: f"oct({v})", weight=0.4)
E("int.bit_length", is_int, lambda g, v, x: f"{v}.bit_length()", weight=0.6)
E("float.is_integer", is_float, lambda g, v, x: f"{v}.is_integer()", weight=0.6)
E("builtin.format", is_num, lambda g, v, x: f"format({v}, '.2f')", lambda g, v, x: f"format({v}, ',')", lambda g, v, x: f"format({v}, '>8')", lambda g, v, x: f"format({v}, 'b')" if is_int(x) else f"format({v}, '.0%')")
E("num:ops", is_num, lambda g, v, x: f"{v} // {g.small(2, 7)}", lambda g, v, x: f"{v} % {g.small(2, 7)}", lambda g, v, x: f"-{v} // {g.small(2, 5)}", lambda g, v, x: f"{v} / {g.small(2, 8)}",
  lambda g, v, x: f"-{v} % {g.small(2, 5)}", lambda g, v, x: f"{v} ** 2", call=False)
E("bool:ops", is_bool, lambda g, v, x: f"not {v}", lambda g, v, x: f"str({v}).lower()", lambda g, v, x: f"{q(g.choice(['yes', 'ok', 'on']))} if {v} else {q(g.choice(['no', 'off', '-']))}", call=False)
E("none:ops", lambda x: x is None, lambda g, v, x: f"{v} is None", lambda g, v, x: f"{v} or {q(g.choice([0, 'default', []]))}", call=False)

# Operations that may raise by design, inside try/except: (predicate, template of the whole
# statement, tags). ``{v}`` is the value's name, ``{r}`` a fresh name for a result.
TRIES: list[tuple[Callable[[Any], bool], Callable[["Mix", str, Any, str], str], str]] = [
    (is_list, lambda g, v, x, r: f"try:\n    {v}.remove({elem_of(g, x)})\nexcept ValueError:\n    {g.choice(['pass', f'{v}.append(0)' if is_ints(x) else 'pass', 'print(' + q('not there') + ')'])}", "list.remove"),
    (is_list, lambda g, v, x, r: f"try:\n    {r} = {v}.index({elem_of(g, x)})\nexcept ValueError:\n    {r} = -1", "list.index"),
    (is_list, lambda g, v, x, r: f"try:\n    {r} = {v}.pop({pos_in(g, x) + g.small(0, 3)})\nexcept IndexError:\n    {r} = None", "list.pop"),
    (is_list, lambda g, v, x, r: f"try:\n    {r} = {v}[{pos_in(g, x) + g.small(0, 3)}]\nexcept IndexError as err:\n    {r} = str(err)", "list:getitem"),
    (is_dict, lambda g, v, x, r: f"try:\n    {r} = {v}[{key_of(g, x)}]\nexcept KeyError:\n    {r} = {dval(g, x)}", "dict:getitem"),
    (is_dict, lambda g, v, x, r: f"try:\n    {r} = {v}[{key_of(g, x)}]\nexcept KeyError as err:\n    {r} = 'missing ' + str(err)", "dict:getitem"),
    (is_dict, lambda g, v, x, r: (lambda k: f"try:\n    {v}.pop({k})\nexcept KeyError:\n    {v}[{k}] = {dval(g, x)}")(key_of(g, x)), "dict.pop"),
    (is_dict, lambda g, v, x, r: f"try:\n    {r} = {v}.popitem()\nexcept KeyError:\n    {r} = ()", "dict.popitem"),
    (is_str, lambda g, v, x, r: f"try:\n    {r} = int({v})\nexcept ValueError:\n    {r} = len({v})", "builtin.int"),
    (is_str, lambda g, v, x, r: f"try:\n    {r} = float({v}.strip())\nexcept ValueError as err:\n    {r} = str(err)[:20]", "builtin.float"),
    (is_str, lambda g, v, x, r: f"try:\n    {r} = {v}.index({sub_of(g, x)})\nexcept ValueError:\n    {r} = -1", "str.index"),
    (is_str, lambda g, v, x, r: f"try:\n    {r} = {v}[{pos_in(g, x) + g.small(0, 4)}]\nexcept IndexError:\n    {r} = ''", "str:getitem"),
    (is_set, lambda g, v, x, r: (lambda e: f"try:\n    {v}.remove({e})\nexcept KeyError:\n    {v}.add({e})")(elem_of(g, x)), "set.remove"),
    (is_set, lambda g, v, x, r: f"try:\n    {r} = {v}.pop()\nexcept KeyError:\n    {r} = None", "set.pop"),
    (is_tuple, lambda g, v, x, r: f"try:\n    {r} = {v}.index({elem_of(g, x)})\nexcept ValueError:\n    {r} = None", "tuple.index"),
    (lambda x: type(x) in (list, tuple, set, str), lambda g, v, x, r: f"try:\n    {r} = {g.choice(['min', 'max'])}({v})\nexcept ValueError:\n    {r} = None", "builtin.min"),
    (is_num, lambda g, v, x, r: f"try:\n    {r} = {g.small(1, 99)} // ({v} % {g.small(2, 4)})\nexcept ZeroDivisionError:\n    {r} = 0", "num:ops"),
]

# ----------------------------------------------------------------------------------------------
# Building a program while running it


class Rejected(Exception):
    """A step that raised by accident or made a value this source does not keep."""


ALLOWED = (str, int, float, bool, type(None), bytes)


def _clean(x: Any) -> bool:
    """A value that is the same under any hash seed, with a short repr."""
    t = type(x)
    if t in ALLOWED:
        return t is not str or len(x) <= MAX_STR
    if t in (list, tuple):
        return all(_clean(e) for e in x)
    if t is dict:
        return all(type(k) in (str, int, bool, tuple, type(None)) and _clean(k) and _clean(v) for k, v in x.items())
    if t in (set, frozenset):
        return all(type(e) is int for e in x)
    return False


_PRIMARY = (ast.Call, ast.Attribute, ast.Subscript, ast.Name, ast.Constant, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.JoinedStr)


def _primary(code: str) -> bool:
    try:
        return isinstance(ast.parse(code, mode="eval").body, _PRIMARY)
    except SyntaxError:
        return False


def _indent(code: str, levels: int = 1) -> str:
    pad = "    " * levels
    return "\n".join(pad + l if l else l for l in code.split("\n"))


class Mix(ProgramRandom):
    """The random source of one program, and the values it holds so far (run as it is built)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.wide_share = rng.choice([0.0, 0.1, 0.2, 0.3])
        self.used |= _TAKEN
        self.env: dict[str, Any] = {}
        self.order: list[str] = []  # names, most recently assigned last
        self.tags: set[str] = set()
        self.helpers: list[str] = []  # helper function definitions (source, column 0)
        self.lines: list[str] = []  # the body's statements (column 0, a block may span lines)
        self.aliases: set[str] = set()  # names bound to the same object as another name
        self.last_acc: Optional[str] = None  # the accumulator of the last loop

    # -- names and values ------------------------------------------------------------------------
    def new_name(self, kind: str) -> str:
        return self.pick(NAMES.get(kind, NAMES["other"]))

    def values(self) -> list[str]:
        return [n for n in self.order if n in self.env and not callable(self.env[n])]

    def other(self, v: str, pred: Callable[[Any], bool]) -> Optional[str]:
        """Another name whose value satisfies ``pred`` (None if there is none)."""
        names = [n for n in self.values() if n != v and pred(self.env[n])]
        return self.choice(names) if names else None

    def pick_var(self, pred: Callable[[Any], bool] = any_value, focus: Optional[str] = None) -> Optional[str]:
        names = [n for n in self.values() if pred(self.env[n])]
        if not names:
            return None
        if focus in names and self.chance(0.3):
            return focus
        return names[-1] if self.chance(0.55) else self.choice(names)

    # -- running ---------------------------------------------------------------------------------
    def run(self, code: str) -> dict[str, Any]:
        """The names after ``code`` runs on a copy of the current ones; Rejected if it raises or
        leaves a value this source does not keep."""
        ns: dict[str, Any] = copy.deepcopy({k: v for k, v in self.env.items() if not callable(v)})
        ns.update({k: v for k, v in self.env.items() if callable(v)})
        ns["__builtins__"] = builtins
        try:
            with redirect_stdout(io.StringIO()):
                exec(compile(code, FILENAME, "exec"), ns)
        except Exception as exc:  # noqa: BLE001 - any accident rejects the step
            raise Rejected(str(exc)) from None
        del ns["__builtins__"]
        for k, v in ns.items():
            if not callable(v) and not _clean(v) or not callable(v) and len(repr(v)) > MAX_REPR:
                raise Rejected(f"{k} = {v!r}")
        return ns

    def commit(self, ns: dict[str, Any], names: list[str], tags: tuple[str, ...] | set[str]) -> None:
        self.env = ns
        for n in names:
            if n in self.order:
                self.order.remove(n)
            self.order.append(n)
        self.tags.update(tags)

    def value_of(self, code: str) -> Any:
        return self.run(f"__v = {code}")["__v"]

    # -- operations ------------------------------------------------------------------------------
    def op_code(self, v: str, x: Any, kind: str = "expr", want_call: bool = False) -> tuple[str, Op]:
        ops = [o for o in OPS if o.kind == kind and o.pred(x) and (o.call or not want_call)]
        if not ops:
            raise Rejected(f"no {kind} op for {type(x).__name__}")
        op = self.rng.choices(ops, weights=[o.weight for o in ops])[0]
        code = self.choice(list(op.templates))(self, v, x)
        if code is None:
            raise Rejected("template does not apply")
        return code, op

    def expr(self, v: str, x: Any, chain: float = 0.0, want_call: bool = False) -> tuple[str, Any, set[str]]:
        """An expression over ``v`` (value ``x``), sometimes two calls chained; its value and tags."""
        code, op = self.op_code(v, x)
        tags = set(op.tags)
        value = self.value_of(code)
        if self.chance(chain):
            inner = code if _primary(code) else f"({code})"
            code2, op2 = self.op_code(inner, value, want_call=want_call)
            if code2.count(inner) == 1:
                value = self.value_of(code2)
                return code2, value, tags | set(op2.tags)
        if want_call and not op.call:
            raise Rejected("not a call")
        return code, value, tags


def _attempt(step: Callable[[], bool], tries: int = 12) -> bool:
    for _ in range(tries):
        try:
            if step():
                return True
        except Rejected:
            continue
    return False


# -- steps ---------------------------------------------------------------------------------------


def step_expr(g: Mix, focus: Optional[str]) -> bool:
    v = g.pick_var(focus=focus)
    if v is None:
        return False
    code, value, tags = g.expr(v, g.env[v], chain=0.2)
    kind = kind_of(value)
    same = kind == kind_of(g.env[v]) and g.chance(0.3) and v not in g.aliases
    target = v if same else g.new_name(kind)
    ns = g.run(f"{target} = {code}")
    g.lines.append(f"{target} = {code}")
    g.commit(ns, [target], tags)
    return True


def step_stmt(g: Mix, focus: Optional[str]) -> bool:
    v = g.pick_var(lambda x: any(o.kind == "stmt" and o.pred(x) for o in OPS), focus=focus)
    if v is None:
        return False
    code, op = g.op_code(v, g.env[v], "stmt")
    ns = g.run(code)
    g.lines.append(code)
    g.commit(ns, [v], op.tags)
    return True


def step_alias(g: Mix, focus: Optional[str]) -> bool:
    """``b = a`` (or a copy) and a change of ``a`` (or ``b``) right after: the step shows whether
    the other name saw it."""
    v = g.pick_var(lambda x: type(x) in (list, dict, set) and (is_set(x) or is_dict(x) or is_list(x)), focus=focus)
    if v is None:
        return False
    x = g.env[v]
    b = g.new_name(kind_of(x))
    how, tag = g.choice([(v, "alias"), (v, "alias"), (f"{v}.copy()", f"{type(x).__name__}.copy"),
                         (f"{v}[:]" if type(x) is list else f"{type(x).__name__}({v})", "copy"), (f"{type(x).__name__}({v})", f"builtin.{type(x).__name__}")])
    ns = g.run(f"{b} = {how}")
    g.lines.append(f"{b} = {how}")
    g.commit(ns, [b], {tag})
    g.aliases.add(b)
    g.aliases.add(v)
    target = v if g.chance(0.65) else b
    code, op = g.op_code(target, g.env[target], "stmt")
    ns = g.run(code)
    g.lines.append(code)
    g.commit(ns, [target], op.tags)
    if g.chance(0.3):
        g.lines.append(f"print({v}, {b})")
    return True


def step_try(g: Mix, focus: Optional[str]) -> bool:
    v = g.pick_var(lambda x: any(p(x) for p, _, _ in TRIES), focus=focus)
    if v is None:
        return False
    x = g.env[v]
    pred, make, tag = g.choice([t for t in TRIES if t[0](x)])  # type: ignore[arg-type]
    r = g.new_name("other")
    code = make(g, v, x, r)
    ns = g.run(code)
    g.lines.append(code)
    g.commit(ns, [r] if r in ns else [v], {tag, "try"})
    return True


def step_print(g: Mix) -> None:
    names = g.values()
    if names:
        v = names[-1] if g.chance(0.6) else g.choice(names)
        g.lines.append(g.choice([f"print({v})", f"print({q(v + ':')}, {v})", f"print(f'{{{v}=}}')", f"print({v})", f"print(type({v}).__name__, {v})" if g.chance(0.2) else f"print({q(v)}, {v}, sep=' = ')"]))


# -- loops ---------------------------------------------------------------------------------------


def _loop_header(g: Mix, v: str, x: Any) -> Optional[tuple[str, list[str], str, str]]:
    """(header, bound names, iterable expression, tag) of a loop over ``v``."""
    if is_str(x):
        item = g.pick(ITEM_NAMES["char"] if g.chance(0.3) else ITEM_NAMES["str"])
        if item in ITEM_NAMES["char"]:
            return f"for {item} in {v}:", [item], v, "str:iter"
        it, tag = g.choice([(f"{v}.split()", "str.split"), (f"{v}.split({sep_of(g, x)})", "str.split"), (f"{v}.splitlines()", "str.splitlines"),
                            (f"{v}.lower().split()", "str.lower"), (f"{v}.strip().split({sep_of(g, x)})", "str.strip")])
        return f"for {item} in {it}:", [item], it, tag
    if is_dict(x):
        k = g.pick(ITEM_NAMES["key"])
        if g.chance(0.55):
            n = g.pick(ITEM_NAMES["int"] if is_dint(x) else ITEM_NAMES["str"])
            it, tag = g.choice([(f"{v}.items()", "dict.items"), (f"sorted({v}.items())", "builtin.sorted"), (f"list({v}.items())", "dict.items")])
            return f"for {k}, {n} in {it}:", [k, n], it, tag
        it, tag = g.choice([(v, "dict:iter"), (f"sorted({v})", "builtin.sorted"), (f"list({v})", "builtin.list"), (f"{v}.keys()", "dict.keys")])
        return f"for {k} in {it}:", [k], it, tag
    if is_pairs(x):
        a, n = g.pick(ITEM_NAMES["str"]), g.pick(ITEM_NAMES["int"])
        if g.chance(0.3):
            i = g.pick(["idx", "rank", "pos", "nr"])
            return f"for {i}, ({a}, {n}) in enumerate({v}, 1):", [i, a, n], f"enumerate({v}, 1)", "builtin.enumerate"
        return f"for {a}, {n} in {v}:", [a, n], v, "tuple:unpack"
    if type(x) in (list, tuple, set):
        item = g.pick(ITEM_NAMES["int"] if all(type(e) is int for e in x) else ITEM_NAMES["str"] if all(type(e) is str for e in x) else ITEM_NAMES["other"])
        r = g.rng.random()
        if r < 0.2 and type(x) is not set:
            i = g.pick(["idx", "pos", "nr", "line_no", "place"])
            start = g.choice(["", "", ", 1", f", {g.small(2, 10)}"])
            return f"for {i}, {item} in enumerate({v}{start}):", [i, item], f"enumerate({v}{start})", "builtin.enumerate"
        if r < 0.32 and type(x) is not set:
            o = g.other(v, lambda y: type(y) in (list, tuple, str) and len(y) > 0)
            if o:
                b = g.pick(ITEM_NAMES["other"])
                return f"for {item}, {b} in zip({v}, {o}):", [item, b], f"zip({v}, {o})", "builtin.zip"
        if r < 0.42 and type(x) is not set:
            return f"for {item} in reversed({v}):", [item], f"reversed({v})", "builtin.reversed"
        if (r < 0.55 or type(x) is set) and (is_sortable(x) or is_set(x)):
            return f"for {item} in sorted({v}{g.choice(['', ', reverse=True'])}):", [item], f"sorted({v})", "builtin.sorted"
        return f"for {item} in {v}:", [item], v, "list:iter"
    return None


def step_loop(g: Mix, focus: Optional[str]) -> bool:
    """A loop accumulating the results of a method or builtin applied to each item."""
    v = g.pick_var(lambda x: (is_str(x) and len(x) > 0) or (type(x) in (list, tuple, dict, set) and 0 < len(x) <= 9), focus=focus)
    if v is None:
        return False
    x = g.env[v]
    head = _loop_header(g, v, x)
    if head is None:
        return False
    header, bound, iterable, head_tag = head
    items = list(g.value_of(f"list({iterable})"))
    if not items or len(items) > 12:
        raise Rejected("loop length")
    sample = g.choice(items)
    sample_vals = [sample[0], *sample[1]] if len(bound) == 3 else list(sample) if len(bound) == 2 else [sample]
    # the item the expression works on: mostly the item itself, not an enumerate index
    which = g.rng.randrange(len(bound)) if g.chance(0.3) else (len(bound) - 1 if "enumerate" in header and len(bound) == 2 else 1 if len(bound) == 3 else 0)
    iv, ix = bound[which], sample_vals[which]
    # the per-item expression, evaluated on a sample item; sometimes through a helper function
    saved = g.env
    g.env = {**saved, **dict(zip(bound, sample_vals))}
    cond = None
    try:
        code, value, tags = g.expr(iv, ix, chain=0.25)
        if g.chance(0.35):
            cv = g.choice(bound)
            cx = sample_vals[bound.index(cv)]
            for _ in range(8):
                try:
                    c_code, c_op = g.op_code(cv, cx)
                    if type(g.value_of(c_code)) is not bool:
                        continue
                    # a test that holds for some items (and, mostly, not for all)
                    held = []
                    for it in items:
                        g.env = {**saved, **dict(zip(bound, [it[0], *it[1]] if len(bound) == 3 else list(it) if len(bound) == 2 else [it]))}
                        held.append(g.value_of(c_code))
                    if any(held) and (not all(held) or g.chance(0.25)):
                        cond = c_code
                        tags |= set(c_op.tags)
                        break
                except Rejected:
                    continue
    finally:
        g.env = saved
    helper_call = helper_def = None
    if not g.helpers and g.chance(0.3):
        h = g.pick(HELPER_NAMES)
        param = g.pick(["val", "arg", "obj", "src", "thing"])
        body = ast_rename(code, iv, param)
        if body is None:
            raise Rejected("rename")
        helper_def = f"def {h}({param}):\n    return {body}"
        helper_call = f"{h}({iv})"
    use = helper_call or code
    vk = kind_of(value)
    acc_kinds = ["list", "list"]
    if vk == "str":
        acc_kinds += ["str", "str", "count"]
    if vk in ("int", "float"):
        acc_kinds += ["total", "total", "best"] + (["set"] if vk == "int" else [])
    if vk in ("int", "str", "bool") or (vk == "tuple" and all(type(e) in (int, str) for e in value)):
        acc_kinds += ["count", "group"]
    if vk == "bool" and cond is None:
        cond, use = use, None
        acc_kinds = ["count_if", "keep", "keep"]
    if vk == "list" or vk == "words":
        acc_kinds += ["extend"]
    kind = g.choice(acc_kinds)
    acc = g.pick({"list": ["out", "results", "collected", "lengths", "found", "mapped"], "extend": ["flat", "out", "merged"], "keep": ["kept", "picked_items", "good", "matches"],
                  "str": ["acc", "built", "buf", "line_out", "banner"], "count": ["counts", "freq", "tally", "seen_counts"], "group": ["groups", "by_key", "buckets"],
                  "total": ["total", "acc_sum", "running"], "best": ["best", "top", "peak"], "set": ["uniq", "seen_nums", "marks_seen"], "count_if": ["hits", "n_ok", "matched"]}[kind])
    item_all = bound[-1] if len(bound) < 3 else bound[1]
    if kind == "list":
        init, upd, utag = f"{acc} = []", g.choice([f"{acc}.append({use})", f"{acc}.append({use})", f"{acc}.insert(0, {use})", f"{acc} += [{use}]"]), "list.append"
    elif kind == "extend":
        init, upd, utag = f"{acc} = []", f"{acc}.extend({use})", "list.extend"
    elif kind == "keep":
        init, upd, utag = f"{acc} = []", f"{acc}.append({item_all})", "list.append"
    elif kind == "str":
        sep = q(g.choice(["", " ", "-", ",", "|", ""]))
        init = f"{acc} = ''"
        piece = use if vk == "str" else f"str({use})"
        upd = g.choice([f"{acc} += {piece}", f"{acc} = {piece} + {acc}", f"{acc} += {piece} + {sep}", f"{acc} = {acc} + {sep} + {piece} if {acc} else {piece}"])
        utag = "str:concat"
    elif kind == "count":
        init = f"{acc} = {{}}"
        key = g.pick(["bucket", "kind_", "slot", "cat"])
        form = g.rng.randrange(3)
        if form == 0:
            upd, utag = f"{key} = {use}\n{acc}[{key}] = {acc}.get({key}, 0) + 1", "dict.get"
        elif form == 1:
            upd, utag = f"{key} = {use}\nif {key} in {acc}:\n    {acc}[{key}] += 1\nelse:\n    {acc}[{key}] = 1", "dict:in"
        else:
            upd, utag = f"{key} = {use}\n{acc}.setdefault({key}, 0)\n{acc}[{key}] += 1", "dict.setdefault"
    elif kind == "group":
        init, upd, utag = f"{acc} = {{}}", f"{acc}.setdefault({use}, []).append({item_all})", "dict.setdefault"
    elif kind == "total":
        init, upd, utag = f"{acc} = {g.choice(['0', '0', '0.0'])}", f"{acc} += {use}", "num:ops"
    elif kind == "best":
        init, upd, utag = f"{acc} = None", f"{acc} = {use} if {acc} is None else {g.choice(['max', 'min'])}({acc}, {use})", "builtin.max"
    elif kind == "set":
        init, upd, utag = f"{acc} = set()", f"{acc}.add({use})", "set.add"
    else:
        init, upd, utag = f"{acc} = 0", f"{acc} += 1", "num:ops"
    body = upd
    if cond is not None:
        body = f"if {cond}:\n{_indent(upd)}"
        if g.chance(0.25) and kind in ("list", "str", "total"):
            body += f"\nelse:\n    {g.choice(['continue', 'pass'])}" if kind != "list" else f"\nelif not {item_all}:\n    break"
    elif g.chance(0.12):
        body = f"if not {item_all}:\n    continue\n{body}"
    if g.chance(0.1):
        body += f"\nprint({item_all}, {acc})"
    loop = f"{init}\n{header}\n{_indent(body)}"
    ns = g.run(f"{helper_def}\n{loop}" if helper_def else loop)
    g.lines.append(loop)
    if helper_def:
        g.helpers.append(helper_def)
    g.commit(ns, [acc], tags | {head_tag, utag, "loop"})  # the loop's own names are not used after it
    g.last_acc = acc
    return True


def ast_rename(code: str, old: str, new: str) -> Optional[str]:
    """``code`` with the name ``old`` renamed ``new`` (None if ``new`` is already used there)."""
    try:
        tree = ast.parse(code, mode="eval")
    except SyntaxError:
        return None
    if any(isinstance(n, ast.Name) and n.id == new for n in ast.walk(tree)):
        return None
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id == old:
            n.id = new
    return ast.unparse(tree)


# ----------------------------------------------------------------------------------------------
# Programs

FOCUS_WEIGHTS = {"str": 3.0, "list": 1.6, "words": 1.6, "dict": 1.7, "set": 1.0, "tuple": 0.7, "pairs": 0.6, "float": 0.4, "int": 0.5}
SECOND = {"str": ["str", "int", "words"], "list": ["list", "int", "words"], "words": ["str", "int", "words"], "dict": ["words", "dict", "str"],
          "set": ["set", "list"], "tuple": ["int", "tuple"], "pairs": ["int", "str"], "float": ["int", "float", "list"], "int": ["int", "list", "str"]}


@dataclass
class Drawn:
    program: Program
    tags: set[str]
    events: int


def _build(rng: random.Random) -> Optional[Drawn]:
    g = Mix(rng)
    focus = rng.choices(list(FOCUS_WEIGHTS), weights=list(FOCUS_WEIGHTS.values()))[0]
    shape = rng.choices(["steps", "loop", "mutate"], weights=[0.42, 0.38, 0.2 if focus in ("list", "words", "dict", "set") else 0.0])[0]
    inputs: list[tuple[str, Any]] = []
    for kind in [focus] + ([rng.choice(SECOND[focus])] if rng.random() < 0.35 else []):
        name = g.new_name(kind)
        value = MAKERS[kind](g)
        if not _clean(value) or len(repr(value)) > MAX_REPR:
            value = MAKERS[kind](g)
            if not _clean(value) or len(repr(value)) > MAX_REPR:
                return None
        inputs.append((name, value))
        g.env[name] = copy.deepcopy(value)
        g.order.append(name)
    first = inputs[0][0]
    script = rng.random() < 0.25
    prints = 0.35 if script else 0.06
    # the body
    if shape == "loop":
        for _ in range(rng.choice([0, 0, 1, 2])):
            _attempt(lambda: step_expr(g, first) if g.chance(0.75) else step_stmt(g, first))
        if not _attempt(lambda: step_loop(g, None if g.chance(0.3) else first), 16):
            return None
        if rng.random() < 0.2:
            _attempt(lambda: step_loop(g, None), 8)
        for _ in range(rng.choice([0, 1, 1, 2, 3])):
            _attempt(lambda: step_expr(g, g.last_acc) if g.chance(0.7) else step_stmt(g, g.last_acc))
            if g.chance(prints):
                step_print(g)
    else:
        mut = 0.55 if shape == "mutate" else 0.22
        n = rng.randint(4, 9)
        did_alias = did_try = False
        for _ in range(n):
            r = rng.random()
            if not did_alias and r < (0.3 if shape == "mutate" else 0.08):
                did_alias = _attempt(lambda: step_alias(g, first), 6)
            elif not did_try and r < 0.2:
                did_try = _attempt(lambda: step_try(g, first), 6)
            elif r < 0.2 + mut:
                _attempt(lambda: step_stmt(g, first))
            else:
                _attempt(lambda: step_expr(g, first))
            if g.chance(prints):
                step_print(g)
    # the return: a builtin or method call (sometimes two chained), now and then a plain name or two
    ret = None
    for _ in range(12):
        try:
            v = g.pick_var(focus=g.last_acc)
            if v is None:
                break
            if rng.random() < 0.12:
                others = [n for n in g.values() if n != v]
                ret = f"{v}, {g.choice(others)}" if others and g.chance(0.6) else v
            else:
                code, _, tags = g.expr(v, g.env[v], chain=0.35, want_call=rng.random() < 0.85)
                g.value_of(code)
                g.tags.update(tags)
                ret = code
            break
        except Rejected:
            continue
    if ret is None:
        return None
    source, call, entry = _render(g, rng, inputs, ret, script)
    if source.count("\n") > MAX_LINES:
        return None
    events = _events(source, call)
    if events is None:
        return None
    family = f"{focus}_{shape}"
    return Drawn(Program(source, call, entry, family, program_hash(source), ORIGIN), g.tags, events)


def _render(g: Mix, rng: random.Random, inputs: list[tuple[str, Any]], ret: str, script: bool) -> tuple[str, str, str]:
    blocks = list(g.helpers)
    if script:
        lines = [f"{n} = {q(v)}" for n, v in inputs] + g.lines
        if rng.random() < 0.5:
            r = g.pick(["answer", "final", "outcome", "summary"])
            lines += [f"{r} = {ret}", f"print({r})"]
        else:
            lines.append(f"print({ret})")
        blocks.append("\n".join(lines))
        return "\n\n\n".join(blocks) + "\n", "", "<module>"
    name = g.pick(FUNC_NAMES)
    inline = rng.random() < 0.15
    params = "" if inline else ", ".join(n for n, _ in inputs)
    body = ([f"{n} = {q(v)}" for n, v in inputs] if inline else []) + g.lines + [f"return {ret}"]
    blocks.append(f"def {name}({params}):\n" + "\n".join(_indent(l) for l in body))
    call = f"{name}({'' if inline else ', '.join(q(v) for _, v in inputs)})"
    return ("\n\n\n" if rng.random() < 0.7 else "\n\n").join(blocks) + "\n", call, name


class _TooLong(Exception):
    pass


def _events(source: str, call: str) -> Optional[int]:
    """The events of a whole run (call, line, return, exception of the program's own frames), or
    None when it raises or runs past ``MAX_EVENTS``."""
    code = compile(source, FILENAME, "exec")
    count = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename != FILENAME:
            return None
        count += 1
        if count > MAX_EVENTS:
            raise _TooLong
        return trace

    ns: dict[str, Any] = {"__name__": "__main__"}
    old = sys.gettrace()
    try:
        with redirect_stdout(io.StringIO()):
            sys.settrace(trace)
            try:
                exec(code, ns)
                if call:
                    eval(compile(call, FILENAME, "eval"), ns)
            finally:
                sys.settrace(old)
    except Exception:  # noqa: BLE001 - _TooLong, or the program raised: draw again
        return None
    return count


def draw(rng: random.Random) -> Drawn:
    """One program and the operations it uses (their tags: ``str.split``, ``builtin.sorted``...)."""
    for _ in range(40):
        d = _build(rng)
        if d is not None:
            return d
    raise RuntimeError("builtins_mix: no program in 40 tries")  # not seen: each try succeeds most of the time


def make_program(rng: random.Random) -> Program:
    return draw(rng).program


def generate(seed: int, n: int, dedup: bool = True) -> Iterator[Program]:
    """``n`` programs (deduplicated by normalized source when ``dedup``), deterministic in ``seed``."""
    seen: set[str] = set()
    i = made = 0
    while made < n and i < n * 50:
        p = make_program(random.Random(f"{seed}:{i}"))
        i += 1
        if dedup and p.program_id in seen:
            continue
        seen.add(p.program_id)
        made += 1
        yield p


def main(argv: list[str] | None = None) -> int:
    return print_programs("python3 -m training.data.builtins_mix", generate, argv)


if __name__ == "__main__":
    sys.exit(main())
