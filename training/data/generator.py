"""Random, well-typed Python functions of the kind people write and teach, with random inputs.

Every program is built from *families* (an accumulator loop, a frequency dict, a recursion, a
parser with try/except, ...), each with random names, operators, constants and conditions, and
sometimes a helper that the entry function calls. Deterministic given a seed; ``program_id`` (a
hash of the normalized source) drives deduplication and the held-out split.

    python3 -m training.data.generator --n 5 --seed 1     # prints programs as JSONL
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .method_chains import method_chain
from .names import wide_name
from .programs import Program, print_programs, program_hash
from .values import rand_value, source_of


@dataclass
class Func:
    name: str
    params: list[tuple[str, str]]  # (name, type)
    body: list[str]  # lines, indented one level (4 spaces) relative to the def
    family: str
    helpers: list["Func"] = field(default_factory=list)

    def source(self) -> str:
        head = f"def {self.name}({', '.join(p for p, _ in self.params)}):"
        return "\n".join([head, *self.body])


# ----------------------------------------------------------------------------------------------
# Name pools and small random pieces


LIST_NAMES = ["xs", "nums", "values", "items", "data", "arr", "numbers", "seq"]
STR_NAMES = ["s", "text", "word", "line", "name", "msg"]
WORDS_NAMES = ["words", "names", "tokens", "parts", "labels"]
DICT_NAMES = ["d", "counts", "table", "scores", "stock", "ages"]
ACC_NAMES = ["total", "acc", "result", "s", "count", "best", "out"]
VAR_NAMES = ["x", "n", "v", "item", "num", "val", "k"]
CH_NAMES = ["ch", "c", "char", "letter"]
# The share of names drawn from the wide pool instead of the family's own (see names.py).
WIDE_NAME_SHARE = 0.35
FUNC_VERBS = ["compute", "process", "transform", "calc", "solve", "check", "count", "find", "make", "build"]
FUNC_NOUNS = ["total", "items", "values", "result", "score", "words", "text", "pairs", "data", "list"]


class ProgramRandom:
    """The random source of one program, with helpers that keep names unique."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()
        self.wide_share = WIDE_NAME_SHARE

    def _wide(self, tries: int) -> str | None:
        """Now and then a fresh name from the wide pool (``wide_share``), else None."""
        if self.rng.random() < self.wide_share:
            for _ in range(tries):
                name = wide_name(self.rng)
                if name not in self.used:
                    self.used.add(name)
                    return name
        return None

    def pick(self, pool: list[str]) -> str:
        wide = self._wide(5)
        if wide is not None:
            return wide
        free = [n for n in pool if n not in self.used] or [f"{pool[0]}{len(self.used)}"]
        name = self.rng.choice(free)
        self.used.add(name)
        return name

    def func_name(self) -> str:
        wide = self._wide(1)
        if wide is not None:
            return wide
        for _ in range(20):
            name = f"{self.rng.choice(FUNC_VERBS)}_{self.rng.choice(FUNC_NOUNS)}"
            if name not in self.used:
                self.used.add(name)
                return name
        name = f"f{len(self.used)}"
        self.used.add(name)
        return name

    def choice(self, options: list[str]) -> str:
        return self.rng.choice(options)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def small(self, lo: int = 1, hi: int = 5) -> int:
        return self.rng.randint(lo, hi)

    def int_cond(self, v: str) -> str:
        k = self.small(2, 5)
        return self.choice([
            f"{v} % 2 == 0", f"{v} % 2 == 1", f"{v} % {k} == 0", f"{v} > {self.small(0, 9)}",
            f"{v} < {self.small(0, 9)}", f"{v} >= 0", f"{v} != {self.small(0, 5)}",
            f"{v} > {k} and {v} % 2 == 0", f"{v} < 0 or {v} > {self.small(5, 12)}",
        ])  # fmt: skip

    def int_expr(self, v: str) -> str:
        k = self.small(1, 4)
        return self.choice([v, f"{v} * {k}", f"{v} + {k}", f"{v} * {v}", f"{v} - {k}", f"{v} // 2", f"abs({v})", f"{v} % {k + 1}"])

    def str_cond(self, c: str) -> str:
        return self.choice([
            f"{c} in 'aeiou'", f"{c}.isupper()", f"{c}.isdigit()", f"{c}.isalpha()", f"{c} == ' '",
            f"{c} not in 'aeiou'", f"{c} < 'm'", f"{c}.islower()",
        ])  # fmt: skip

    def word_cond(self, w: str) -> str:
        return self.choice([
            f"len({w}) > {self.small(2, 5)}", f"{w}.startswith('{self.choice(list('abcdefgmst'))}')",
            f"'{self.choice(list('aeiou'))}' in {w}", f"{w}.islower()", f"len({w}) % 2 == 0",
            f"{w}.endswith('{self.choice(list('aeynst'))}')",
        ])  # fmt: skip


# ----------------------------------------------------------------------------------------------
# Families. Each returns a Func whose parameters have simple types.


