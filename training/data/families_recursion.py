"""Families of recursive programs (mutual recursion, deep linear recursion, recursion over lists,
strings and trees) and of programs that print formatted output.
"""

from __future__ import annotations

from .families_common import Piece, indent, ints, lit, maybe_print, some_ints, word, words
from .generator import ProgramRandom


def _pair_names(g: ProgramRandom, pairs: list[tuple[str, str]]) -> tuple[str, str]:
    a, b = g.choice(pairs) if g.chance(0.7) else (g.func_name(), g.func_name())
    if a in g.used or b in g.used:
        a, b = g.func_name(), g.func_name()
    g.used |= {a, b}
    return a, b


def fam_mutual_recursion(g: ProgramRandom) -> Piece:
    kind = g.choice(["even_odd", "ping_pong", "nested", "collatz"])
    n = g.pick(["n", "k", "num", "count"])
    if kind == "even_odd":
        a, b = _pair_names(g, [("is_even", "is_odd"), ("even", "odd"), ("evenp", "oddp")])
        defs = [[f"def {a}({n}):", f"    if {n} == 0:", "        return True", f"    return {b}({n} - 1)"],
                [f"def {b}({n}):", f"    if {n} == 0:", "        return False", f"    return {a}({n} - 1)"]]
        return Piece(defs, direct=f"{g.choice([a, b])}({g.small(0, 30)})")
    if kind == "ping_pong":
        a, b = _pair_names(g, [("ping", "pong"), ("tick", "tock"), ("left", "right"), ("serve", "reply")])
        out = g.pick(["out", "log", "calls", "trail"])
        item_a = g.choice([repr(a), n, f"{n} * 2"])
        item_b = g.choice([repr(b), f"-{n}", f"str({n})"])
        defs = [[f"def {a}({n}, {out}):", f"    if {n} <= 0:", f"        return {out}", f"    {out}.append({item_a})", f"    return {b}({n} - 1, {out})"],
                [f"def {b}({n}, {out}):", f"    if {n} <= 0:", f"        return {out}", f"    {out}.append({item_b})",
                 *indent(maybe_print(g, 0.3, repr(b), n)), f"    return {a}({n} - {g.small(1, 2)}, {out})"]]
        return Piece(defs, direct=f"{a}({g.small(2, 9)}, [])")
    if kind == "nested":
        a, b = _pair_names(g, [("total", "total_list"), ("weigh", "weigh_all"), ("count_in", "count_list")])
        x, xs, s, el = g.pick(["x", "thing", "part"]), g.pick(["xs", "group", "parts"]), g.pick(["s", "acc", "subtotal"]), g.pick(["el", "member", "piece"])
        leaf = g.choice([x, "1", f"{x} * {x}"])
        defs = [[f"def {a}({x}):", f"    if isinstance({x}, list):", f"        return {b}({x})", f"    return {leaf}"],
                [f"def {b}({xs}):", f"    {s} = 0", f"    for {el} in {xs}:", f"        {s} += {a}({el})", f"    return {s}"]]
        nested = [g.small(0, 9), [g.small(0, 9), [g.small(0, 9), g.small(0, 9)]], [], g.small(0, 9)][: g.small(2, 4)]
        return Piece(defs, direct=f"{a}({lit(nested)})")
    a, b = _pair_names(g, [("down", "up"), ("halve", "triple"), ("even_step", "odd_step")])
    steps = g.pick(["steps", "count", "moves"])
    defs = [[f"def {a}({n}, {steps}):", f"    if {n} == 1:", f"        return {steps}", f"    if {n} % 2 == 0:", f"        return {a}({n} // 2, {steps} + 1)",
             f"    return {b}({n}, {steps})"],
            [f"def {b}({n}, {steps}):", f"    return {a}(3 * {n} + 1, {steps} + 1)"]]
    return Piece(defs, direct=f"{a}({g.small(1, 20)}, 0)")


