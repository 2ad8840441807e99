"""Straight-line functions that pass values through Python's builtin methods and functions.

The loop-and-condition families teach control flow but use few of the methods of str, list
and dict. Here every line applies one builtin (``s.center(9, '*')``, ``d.pop('cat', -1)``,
``sorted(ws, key=len)``, ...) to a value made by an earlier line, so a step shows exactly what one
operation does. Operations are drawn from the whole builtin API of each type, not from any
benchmark's functions.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol

from .values import WORDS


class Rng(Protocol):
    rng: random.Random

    def pick(self, pool: list[str]) -> str: ...
    def choice(self, options: list[str]) -> str: ...
    def chance(self, p: float) -> bool: ...
    def small(self, lo: int = 1, hi: int = 5) -> int: ...


# An operation: the type it takes, the type it gives ("-" for a statement that changes the value
# in place), and a template that writes the code for an operand name.
Template = Callable[[Rng, str], str]
OPS: list[tuple[str, str, Template]] = []

# (type of parameter, internal type): str-like parameters are all "str".
PARAM_TYPES = [("str", "str"), ("text", "str"), ("word", "str"), ("list_int", "list"), ("list_str", "words"), ("dict_str_int", "dict"), ("int", "int")]
NAMES = {
    "str": ["s", "t", "u", "res", "out", "word", "text"],
    "words": ["parts", "ws", "names", "tokens", "items"],
    "list": ["xs", "ys", "nums", "vals", "seq"],
    "dict": ["d", "m", "counts", "table", "lookup"],
    "int": ["n", "k", "i", "cnt", "size", "pos"],
    "bool": ["ok", "flag", "found", "has"],
}


def op(takes: str, gives: str, *templates: Template) -> None:
    for t in templates:
        OPS.append((takes, gives, t))


def ch(g: Rng) -> str:
    return repr(g.choice(list("aeiostnrlm") + [" ", ",", "-", "."]))


def letters(g: Rng) -> str:
    return repr("".join(g.choice(list("aeiostnrxyz")) for _ in range(g.small(1, 3))))


def word(g: Rng) -> str:
    return repr(g.choice(WORDS))


def trans(g: Rng) -> str:
    a = "".join(g.rng.sample("aeiostnrl", g.small(1, 3)))
    b = "".join(g.choice(list("xyz*_0123AEIOU")) for _ in a)
    return f"str.maketrans({a!r}, {b!r})"


# str -> str
op("str", "str",
   lambda g, v: f"{v}.{g.choice(['upper', 'lower', 'capitalize', 'title', 'swapcase', 'casefold', 'strip'])}()",
   lambda g, v: f"{v}.{g.choice(['strip', 'lstrip', 'rstrip'])}({letters(g)})",
   lambda g, v: f"{v}.replace({ch(g)}, {g.choice([repr(''), ch(g), letters(g)])})",
   lambda g, v: f"{v}.replace({ch(g)}, {letters(g)}, {g.small(1, 2)})",
   lambda g, v: f"{v}.{g.choice(['center', 'ljust', 'rjust'])}({g.small(4, 14)}, {g.choice(['*', '-', '.', '#'])!r})",
   lambda g, v: f"{v}.{g.choice(['center', 'ljust', 'rjust', 'zfill'])}({g.small(3, 12)})",
   lambda g, v: f"{v}.{g.choice(['removeprefix', 'removesuffix'])}({letters(g)})",
   lambda g, v: f"{v}[{g.choice(['::-1', '::2', '1::2', str(g.small(1, 4)) + ':', ':' + str(g.small(1, 5)), ':-' + str(g.small(1, 3)), str(g.small(0, 2)) + ':' + str(g.small(3, 7))])}]",
   lambda g, v: g.choice([f"{v} * {g.small(2, 3)}", f"{v} + {letters(g)}", f"{letters(g)} + {v}", f"{v} + {v}[::-1]"]),
   lambda g, v: f"{v}.{g.choice(['partition', 'rpartition'])}({ch(g)})[{g.choice(['0', '2', '-1'])}]",
   lambda g, v: g.choice([f"''.join(sorted({v}))", f"''.join(reversed({v}))", f"' '.join({v}.split())", f"''.join(sorted(set({v})))"]),
   lambda g, v: f"{v}.translate({trans(g)})",
   lambda g, v: f"{v}.split({ch(g)})[{g.choice(['0', '-1'])}]",
   lambda g, v: f"{v}.upper() if {v}.islower() else {v}.lower()",
   lambda g, v: g.choice([f"f'<{{{v}}}>'", f"f'{{{v}!r}}'", f"f'{{{v}:>{g.small(5, 10)}}}'", f"'{{}}:{{}}'.format({v}, len({v}))"]),
   lambda g, v: f"{v}[0].upper() + {v}[1:] if {v} else {v}",
   lambda g, v: f"{v}.expandtabs({g.small(1, 4)}).replace(' ', '')" if g.chance(0.2) else f"{v}.strip({ch(g)})")  # fmt: skip
# str -> other
op("str", "words",
   lambda g, v: g.choice([f"{v}.split()", f"{v}.split({ch(g)})", f"{v}.rsplit({ch(g)}, 1)", f"{v}.split({ch(g)}, {g.small(1, 2)})", f"list({v})", f"{v}.splitlines()", f"list({v}.partition({ch(g)}))"]),
   lambda g, v: f"[c for c in {v} if c.{g.choice(['isalpha', 'isdigit', 'isupper', 'islower', 'isalnum'])}()]")  # fmt: skip
op("str", "int",
   lambda g, v: g.choice([f"len({v})", f"{v}.find({ch(g)})", f"{v}.rfind({ch(g)})", f"{v}.count({ch(g)})", f"{v}.count({letters(g)})", f"ord({v}[0]) if {v} else 0", f"len(set({v}))"]),
   lambda g, v: f"{v}.index({ch(g)})" if g.chance(0.3) else f"{v}.find({letters(g)})")  # fmt: skip
op("str", "bool",
   lambda g, v: f"{v}.{g.choice(['isdigit', 'isalpha', 'isalnum', 'isspace', 'isupper', 'islower', 'istitle', 'isnumeric', 'isidentifier', 'isdecimal'])}()",
   lambda g, v: g.choice([f"{v}.startswith({letters(g)})", f"{v}.endswith({letters(g)})", f"{ch(g)} in {v}", f"{v} == {v}[::-1]", f"{v} < {word(g)}"]))  # fmt: skip
# words (list of str)
op("words", "str",
   lambda g, v: f"{g.choice([repr(''), repr(' '), repr(','), repr('-'), repr(', ')])}.join({v})",
   lambda g, v: g.choice([f"{v}[0] if {v} else ''", f"{v}[-1] if {v} else ''", f"max({v}, key=len) if {v} else ''", f"min({v}, default='')", f"str({v})"]))  # fmt: skip
op("words", "words",
   lambda g, v: g.choice([f"sorted({v})", f"sorted({v}, key=len)", f"sorted({v}, reverse=True)", f"sorted({v}, key=lambda w: w[-1:])", f"{v}[::-1]", f"{v}[1:]", f"list(dict.fromkeys({v}))"]),
   lambda g, v: g.choice([f"[w.{g.choice(['upper', 'title', 'strip', 'lower'])}() for w in {v}]", f"[w for w in {v} if len(w) > {g.small(2, 4)}]", f"[w[0] for w in {v} if w]", f"[w[::-1] for w in {v}]", f"{v} + [{word(g)}]"]))  # fmt: skip
op("words", "int",
   lambda g, v: g.choice([f"len({v})", f"{v}.count({word(g)})", "sum(len(w) for w in " + v + ")", (lambda w: f"{v}.index({w}) if {w} in {v} else -1")(word(g))]))  # fmt: skip
op("words", "dict",
   lambda g, v: g.choice(["{w: len(w) for w in " + v + "}", f"dict.fromkeys({v}, 0)", f"dict(zip({v}, range(len({v}))))", "{w[0]: len(w) for w in " + v + " if w}"]))  # fmt: skip
op("words", "-",
   lambda g, v: g.choice([f"{v}.append({word(g)})", f"{v}.insert({g.small(0, 2)}, {word(g)})", f"{v}.sort()", f"{v}.reverse()", f"{v}.extend([{word(g)}, {word(g)}])", f"{v}.sort(key=len)"]),
   lambda g, v: g.choice([f"if {v}:\n        {v}.pop()", f"if {v}:\n        {v}.pop(0)", (lambda w: f"if {w} in {v}:\n        {v}.remove({w})")(word(g))]))  # fmt: skip
# list of int
op("list", "list",
   lambda g, v: g.choice([f"sorted({v})", f"sorted({v}, reverse=True)", f"{v}[::-1]", f"{v}[{g.small(1, 3)}:]", f"{v}[:{g.small(1, 4)}]", f"{v}[::2]", f"list(reversed({v}))", f"sorted(set({v}))", f"{v} + [{g.small(0, 9)}]", f"{v} * 2"]),
   lambda g, v: g.choice([f"[x * {g.small(2, 3)} for x in {v}]", f"[x for x in {v} if x % 2 == {g.small(0, 1)}]", f"[x for x in {v} if x > {g.small(0, 6)}]", f"[abs(x) for x in {v}]", f"[x % {g.small(2, 5)} for x in {v}]", f"[x - {v}[0] for x in {v}]", f"[i * x for i, x in enumerate({v})]", f"list(map(lambda x: x + {g.small(1, 5)}, {v}))", f"list(filter(lambda x: x > {g.small(0, 6)}, {v}))"]))  # fmt: skip
op("list", "int",
   lambda g, v: g.choice([f"sum({v})", f"len({v})", f"max({v}, default=0)", f"min({v}, default=0)", f"{v}.count({g.small(0, 9)})", f"len(set({v}))", f"sum({v}) // max(len({v}), 1)", f"{v}[-1] if {v} else -1"]),
   lambda g, v: f"{v}.index({g.small(0, 9)})" if g.chance(0.3) else f"sum(x for x in {v} if x % 2 == 0)")  # fmt: skip
op("list", "bool", lambda g, v: g.choice([f"{g.small(0, 9)} in {v}", f"all(x > 0 for x in {v})", f"any(x % {g.small(2, 5)} == 0 for x in {v})", f"{v} == sorted({v})"]))  # fmt: skip
op("list", "words", lambda g, v: g.choice([f"list(map(str, {v}))", f"[str(x) * 2 for x in {v}]"]))
op("list", "str", lambda g, v: g.choice([f"','.join(map(str, {v}))", f"str({v})", "''.join(str(x) for x in " + v + ")", f"' '.join(str(x) for x in sorted({v}))"]))
op("list", "-",
   lambda g, v: g.choice([f"{v}.append({g.small(0, 9)})", f"{v}.insert({g.small(0, 3)}, {g.small(0, 9)})", f"{v}.extend([{g.small(0, 9)}, {g.small(0, 9)}])", f"{v}.sort()", f"{v}.sort(reverse=True)", f"{v}.reverse()"]),
   lambda g, v: g.choice([f"if {v}:\n        {v}.pop()", f"if {v}:\n        {v}.pop(0)", f"if {v}:\n        {v}[{g.small(0, 3)} % len({v})] = {g.small(0, 9)}", f"del {v}[{g.small(0, 2)}:{g.small(2, 4)}]", f"{v}.remove({g.small(0, 9)})" if g.chance(0.2) else f"{v}[:] = {v}[1:] + {v}[:1]"]))  # fmt: skip
# dict of str -> int
op("dict", "dict",
   lambda g, v: g.choice(["{k: n for k, n in " + v + ".items() if n > " + str(g.small(0, 6)) + "}", f"dict(sorted({v}.items()))", "{k: n * 2 for k, n in " + v + ".items()}",
                          f"dict(sorted({v}.items(), key=lambda kv: kv[1]))", "{k.upper(): n for k, n in " + v + ".items()}", f"{v} | {{{word(g)}: {g.small(0, 9)}}}", f"dict({v}, **{{{word(g)}: {g.small(0, 9)}}})"]))  # fmt: skip
op("dict", "words", lambda g, v: g.choice([f"list({v})", f"sorted({v})", f"sorted({v}, key={v}.get)", f"[k for k in {v} if {v}[k] > {g.small(0, 6)}]", f"list({v}.keys())[::-1]"]))
op("dict", "list", lambda g, v: g.choice([f"list({v}.values())", f"sorted({v}.values())", "[len(k) + n for k, n in " + v + ".items()]"]))
op("dict", "int",
   lambda g, v: g.choice([f"len({v})", f"{v}.get({word(g)}, 0)", f"sum({v}.values())", f"{v}.pop({word(g)}, -1)", f"{v}.setdefault({word(g)}, {g.small(0, 9)})", f"max({v}.values(), default=0)"]))  # fmt: skip
op("dict", "bool", lambda g, v: g.choice([f"{word(g)} in {v}", f"{g.small(0, 9)} in {v}.values()", f"not {v}"]))
op("dict", "-",
   lambda g, v: g.choice([f"{v}[{word(g)}] = {g.small(0, 9)}", f"{v}.update({{{word(g)}: {g.small(0, 9)}}})", f"{v}.setdefault({word(g)}, {g.small(0, 9)})", (lambda w: f"{v}[{w}] = {v}.get({w}, 0) + {g.small(1, 5)}")(word(g))]),
   lambda g, v: g.choice([f"if {v}:\n        {v}.popitem()", (lambda w: f"if {w} in {v}:\n        del {v}[{w}]")(word(g)), f"for key in list({v}):\n        {v}[key] += {g.small(1, 3)}"]))  # fmt: skip
# int
op("int", "int",
   lambda g, v: g.choice([f"{v} * {g.small(2, 4)}", f"{v} // {g.small(2, 4)}", f"{v} % {g.small(2, 7)}", f"{v} ** 2", f"abs({v})", f"-{v}", f"max({v}, {g.small(0, 9)})", f"min({v}, {g.small(0, 9)})", f"{v} + {g.small(1, 9)}", f"round({v} / {g.small(2, 4)})"]),
   lambda g, v: g.choice([f"int(str(abs({v}))[::-1])", f"{v} << {g.small(1, 3)}", f"{v} & {g.small(1, 15)}", f"{v} | {g.small(1, 8)}", f"{v} ^ {g.small(1, 8)}", f"sum(int(c) for c in str(abs({v})))", f"pow({v}, 2, {g.small(3, 11)})"]))  # fmt: skip
op("int", "str", lambda g, v: g.choice([f"str({v})", f"bin({v})", f"hex({v})", f"f'{{{v}:03d}}'", f"chr(97 + {v} % 26)", f"str({v}) * 2", f"'x' * ({v} % 5)", f"oct({v})"]))
op("int", "list", lambda g, v: g.choice([f"list(range({v} % 7))", f"[{v}] * 3", f"[int(c) for c in str(abs({v}))]", f"list(divmod({v}, {g.small(2, 5)}))", f"list(range({v}, {v} + {g.small(2, 5)}))"]))
op("int", "bool", lambda g, v: g.choice([f"{v} % 2 == 0", f"{v} > {g.small(0, 9)}", f"bool({v})", f"{v} in range({g.small(3, 12)})"]))
op("bool", "int", lambda g, v: g.choice([f"int({v})", f"{v} + {g.small(1, 3)}", f"{g.small(1, 9)} if {v} else {g.small(0, 9)}"]))
op("bool", "str", lambda g, v: g.choice([f"str({v})", f"'yes' if {v} else 'no'", f"str(not {v}).lower()"]))


def method_chain(g: Rng) -> tuple[list[tuple[str, str]], list[str]]:
    """Parameters and body lines of one function: 3–7 steps, each one builtin on an earlier value."""
    params: list[tuple[str, str]] = []
    values: list[tuple[str, str]] = []  # (name, internal type), in order of creation
    for _ in range(1 if g.chance(0.6) else 2):
        ptype, itype = g.rng.choice(PARAM_TYPES)
        name = g.pick(NAMES[itype])
        params.append((name, ptype))
        values.append((name, itype))
    body: list[str] = []
    last = values[-1][0]
    for _ in range(g.small(3, 7)):
        # most steps continue from the newest value, some go back to an older one
        name, typ = values[-1] if g.chance(0.7) else g.rng.choice(values)
        takes = [o for o in OPS if o[0] == typ]
        _, gives, template = g.rng.choice(takes)
        code = template(g, name)
        if gives == "-":
            body.append(f"    {code}")
            last = name
            continue
        if gives == typ and g.chance(0.5):
            target = name
        else:
            target = g.pick(NAMES[gives])
            values.append((target, gives))
        body.append(f"    {target} = {code}")
        last = target
    others = [n for n, _ in values if n != last]
    if others and g.chance(0.25):
        body.append(f"    return {last}, {g.rng.choice(others)}")
    else:
        body.append(f"    return {last}")
    return params, body