def fam_accumulate(g: ProgramRandom) -> Func:
    xs, x, acc = g.pick(LIST_NAMES), g.pick(VAR_NAMES), g.pick(ACC_NAMES)
    op = g.choice(["+=", "+=", "-=", "*="])
    init = "1" if op == "*=" else "0"
    body = [f"    {acc} = {init}", f"    for {x} in {xs}:"]
    if g.chance(0.7):
        body += [f"        if {g.int_cond(x)}:", f"            {acc} {op} {g.int_expr(x)}"]
        if g.chance(0.4):
            body += ["        else:", f"            {acc} {g.choice(['-=', '+='])} {g.small()}"]
    else:
        body += [f"        {acc} {op} {g.int_expr(x)}"]
    body += [f"    return {acc}"]
    return Func(g.func_name(), [(xs, "list_int")], body, "accumulate")


def fam_count_chars(g: ProgramRandom) -> Func:
    s, c, acc = g.pick(STR_NAMES), g.pick(CH_NAMES), g.pick(["count", "n", "total", "hits"])
    body = [f"    {acc} = 0", f"    for {c} in {s}:", f"        if {g.str_cond(c)}:", f"            {acc} += 1", f"    return {acc}"]
    return Func(g.func_name(), [(s, "str")], body, "count_chars")


def fam_build_string(g: ProgramRandom) -> Func:
    s, c, out = g.pick(STR_NAMES), g.pick(CH_NAMES), g.pick(["result", "out", "res", "acc"])
    then = g.choice([f"{c}.upper()", f"{c} * 2", "'*'", f"{c}.lower()", "''", f"'[' + {c} + ']'"])
    other = g.choice([c, f"{c}.swapcase()", f"{c}.lower()"])
    body = [f"    {out} = ''", f"    for {c} in {s}:", f"        if {g.str_cond(c)}:", f"            {out} += {then}", "        else:", f"            {out} += {other}"]
    if g.chance(0.3):
        body[1:1] = []
        body += [f"    {out} = {out}[::-1]" if g.chance(0.5) else f"    {out} = {out}.strip()"]
    body += [f"    return {out}"]
    return Func(g.func_name(), [(s, "str")], body, "build_string")


def fam_frequency(g: ProgramRandom) -> Func:
    ws, w, d = g.pick(WORDS_NAMES), g.pick(["w", "word", "key", "t"]), g.pick(DICT_NAMES)
    src_type = g.choice(["list_str", "text", "str"])
    seq = ws
    if src_type == "text":
        seq = f"{ws}.split()"
    body = [f"    {d} = {{}}", f"    for {w} in {seq}:"]
    if g.chance(0.5):
        body += [f"        {d}[{w}] = {d}.get({w}, 0) + 1"]
    else:
        body += [f"        if {w} in {d}:", f"            {d}[{w}] += 1", "        else:", f"            {d}[{w}] = 1"]
    tail = g.choice(["dict", "max", "sorted", "filter"])
    if tail == "dict":
        body += [f"    return {d}"]
    elif tail == "max":
        body += [f"    return max({d}, key={d}.get)"]  # raises ValueError on empty input
    elif tail == "sorted":
        body += [f"    return sorted({d}.items(), key=lambda p: (-p[1], p[0]))"]
    else:
        body += [f"    return [k for k, v in {d}.items() if v > 1]"]
    return Func(g.func_name(), [(ws, src_type)], body, "frequency")


def fam_comprehension(g: ProgramRandom) -> Func:
    xs, x = g.pick(LIST_NAMES), g.pick(VAR_NAMES)
    kind = g.choice(["list", "list", "set", "dict", "nested"])
    res = g.pick(["result", "out", "picked", "res"])
    if kind == "list":
        line = f"    {res} = [{g.int_expr(x)} for {x} in {xs} if {g.int_cond(x)}]"
    elif kind == "set":
        line = f"    {res} = {{{x} % {g.small(2, 5)} for {x} in {xs}}}"
    elif kind == "dict":
        line = f"    {res} = {{{x}: {g.int_expr(x)} for {x} in {xs}}}"
    else:
        y = g.pick(VAR_NAMES)
        line = f"    {res} = [({x}, {y}) for {x} in {xs} for {y} in {xs} if {x} < {y}]"
    tail = g.choice([f"    return {res}", f"    return len({res})", f"    return sorted({res})" if kind != "dict" else f"    return {res}"])
    return Func(g.func_name(), [(xs, "list_int")], [line, tail], "comprehension")


def fam_while(g: ProgramRandom) -> Func:
    n = g.pick(["n", "num", "x", "m"])
    kind = g.choice(["digits", "collatz", "halving", "countdown"])
    if kind == "digits":
        acc = g.pick(ACC_NAMES)
        body = [f"    {n} = abs({n})", f"    {acc} = 0", f"    while {n} > 0:", f"        {acc} += {n} % 10", f"        {n} //= 10", f"    return {acc}"]
    elif kind == "collatz":
        steps = g.pick(["steps", "count", "i"])
        body = [f"    {steps} = 0", f"    while {n} > 1:", f"        if {n} % 2 == 0:", f"            {n} = {n} // 2", "        else:", f"            {n} = 3 * {n} + 1", f"        {steps} += 1", f"    return {steps}"]
    elif kind == "halving":
        out = g.pick(["bits", "out", "seq"])
        body = [f"    {out} = []", f"    while {n} > 0:", f"        {out}.append({n} % 2)", f"        {n} = {n} // 2", f"    return {out}[::-1]"]
    else:
        out = g.pick(["out", "seq", "res"])
        k = g.small(1, 3)
        body = [f"    {out} = []", f"    while {n} >= 0:", f"        {out}.append({n})", f"        {n} -= {k}", f"    return {out}"]
    return Func(g.func_name(), [(n, "int")], body, "while")