def fam_deep_recursion(g: ProgramRandom) -> Piece:
    """Linear recursion 20 to 60 calls deep: the stack grows and unwinds through many frames."""
    depth = g.small(20, 60)
    name = g.func_name()
    n = g.pick(["n", "k", "i", "steps"])
    kind = g.choice(["sum_to", "multiply", "tail_acc", "build", "count_char", "digits_sum"])
    if kind == "sum_to":
        term = g.choice([n, f"{n} % {g.small(2, 7)}", f"{n} * 2", "1"])
        body = [f"    if {n} <= 0:", "        return 0", f"    return {term} + {name}({n} - 1)"]
        return Piece([[f"def {name}({n}):", *body]], direct=f"{name}({depth})")
    if kind == "multiply":
        a = g.pick(["a", "base", "unit"])
        body = [f"    if {n} == 0:", "        return 0", f"    return {a} + {name}({a}, {n} - 1)"]
        return Piece([[f"def {name}({a}, {n}):", *body]], direct=f"{name}({g.small(-5, 9)}, {depth})")
    if kind == "tail_acc":
        acc = g.pick(["acc", "total", "so_far"])
        body = [f"    if {n} == 0:", f"        return {acc}", f"    return {name}({n} - 1, {acc} + {g.choice([n, f'{n} % 3', '2'])})"]
        return Piece([[f"def {name}({n}, {acc}=0):", *body]], direct=f"{name}({depth})")
    if kind == "build":
        ch = g.choice([f"str({n} % 10)", f"chr(97 + {n} % 26)", f"'ab'[{n} % 2]"])
        body = [f"    if {n} == 0:", "        return ''", f"    return {name}({n} - 1) + {ch}"]
        return Piece([[f"def {name}({n}):", *body]], direct=f"{name}({g.small(20, 40)})")
    if kind == "count_char":
        s, c, i = g.pick(["s", "text", "line"]), g.pick(["ch", "target", "letter"]), g.pick(["i", "pos", "idx"])
        body = [f"    if {i} == len({s}):", "        return 0", f"    hit = 1 if {s}[{i}] == {c} else 0", f"    return hit + {name}({s}, {c}, {i} + 1)"]
        text = " ".join(words(g, 4, 8))[: g.small(20, 45)]
        return Piece([[f"def {name}({s}, {c}, {i}=0):", *body]], direct=f"{name}({text!r}, {g.choice(list('aeiorst'))!r})")
    body = [f"    if {n} < 10:", f"        return {n}", f"    return {n} % 10 + {name}({n} // 10)"]
    digits = "".join(str(g.small(0, 9)) for _ in range(g.small(20, 40)))
    return Piece([[f"def {name}({n}):", *body]], direct=f"{name}({int('1' + digits)})")