def fam_slicing(g: ProgramRandom) -> Func:
    kind = g.choice(["palindrome", "rotate", "chunks", "halves", "window"])
    if kind == "palindrome":
        s = g.pick(STR_NAMES)
        clean = g.pick(["t", "clean", "norm"])
        body = [f"    {clean} = {s}.lower().replace(' ', '')", f"    return {clean} == {clean}[::-1]"]
        return Func(g.func_name(), [(s, g.choice(["str", "word"]))], body, "slicing")
    xs = g.pick(LIST_NAMES)
    if kind == "rotate":
        k = g.pick(["k", "shift", "r"])
        body = [f"    if not {xs}:", f"        return {xs}", f"    {k} = {k} % len({xs})", f"    return {xs}[{k}:] + {xs}[:{k}]"]
        return Func(g.func_name(), [(xs, "list_int"), (k, "small_int")], body, "slicing")
    if kind == "chunks":
        size, out, i = g.pick(["size", "width", "step"]), g.pick(["chunks", "out", "rows"]), g.pick(["i", "j", "start"])
        body = [f"    {out} = []", f"    for {i} in range(0, len({xs}), {size}):", f"        {out}.append({xs}[{i}:{i} + {size}])", f"    return {out}"]
        return Func(g.func_name(), [(xs, "list_int"), (size, "small_int")], body, "slicing")  # size 0 raises
    if kind == "halves":
        mid, a, b = g.pick(["mid", "half", "m"]), g.pick(["left", "a", "front"]), g.pick(["right", "b", "back"])
        body = [f"    {mid} = len({xs}) // 2", f"    {a} = {xs}[:{mid}]", f"    {b} = {xs}[{mid}:]", f"    return sum({a}) - sum({b})" if g.chance(0.5) else f"    return {b} + {a}"]
        return Func(g.func_name(), [(xs, "list_int")], body, "slicing")
    w, best, i = g.pick(["w", "k", "width"]), g.pick(["best", "top", "m"]), g.pick(["i", "j", "pos"])
    body = [f"    {best} = None", f"    for {i} in range(len({xs}) - {w} + 1):", f"        cur = sum({xs}[{i}:{i} + {w}])", f"        if {best} is None or cur > {best}:", f"            {best} = cur", f"    return {best}"]
    return Func(g.func_name(), [(xs, "list_int"), (w, "small_int")], body, "slicing")


def fam_string_methods(g: ProgramRandom) -> Func:
    s = g.pick(STR_NAMES)
    kind = g.choice(["words", "replace", "find", "title", "join", "count"])
    parts = g.pick(["parts", "words", "pieces"])
    if kind == "words":
        cond = g.word_cond("w")
        sep = g.choice(["' '", "'-'", "','"])
        body = [f"    {parts} = {s}.split()", f"    kept = [w for w in {parts} if {cond}]", f"    return {sep}.join(kept)"]
        typ = "text"
    elif kind == "replace":
        a, b = g.choice(list("aeiost ")), g.choice(["", "_", "*", "ee", "0"])
        body = [f"    {s} = {s}.strip()", f"    {s} = {s}.replace({a!r}, {b!r})", f"    return {s}.{g.choice(['upper', 'lower', 'capitalize', 'title'])}()"]
        typ = g.choice(["str", "text"])
    elif kind == "find":
        ch, i = g.choice(list("aeiost")), g.pick(["i", "idx", "pos"])
        body = [f"    {i} = {s}.find({ch!r})", f"    if {i} == -1:", f"        return {s}", f"    return {s}[:{i}] + {s}[{i} + 1:]"]
        typ = g.choice(["str", "word"])
    elif kind == "title":
        w = g.pick(["w", "word", "p"])
        body = [f"    {parts} = []", f"    for {w} in {s}.split():", f"        {parts}.append({w}[0].upper() + {w}[1:])", f"    return ' '.join({parts})"]
        typ = "text"
    elif kind == "join":
        body = [f"    {parts} = sorted({s}.split(), key=len)", f"    return '|'.join({parts})"]
        typ = "text"
    else:
        ch = g.choice(list("aeiost"))
        body = [f"    n = {s}.count({ch!r})", f"    if {s}.startswith({ch!r}):", "        n += 10", "    return n"]
        typ = g.choice(["str", "word", "text"])
    return Func(g.func_name(), [(s, typ)], body, "string_methods")


def fam_list_methods(g: ProgramRandom) -> Func:
    xs, x = g.pick(LIST_NAMES), g.pick(VAR_NAMES)
    out = g.pick(["out", "stack", "res", "kept"])
    kind = g.choice(["stack", "insert", "remove", "sort"])
    if kind == "stack":
        body = [f"    {out} = []", f"    for {x} in {xs}:", f"        if {out} and {out}[-1] == {x}:", f"            {out}.pop()", "        else:", f"            {out}.append({x})", f"    return {out}"]
    elif kind == "insert":
        body = [f"    {out} = []", f"    for {x} in {xs}:", f"        if {g.int_cond(x)}:", f"            {out}.insert(0, {x})", "        else:", f"            {out}.append({x})", f"    return {out}"]
    elif kind == "remove":
        t = g.pick(["target", "t", "bad"])
        body = [f"    {out} = list({xs})", f"    while {t} in {out}:", f"        {out}.remove({t})", f"    {out}.{g.choice(['reverse', 'sort'])}()", f"    return {out}"]
        return Func(g.func_name(), [(xs, "list_int"), (t, "small_int")], body, "list_methods")
    else:
        body = [f"    {out} = sorted({xs}, reverse={g.choice(['True', 'False'])})", f"    {out}.extend([{g.small(0, 9)}, {g.small(0, 9)}])", f"    return {out}[:{g.small(1, 4)}] + [{out}.index({out}[-1])]"]
    return Func(g.func_name(), [(xs, "list_int")], body, "list_methods")


def fam_recursion(g: ProgramRandom) -> Func:
    kind = g.choice(["fact", "fib", "sum_list", "reverse", "power", "bsearch", "count_down", "flatten_digits"])
    name = g.func_name()
    if kind == "fact":
        n = g.pick(["n", "k"])
        body = [f"    if {n} <= 1:", "        return 1", f"    return {n} * {name}({n} - 1)"]
        return Func(name, [(n, "small_int")], body, "recursion")
    if kind == "fib":
        n = g.pick(["n", "k"])
        body = [f"    if {n} < 2:", f"        return {n}", f"    return {name}({n} - 1) + {name}({n} - 2)"]
        return Func(name, [(n, "small_int")], body, "recursion")
    if kind == "sum_list":
        xs = g.pick(LIST_NAMES)
        body = [f"    if not {xs}:", "        return 0", f"    return {xs}[0] + {name}({xs}[1:])"]
        return Func(name, [(xs, "list_int")], body, "recursion")
    if kind == "reverse":
        s = g.pick(STR_NAMES)
        body = [f"    if len({s}) <= 1:", f"        return {s}", f"    return {name}({s}[1:]) + {s}[0]"]
        return Func(name, [(s, "word")], body, "recursion")
    if kind == "power":
        b, e = g.pick(["base", "b", "x"]), g.pick(["exp", "e", "n"])
        body = [f"    if {e} == 0:", "        return 1", f"    half = {name}({b}, {e} // 2)", f"    if {e} % 2 == 0:", "        return half * half", f"    return half * half * {b}"]
        return Func(name, [(b, "small_int"), (e, "small_int")], body, "recursion")
    if kind == "bsearch":
        xs, t = g.pick(LIST_NAMES), g.pick(["target", "t", "key"])
        body = [f"    {xs} = sorted({xs})", "    lo, hi = 0, len(" + xs + ") - 1", "    while lo <= hi:", "        mid = (lo + hi) // 2",
                f"        if {xs}[mid] == {t}:", "            return mid", f"        if {xs}[mid] < {t}:", "            lo = mid + 1", "        else:", "            hi = mid - 1", "    return -1"]  # fmt: skip
        return Func(name, [(xs, "list_int"), (t, "int")], body, "search")
    if kind == "count_down":
        n = g.pick(["n", "k"])
        acc = g.pick(["acc", "seen"])
        body = [f"    if {n} <= 0:", f"        return {acc}", f"    return {name}({n} - {g.small(1, 2)}, {acc} + [{n}])"]
        return Func(name, [(n, "small_int"), (acc, "list_int")], body, "recursion")
    n = g.pick(["n", "num"])
    body = [f"    if {n} < 10:", f"        return [{n}]", f"    return {name}({n} // 10) + [{n} % 10]"]
    return Func(name, [(n, "small_int")], body, "recursion")


def fam_early_return(g: ProgramRandom) -> Func:
    xs, x, i = g.pick(LIST_NAMES), g.pick(VAR_NAMES), g.pick(["i", "idx", "pos"])
    kind = g.choice(["first_index", "all", "any", "first_dup"])
    if kind == "first_index":
        body = [f"    for {i}, {x} in enumerate({xs}):", f"        if {g.int_cond(x)}:", f"            return {i}", "    return -1"]
    elif kind == "all":
        body = [f"    for {x} in {xs}:", f"        if not ({g.int_cond(x)}):", "            return False", "    return True"]
    elif kind == "any":
        body = [f"    for {x} in {xs}:", f"        if {g.int_cond(x)}:", f"            return {x}", "    return None"]
    else:
        seen = g.pick(["seen", "visited"])
        body = [f"    {seen} = set()", f"    for {x} in {xs}:", f"        if {x} in {seen}:", f"            return {x}", f"        {seen}.add({x})", "    return None"]
    return Func(g.func_name(), [(xs, "list_int")], body, "early_return")