def fam_recursion_structures(g: ProgramRandom) -> Piece:
    kind = g.choice(["flatten", "palindrome", "reverse", "subsets", "perms", "merge_sort", "tuple_tree", "dict_tree", "hanoi", "binomial"])
    name = g.func_name()
    if kind == "flatten":
        xs, x, out = g.pick(["xs", "nested", "items"]), g.pick(["x", "el", "part"]), g.pick(["out", "flat", "res"])
        body = [f"    {out} = []", f"    for {x} in {xs}:", f"        if isinstance({x}, list):", f"            {out}.extend({name}({x}))", "        else:",
                f"            {out}.append({x})", f"    return {out}"]
        nested = [g.small(0, 9), [g.small(0, 9), [g.small(0, 9), [g.small(0, 9)]]], [g.small(0, 9)]]
        return Piece([[f"def {name}({xs}):", *body]], direct=f"{name}({lit(nested)})")
    if kind in ("palindrome", "reverse"):
        s = g.pick(["s", "word", "text"])
        if kind == "palindrome":
            body = [f"    if len({s}) < 2:", "        return True", f"    if {s}[0] != {s}[-1]:", "        return False", f"    return {name}({s}[1:-1])"]
            w = word(g)
            arg = g.choice([w + w[::-1], w + w[-2::-1], w, "racecar", "level", "abcba"])
        else:
            body = [f"    if {s} == '':", f"        return {s}", f"    return {name}({s}[1:]) + {s}[0]"]
            arg = word(g)
        return Piece([[f"def {name}({s}):", *body]], direct=f"{name}({arg[:14]!r})")
    if kind == "subsets":
        xs, rest, r = g.pick(["xs", "items", "pool"]), g.pick(["rest", "without", "others"]), g.pick(["r", "sub", "combo"])
        body = [f"    if not {xs}:", "        return [[]]", f"    {rest} = {name}({xs}[1:])", f"    return {rest} + [[{xs}[0]] + {r} for {r} in {rest}]"]
        return Piece([[f"def {name}({xs}):", *body]], direct=f"{name}({lit(some_ints(g, 1, 3))})")
    if kind == "perms":
        s, out, i, c, p = g.pick(["s", "letters", "chars"]), g.pick(["out", "result_", "perms"]), g.pick(["i", "pos"]), g.pick(["c", "ch", "first"]), g.pick(["p", "tail", "rest"])
        body = [f"    if len({s}) <= 1:", f"        return [{s}]", f"    {out} = []", f"    for {i}, {c} in enumerate({s}):",
                f"        for {p} in {name}({s}[:{i}] + {s}[{i} + 1:]):", f"            {out}.append({c} + {p})", f"    return {out}"]
        return Piece([[f"def {name}({s}):", *body]], direct=f"{name}({''.join(g.rng.sample('abcdxyz', g.small(2, 3)))!r})")
    if kind == "merge_sort":
        merge, xs, a, b, out = g.pick(["merge", "combine", "zip_sorted"]), g.pick(["xs", "nums", "values"]), g.pick(["a", "left"]), g.pick(["b", "right"]), g.pick(["out", "merged"])
        defs = [[f"def {merge}({a}, {b}):", f"    {out} = []", f"    while {a} and {b}:", f"        if {a}[0] <= {b}[0]:", f"            {out}.append({a}.pop(0))",
                 "        else:", f"            {out}.append({b}.pop(0))", f"    return {out} + {a} + {b}"],
                [f"def {name}({xs}):", f"    if len({xs}) <= 1:", f"        return {xs}", f"    mid = len({xs}) // 2",
                 f"    return {merge}({name}({xs}[:mid]), {name}({xs}[mid:]))"]]
        return Piece(defs, direct=f"{name}({lit(some_ints(g, 2, 7))})")
    if kind == "tuple_tree":
        t, v, l, r = g.pick(["t", "tree", "node_"]), g.pick(["v", "val", "key"]), g.pick(["l", "left"]), g.pick(["r", "right"])
        combine = g.choice([f"{v} + {name}({l}) + {name}({r})", f"1 + max({name}({l}), {name}({r}))", f"{name}({l}) + [{v}] + {name}({r})"])
        base = "[]" if "[" in combine else "0"
        body = [f"    if {t} is None:", f"        return {base}", f"    {v}, {l}, {r} = {t}", f"    return {combine}"]
        leaf = lambda: (g.small(0, 9), None, None)  # noqa: E731 - a tiny local builder
        tree = (g.small(0, 9), (g.small(0, 9), leaf(), None), (g.small(0, 9), None, leaf() if g.chance(0.5) else None))
        return Piece([[f"def {name}({t}):", *body]], direct=f"{name}({tree!r})")
    if kind == "dict_tree":
        t, c, total = g.pick(["node_", "d", "folder"]), g.pick(["child", "sub", "kid"]), g.pick(["total", "count", "acc"])
        key, kids = g.choice([("size", "children"), ("weight", "parts"), ("score", "kids")])
        body = [f"    {total} = {t}[{key!r}]", f"    for {c} in {t}.get({kids!r}, []):", f"        {total} += {name}({c})", f"    return {total}"]
        tree = {key: g.small(0, 9), kids: [{key: g.small(0, 9)}, {key: g.small(0, 9), kids: [{key: g.small(0, 9)}]}]}
        return Piece([[f"def {name}({t}):", *body]], direct=f"{name}({tree!r})")
    if kind == "hanoi":
        n, a, b, c, moves = g.pick(["n", "disks", "k"]), g.pick(["src", "a", "start"]), g.pick(["dst", "b", "goal"]), g.pick(["via", "c", "spare"]), g.pick(["moves", "log", "steps"])
        body = [f"    if {n} == 0:", "        return", f"    {name}({n} - 1, {a}, {c}, {b}, {moves})", f"    {moves}.append(({a}, {b}))", f"    {name}({n} - 1, {c}, {b}, {a}, {moves})"]
        m = g.pick(["moves_made", "done", "history"])
        driver = [f"{m} = []", f"{name}({g.small(1, 4)}, 'A', 'C', 'B', {m})"]
        return Piece([[f"def {name}({n}, {a}, {b}, {c}, {moves}):", *body]], driver, [], f"len({m}), {m}[:{g.small(2, 4)}]")
    n, k = g.pick(["n", "total", "m"]), g.pick(["k", "pick", "r"])
    body = [f"    if {k} == 0 or {k} == {n}:", "        return 1", f"    return {name}({n} - 1, {k} - 1) + {name}({n} - 1, {k})"]
    nn = g.small(2, 6)
    return Piece([[f"def {name}({n}, {k}):", *body]], direct=f"{name}({nn}, {g.small(0, nn)})")