def fam_try_except(g: ProgramRandom) -> Func:
    kind = g.choice(["parse", "lookup", "divide", "index", "raise"])
    if kind == "parse":
        ws, w, out = g.pick(WORDS_NAMES), g.pick(["w", "tok", "p"]), g.pick(["nums", "out", "vals"])
        body = [f"    {out} = []", f"    for {w} in {ws}:", "        try:", f"            {out}.append(int({w}))", "        except ValueError:", f"            {out}.append({g.choice(['0', '-1', 'len(' + w + ')'])})", f"    return {out}"]
        return Func(g.func_name(), [(ws, "list_numstr")], body, "try_except")
    if kind == "lookup":
        d, ks, k, tot = g.pick(DICT_NAMES), g.pick(WORDS_NAMES), g.pick(["k", "key", "name"]), g.pick(ACC_NAMES)
        body = [f"    {tot} = 0", f"    for {k} in {ks}:", "        try:", f"            {tot} += {d}[{k}]", "        except KeyError:", f"            {tot} -= 1", f"    return {tot}"]
        return Func(g.func_name(), [(d, "dict_str_int"), (ks, "list_str")], body, "try_except")
    if kind == "divide":
        xs, x, out = g.pick(LIST_NAMES), g.pick(VAR_NAMES), g.pick(["out", "ratios", "res"])
        k = g.pick(["k", "d", "den"])
        body = [f"    {out} = []", f"    for {x} in {xs}:", "        try:", f"            {out}.append({k} // {x})", "        except ZeroDivisionError:", f"            {out}.append(None)", f"    return {out}"]
        return Func(g.func_name(), [(xs, "list_int"), (k, "int")], body, "try_except")
    if kind == "index":
        xs, i = g.pick(LIST_NAMES), g.pick(["i", "n", "pos"])
        body = ["    try:", f"        return {xs}[{i}] * 2", "    except IndexError:", f"        return -1"]
        if g.chance(0.5):
            body = ["    try:", f"        v = {xs}[{i}]", "    except IndexError as e:", "        return str(e)", "    else:", "        return v + 1"]
        return Func(g.func_name(), [(xs, "list_int"), (i, "small_int")], body, "try_except")
    n = g.pick(["n", "count", "size"])
    limit = g.small(3, 12)
    body = [f"    if {n} < 0:", f"        raise ValueError('negative: ' + str({n}))", f"    if {n} > {limit}:", f"        raise ValueError(f'too big: {{{n}}}')", f"    return list(range({n}))"]
    return Func(g.func_name(), [(n, "int")], body, "raises")


def fam_tuples(g: ProgramRandom) -> Func:
    xs = g.pick(LIST_NAMES)
    kind = g.choice(["minmax", "pairs", "swap", "enumerate"])
    if kind == "minmax":
        lo, hi, x = g.pick(["lo", "smallest"]), g.pick(["hi", "largest"]), g.pick(VAR_NAMES)
        body = [f"    {lo} = {hi} = {xs}[0]", f"    for {x} in {xs}[1:]:", f"        if {x} < {lo}:", f"            {lo} = {x}", f"        elif {x} > {hi}:", f"            {hi} = {x}", f"    return ({lo}, {hi})"]
    elif kind == "pairs":
        a, b = g.pick(["a", "p", "x"]), g.pick(["b", "q", "y"])
        body = [f"    out = []", f"    for {a}, {b} in zip({xs}, {xs}[1:]):", f"        out.append(({a}, {b}, {b} - {a}))", "    return out"]
    elif kind == "swap":
        a, b = g.pick(["a", "x"]), g.pick(["b", "y"])
        body = [f"    {a}, {b} = 0, 1", f"    for _ in range(len({xs})):", f"        {a}, {b} = {b}, {a} + {b}", f"    return {a}, {b}"]
    else:
        i, x = g.pick(["i", "idx"]), g.pick(VAR_NAMES)
        body = [f"    best = ({xs}[0], 0)", f"    for {i}, {x} in enumerate({xs}):", f"        if ({x}, {i}) > best:", f"            best = ({x}, {i})", "    return best"]
    return Func(g.func_name(), [(xs, "list_int")], body, "tuples")


def fam_nested_loops(g: ProgramRandom) -> Func:
    kind = g.choice(["two_sum", "transpose", "grid_sum"])
    if kind == "two_sum":
        xs, t = g.pick(LIST_NAMES), g.pick(["target", "goal", "t"])
        body = [f"    for i in range(len({xs})):", f"        for j in range(i + 1, len({xs})):", f"            if {xs}[i] + {xs}[j] == {t}:", "                return (i, j)", "    return None"]
        return Func(g.func_name(), [(xs, "list_int"), (t, "int")], body, "nested_loops")
    m = g.pick(["grid", "matrix", "rows", "m"])
    if kind == "transpose":
        body = [f"    out = []", f"    for c in range(len({m}[0])):", "        col = []", f"        for r in {m}:", "            col.append(r[c])", "        out.append(col)", "    return out"]
    else:
        body = ["    total = 0", f"    for r, row in enumerate({m}):", "        for c, v in enumerate(row):", "            if (r + c) % 2 == 0:", "                total += v", "    return total"]
    return Func(g.func_name(), [(m, "matrix")], body, "nested_loops")


def fam_sets(g: ProgramRandom) -> Func:
    a, b = g.pick(["a", "xs", "left"]), g.pick(["b", "ys", "right"])
    op = g.choice(["&", "|", "-", "^"])
    body = [f"    common = set({a}) {op} set({b})", f"    return sorted(common)" if g.chance(0.6) else f"    return len(common), max(common, default=-1)"]
    return Func(g.func_name(), [(a, "list_int"), (b, g.choice(["list_int", "set_int"]))], body, "sets")


def fam_dict_ops(g: ProgramRandom) -> Func:
    d = g.pick(DICT_NAMES)
    kind = g.choice(["invert", "filter", "merge", "top"])
    if kind == "invert":
        body = [f"    out = {{}}", f"    for k, v in {d}.items():", "        out.setdefault(v, []).append(k)", "    return out"]
    elif kind == "filter":
        body = [f"    return {{k: v * 2 for k, v in {d}.items() if v > {g.small(0, 8)}}}"]
    elif kind == "merge":
        o = g.pick(["other", "extra", "more"])
        body = [f"    out = dict({d})", f"    for k, v in {o}.items():", "        out[k] = out.get(k, 0) + v", "    return out"]
        return Func(g.func_name(), [(d, "dict_str_int"), (o, "dict_str_int")], body, "dict_ops")
    else:
        body = [f"    ranked = sorted({d}, key=lambda k: {d}[k], reverse=True)", f"    return ranked[:{g.small(1, 3)}]"]
    return Func(g.func_name(), [(d, "dict_str_int")], body, "dict_ops")


def fam_sorting(g: ProgramRandom) -> Func:
    xs = g.pick(LIST_NAMES)
    if g.chance(0.5):
        body = [f"    {xs} = list({xs})", f"    for i in range(len({xs})):", f"        for j in range(len({xs}) - 1 - i):", f"            if {xs}[j] > {xs}[j + 1]:", f"                {xs}[j], {xs}[j + 1] = {xs}[j + 1], {xs}[j]", f"    return {xs}"]
    else:
        body = ["    out = []", f"    for x in {xs}:", "        i = 0", "        while i < len(out) and out[i] < x:", "            i += 1", "        out.insert(i, x)", "    return out"]
    return Func(g.func_name(), [(xs, "list_int")], body, "sorting")


def fam_validate(g: ProgramRandom) -> Func:
    """Loops that raise on a bad element (uncaught: the exit is an exception)."""
    xs, x, acc = g.pick(LIST_NAMES), g.pick(VAR_NAMES), g.pick(ACC_NAMES)
    bad = g.choice([f"{x} < 0", f"{x} > {g.small(10, 18)}", f"{x} == {g.small(0, 9)}", f"{x} % {g.small(5, 9)} == 0"])
    exc = g.choice(["ValueError", "ValueError", "RuntimeError", "AssertionError"])
    msg = g.choice([f"f'bad value: {{{x}}}'", "'invalid input'", f"str({x})"])
    body = [f"    {acc} = []", f"    for {x} in {xs}:", f"        if {bad}:", f"            raise {exc}({msg})", f"        {acc}.append({g.int_expr(x)})", f"    return {acc}"]
    if g.chance(0.4):
        body = [f"    if not {xs}:", f"        raise ValueError('empty')", *body]
    return Func(g.func_name(), [(xs, "list_int")], body, "raises")


def fam_method_chain(g: ProgramRandom) -> Func:
    """One builtin per line over str, list, dict and int values (see method_chains.py)."""
    params, body = method_chain(g)
    return Func(g.func_name(), params, body, "method_chain")


def _data_param(g: ProgramRandom, kind: str | None = None) -> tuple[str, str, list[str]]:
    """A parameter of a common type (``kind``: str, list or words; chosen when None) and short
    expressions over it, the parameter itself included (of its own type or another: a length, a
    test, a join)."""
    kind = kind or g.choice(["str", "list", "words"])
    k = g.small(0, 9)
    if kind == "str":
        p, ch = g.pick(STR_NAMES), g.choice(list("aeiostnx "))
        exprs = [
            p, p, f"{p}[::-1]", f"{p}.upper()", f"{p}.lower()", f"len({p})", f"{p} + {p}", f"{p}[1:]",
            f"{p}[:{g.small(1, 4)}]", f"{p}.strip()", f"{p}.capitalize()", f"{p}.count({ch!r})",
            f"{p}.replace({ch!r}, '')", f"{p}.title()", f"{p}.split()", f"{p}.isalpha()", f"{ch!r} in {p}",
            f"{p} * {g.small(2, 3)}", f"{p}.find({ch!r})",
        ]  # fmt: skip
        return p, g.choice(["str", "word", "text"]), exprs
    if kind == "list":
        p = g.pick(LIST_NAMES)
        exprs = [
            p, p, f"{p}[::-1]", f"len({p})", f"sorted({p})", f"{p} + [{k}]", f"{p}[1:]", f"{p}[:{g.small(1, 3)}]",
            f"sum({p})", f"{p}.count({k})", f"{k} in {p}", f"{p} * 2", f"max({p}, default={k})", f"{p}[-1:]",
        ]  # fmt: skip
        return p, "list_int", exprs
    p, sep = g.pick(WORDS_NAMES), g.choice(["' '", "', '", "'-'", "''"])
    exprs = [
        p, p, f"{sep}.join({p})", f"len({p})", f"sorted({p})", f"{p}[::-1]", f"{p}[1:]", f"{p} + [{sep}]",
        f"[w.upper() for w in {p}]", f"[len(w) for w in {p}]", f"{p}.count('a')",
    ]  # fmt: skip
    return p, "list_str", exprs