def fam_printing(g: ProgramRandom) -> Piece:
    """Functions that print as they go: f-string formats, ``sep`` and ``end``, a small table."""
    kind = g.choice(["table", "bars", "row", "countdown"])
    name = g.func_name()
    if kind == "table":
        names, vals, a, b, total = g.pick(["names", "items", "labels"]), g.pick(["prices", "amounts", "scores"]), g.pick(["nm", "label_", "who"]), g.pick(["v", "price", "pts"]), g.pick(["total", "acc", "sum_"])
        width = g.small(6, 10)
        fmt = g.choice([f"f'{{{a}:<{width}}}{{{b}:>5}}'", f"f'{{{a}}}: {{{b}}}'", f"f'{{{a}:>{width}}} | {{{b}:.1f}}'", f"{a} + ' ' + str({b})"])
        body = [f"    print({g.choice([repr('Report'), repr(word(g).upper()), repr('-' * width)])})", f"    {total} = 0", f"    for {a}, {b} in zip({names}, {vals}):",
                f"        print({fmt})", f"        {total} += {b}", f"    print('total:', {total}{', sep=' + repr(g.choice(['', ' = ', ': '])) if g.chance(0.3) else ''})", f"    return {total}"]
        n = g.small(1, 4)
        return Piece([[f"def {name}({names}, {vals}):", *body]], direct=f"{name}({lit(words(g, n, n))}, {lit(ints(g, 0, 99, n, n))})")
    if kind == "bars":
        xs, x, ch = g.pick(["counts", "values", "data"]), g.pick(["v", "n_", "size"]), g.choice(["'#'", "'*'", "'='", "'o'"])
        body = [f"def {name}({xs}):", f"    for {x} in {xs}:", f"        print({ch} * {x}, {x})", f"    return max({xs}, default=0)"]
        return Piece([body], direct=f"{name}({lit(ints(g, 0, 9, 1, 5))})")
    if kind == "row":
        n, i = g.pick(["n", "size", "rows"]), g.pick(["i", "r", "row"])
        j = g.pick(["j", "c", "col"])
        cell, end = g.choice([f"{i} * {j}", f"{i} + {j}", f"max({i}, {j})"]), g.choice([" ", "\t", ","])
        body = [f"def {name}({n}):", f"    for {i} in range(1, {n} + 1):", f"        for {j} in range(1, {n} + 1):",
                f"            print({cell}, end={end!r})", "        print()", f"    return {n} * {n}"]
        return Piece([body], direct=f"{name}({g.small(2, 4)})")
    n = g.pick(["n", "start", "left"])
    body = [f"def {name}({n}):", f"    while {n} > 0:", f"        print({g.choice([n, f'{n!r}, {n}', f'str({n}) + {word(g)!r}'])}{', end=' + repr(' ') if g.chance(0.4) else ''})",
            f"        {n} -= {g.small(1, 3)}", f"    print({g.choice([repr('done'), repr('go!'), repr(word(g))])})"]
    return Piece([body], direct=f"{name}({g.small(2, 8)})")


RECURSION_FAMILIES = {
    "mutual_recursion": fam_mutual_recursion, "deep_recursion": fam_deep_recursion,
    "recursion_structures": fam_recursion_structures, "printing": fam_printing,
}  # fmt: skip