def fam_short(g: ProgramRandom) -> Func:
    """Bodies of one or two lines: a function may return at its second line, and a parameter may
    come back unchanged."""
    p, typ, exprs = _data_param(g)
    if g.chance(0.6):
        return Func(g.func_name(), [(p, typ)], [f"    return {g.choice(exprs)}"], "short")
    r = g.pick(ACC_NAMES)
    return Func(g.func_name(), [(p, typ)], [f"    {r} = {g.choice(exprs)}", f"    return {g.choice([r, r, p])}"], "short")


def fam_guard_clause(g: ProgramRandom) -> Func:
    """A mode or a property of the input picks one of a few returns, the first one early."""
    p, typ, exprs = _data_param(g)
    params = [(p, typ)]
    if g.chance(0.6):
        mode = g.pick(["mode", "flag", "option", "level", "key"])
        params.append((mode, "small_int"))
        k = g.small(0, 8)
        conds = [f"{mode} == {k}", f"{mode} == 0", f"{mode} < {k}", f"{mode} > {k}", f"{mode} % 2 == 0", f"not {mode}"]
    else:
        conds = [f"not {p}", f"len({p}) < {g.small(1, 4)}", f"len({p}) > {g.small(2, 6)}", f"len({p}) % 2 == 0"]
    first, second = g.rng.sample(conds, 2)
    body = [f"    if {first}:", f"        return {g.choice(exprs)}"]
    shape = g.choice(["plain", "elif", "else"])
    if shape == "elif":
        body += [f"    elif {second}:", f"        return {g.choice(exprs)}"]
    if shape == "else":
        body += ["    else:", f"        return {g.choice(exprs)}"]
    else:
        body += [f"    return {g.choice(exprs)}"]
    return Func(g.func_name(), params, body, "guard_clause")


def _second_param(g: ProgramRandom, p: str, kind: str) -> tuple[str, str, list[str]]:
    """A second parameter (a count or a piece of text) and expressions mixing it with ``p``."""
    if g.chance(0.55):
        n = g.pick(["n", "k", "count", "size", "width", "times", "index"])
        by_kind = {
            "str": [f"{p}[:{n}]", f"{p}[{n}:]", f"{p} * {n}", f"{p}.ljust({n}, '*')", f"{p}.zfill({n})",
                    f"str({n}) + {p}", f"{p} + str({n})", f"len({p}) + {n}", f"len({p}) > {n}", f"{p}[::{n} or 1]"],
            "list": [f"{p}[:{n}]", f"{p}[{n}:]", f"{p} + [{n}]", f"[x + {n} for x in {p}]",
                     f"[x * {n} for x in {p}]", f"{p}.count({n})", f"{n} in {p}", f"[{n}] + {p}"],
            "words": [f"{p}[:{n}]", f"{p}[{n}:]", f"[w * {n} for w in {p}]", f"[w[:{n}] for w in {p}]",
                      f"len({p}) - {n}", f"{p} + [str({n})]"],
        }  # fmt: skip
        return n, "small_int", by_kind[kind] + [n, n]
    q = g.pick(["sep", "prefix", "suffix", "other", "extra", "tag"])
    by_kind = {
        "str": [f"{p} + {q}", f"{q} + {p}", f"{q}.join({p})", f"{p}.replace({q}, '')", f"{p}.count({q})",
                f"{p}.startswith({q})", f"{p}.endswith({q})", f"{q} in {p}", f"{p}.split({q} or None)",
                f"{p}.strip({q})", f"{p}.find({q})", f"{q} * len({p})"],
        "list": [f"{q} * len({p})", f"[str(x) + {q} for x in {p}]", f"{q}.join(str(x) for x in {p})",
                 f"len({q}) in {p}"],
        "words": [f"{q}.join({p})", f"{p} + [{q}]", f"[w + {q} for w in {p}]", f"{q} in {p}",
                  f"{p}.count({q})", f"[{q}] + {p}"],
    }  # fmt: skip
    return q, "word", by_kind[kind] + [q, q]


def fam_two_params(g: ProgramRandom) -> Func:
    """Two parameters of different types whose values meet in short expressions; a test on either
    one may pick which value comes back, a parameter itself included."""
    kind = g.choice(["str", "list", "words"])
    p, typ, exprs = _data_param(g, kind)
    q, qtyp, mixed = _second_param(g, p, kind)
    params = [(p, typ), (q, qtyp)] if g.chance(0.7) else [(q, qtyp), (p, typ)]
    pool = mixed + mixed + exprs
    if g.chance(0.4):
        r = g.pick(ACC_NAMES)
        return Func(g.func_name(), params, [f"    {r} = {g.choice(pool)}", f"    return {g.choice([r, r, p, q])}"], "two_params")
    cond = g.choice([f"not {q}", f"not {p}", f"len({p}) > {g.small(1, 5)}"] + [e for e in mixed if not e.startswith("[") and (" in " in e or ">" in e or "with(" in e)])
    body = [f"    if {cond}:", f"        return {g.choice(pool)}"]
    if g.chance(0.5):
        body += ["    else:", f"        return {g.choice(pool)}"]
    else:
        r = g.pick(ACC_NAMES)
        body += [f"    {r} = {g.choice(pool)}", f"    return {g.choice([r, r, p, q])}"]
    return Func(g.func_name(), params, body, "two_params")


FAMILIES: list[tuple[Callable[[ProgramRandom], Func], float]] = [
    (fam_accumulate, 1.0), (fam_count_chars, 0.6), (fam_build_string, 0.7), (fam_frequency, 0.8),
    (fam_comprehension, 0.9), (fam_while, 0.8), (fam_slicing, 0.9), (fam_string_methods, 0.9),
    (fam_list_methods, 0.8), (fam_recursion, 1.0), (fam_early_return, 0.8), (fam_try_except, 1.0),
    (fam_tuples, 0.7), (fam_nested_loops, 0.6), (fam_sets, 0.5), (fam_dict_ops, 0.6), (fam_sorting, 0.5), (fam_validate, 0.6),
    (fam_method_chain, 2.5), (fam_short, 0.5), (fam_guard_clause, 0.8), (fam_two_params, 0.9),
]  # fmt: skip


# ----------------------------------------------------------------------------------------------
# Composition: sometimes the entry function calls a helper (in a loop or once).

HELPER_WRAPPERS = ["map", "once", "guard"]


def _pick_family(g: ProgramRandom) -> Callable[[ProgramRandom], Func]:
    fams, weights = zip(*FAMILIES)
    return g.rng.choices(fams, weights=weights)[0]


def _wrap_with_caller(g: ProgramRandom, helper: Func) -> Func:
    """An entry function that calls ``helper``; its parameters feed the helper's."""
    name = g.func_name()
    kind = g.choice(HELPER_WRAPPERS)
    args = ", ".join(p for p, _ in helper.params)
    if kind == "map" and len(helper.params) == 1:
        ptype = helper.params[0][1]
        outer = g.pick(["batch", "groups", "cases", "inputs"])
        item = g.pick(["case", "arg", "entry"])
        res = g.pick(["results", "answers", "outs"])
        body = [f"    {res} = []", f"    for {item} in {outer}:", f"        {res}.append({helper.name}({item}))", f"    return {res}"]
        return Func(name, [(outer, f"batch:{ptype}")], body, helper.family, [helper])
    if kind == "guard":
        r = g.pick(["r", "res", "value"])
        body = [f"    {r} = {helper.name}({args})", f"    if {r} is None:", f"        return {g.choice(['0', '[]', repr('none')])}", f"    return {r}"]
        return Func(name, list(helper.params), body, helper.family, [helper])
    r = g.pick(["r", "res", "value"])
    body = [f"    {r} = {helper.name}({args})", f"    return ({r}, {g.choice(['len(str(' + r + '))', 'type(' + r + ').__name__', repr('done')])})"]
    return Func(name, list(helper.params), body, helper.family, [helper])


def _rand_arg(rng: random.Random, typ: str) -> str:
    if typ.startswith("batch:"):
        inner = typ[len("batch:") :]
        return "[" + ", ".join(_rand_arg(rng, inner) for _ in range(rng.randint(1, 3))) + "]"
    if typ == "list_numstr":
        items = [str(rng.randint(-3, 99)) if rng.random() < 0.6 else rand_value(rng, "word") for _ in range(rng.randint(0, 5))]
        return repr(items)
    return source_of(rand_value(rng, typ))


def generate_program(rng: random.Random) -> Program:
    g = ProgramRandom(rng)
    fam = _pick_family(g)
    func = fam(g)
    funcs = [func]
    if rng.random() < 0.3:
        func = _wrap_with_caller(g, func)
        funcs = [*func.helpers, func]
    source = "\n\n\n".join(f.source() for f in funcs) + "\n"
    call = f"{func.name}({', '.join(_rand_arg(rng, t) for _, t in func.params)})"
    return Program(source, call, func.name, func.family, program_hash(source))


def generate(seed: int, n: int, dedup: bool = True) -> Iterator[Program]:
    """``n`` programs (deduplicated by normalized source when ``dedup``), deterministic in ``seed``."""
    seen: set[str] = set()
    i = 0
    made = 0
    while made < n and i < n * 50:
        rng = random.Random(f"{seed}:{i}")
        i += 1
        p = generate_program(rng)
        if dedup:
            if p.program_id in seen:
                continue
            seen.add(p.program_id)
        made += 1
        yield p


def main(argv: list[str] | None = None) -> int:
    return print_programs("python3 -m training.data.generator", generate, argv)


if __name__ == "__main__":
    sys.exit(main())
