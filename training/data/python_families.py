"""Programs with the Python constructs the function generator (``generator.py``) never writes:
classes, closures, generators, exceptions across frames, decorators, context managers, lambdas,
mutual and deep recursion, printing, and module-level scripts with no entry call.

Each family lives in ``families_objects.py``, ``families_flow.py`` or ``families_recursion.py`` (the
module-level ``script`` family is here) and builds a ``Piece`` that ``families_common.render`` writes
either as an entry function called with literals or as module-level code (call ""). Programs are
short, deterministic and end well within the tracer's 2,000-event budget.

    python3 -m training.data.python_families --n 5 --seed 1     # prints programs as JSONL
"""

from __future__ import annotations

import random
import sys
from typing import Callable

from .families_common import Piece, class_name, klass, method, new_g, render, words
from .families_flow import FLOW_FAMILIES
from .families_objects import OBJECT_FAMILIES
from .families_recursion import RECURSION_FAMILIES
from .generator import ProgramRandom
from .programs import Program, print_programs, program_hash


def _script_shop(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Product", "Item", "Stock", "Ticket", "Seat", "Book"])
    name, stock, sell = g.pick(["name", "title", "label"]), g.pick(["stock", "left", "qty", "copies"]), g.pick(["sell", "take", "book", "reserve"])
    k = g.pick(["n_", "amount", "wanted"])
    cls_def = klass(cls, [method("__init__", ["self", name, stock], [f"self.{name} = {name}", f"self.{stock} = {stock}"]),
                          method(sell, ["self", k], [f"if {k} > self.{stock}:", "    return False", f"self.{stock} -= {k}", "return True"])])
    names = words(g, 2, 3)
    products, lookup, orders, o, nm, q, ok = (g.pick(["products", "catalog", "shelf"]), g.pick(["by_name", "lookup", "index"]), g.pick(["orders", "requests", "sales"]),
                                             g.pick(["o", "item_", "prod"]), g.pick(["nm", "which", "label_"]), g.pick(["q", "count", "num"]), g.pick(["ok", "done", "sold"]))
    made = ", ".join(f"{cls}({w!r}, {g.small(0, 6)})" for w in names)
    order_list = [(g.choice(names), g.small(1, 4)) for _ in range(g.small(2, 4))]
    lines = [f"{products} = [{made}]", f"{lookup} = {{{o}.{name}: {o} for {o} in {products}}}", f"{orders} = {order_list!r}",
             f"for {nm}, {q} in {orders}:", f"    {ok} = {lookup}[{nm}].{sell}({q})", f"    print({nm}, {q}, 'ok' if {ok} else 'refused')",
             f"for {o} in {products}:", f"    print({o}.{name}, {o}.{stock})"]
    return Piece([cls_def], lines, [], "None", module_share=1.0)


def _script_grades(g: ProgramRandom) -> Piece:
    fn, score = g.pick(["grade", "letter", "band", "classify"]), g.pick(["score", "mark", "points"])
    cuts = sorted(g.rng.sample(range(30, 95), 3), reverse=True)
    labels = g.choice([["A", "B", "C", "F"], ["high", "mid", "low", "fail"], ["gold", "silver", "bronze", "none"]])
    body = [f"def {fn}({score}):", f"    if {score} >= {cuts[0]}:", f"        return {labels[0]!r}", f"    elif {score} >= {cuts[1]}:", f"        return {labels[1]!r}",
            f"    elif {score} >= {cuts[2]}:", f"        return {labels[2]!r}", f"    return {labels[3]!r}"]
    table, counts, who, s, lab = g.pick(["scores", "marks", "results"]), g.pick(["counts", "tally", "per_grade"]), g.pick(["who", "student", "nm"]), g.pick(["sc", "pts", "value_"]), g.pick(["lab", "got", "band_"])
    data = {w: g.small(10, 100) for w in words(g, 2, 5)}
    lines = [f"{table} = {data!r}", f"{counts} = {{}}", f"for {who}, {s} in {table}.items():", f"    {lab} = {fn}({s})",
             f"    {counts}[{lab}] = {counts}.get({lab}, 0) + 1", f"    print({who}, {s}, {lab})", f"print({counts})"]
    return Piece([body], lines, [], "None", module_share=1.0)


def _script_sim(g: ProgramRandom) -> Piece:
    pos, speed, steps, limit, trail = g.pick(["position", "pos", "height", "distance"]), g.pick(["speed", "velocity", "step_size"]), g.pick(["steps", "ticks", "turns"]), g.small(10, 40), g.pick(["trail", "path", "visited"])
    lines = [f"{pos} = 0", f"{speed} = {g.small(2, 6)}", f"{steps} = 0", f"{trail} = []", f"while {pos} < {limit} and {steps} < {g.small(6, 12)}:",
             f"    {pos} += {speed}", f"    if {pos} % {g.small(2, 4)} == 0:", f"        {speed} = max(1, {speed} - 1)", f"    {trail}.append({pos})", f"    {steps} += 1"]
    if g.chance(0.5):
        lines.append(f"    print({steps}, {pos}, {speed})")
    lines.append(f"print('finished after', {steps}, 'steps:', {trail})")
    return Piece([], lines, [], "None", module_share=1.0)


def _script_helpers(g: ProgramRandom) -> Piece:
    fn, n, d = g.pick(["is_prime", "prime", "check_prime"]), g.pick(["n", "num", "cand"]), g.pick(["d", "div", "k"])
    prime = [f"def {fn}({n}):", f"    if {n} < 2:", "        return False", f"    for {d} in range(2, {n}):", f"        if {n} % {d} == 0:",
             "            return False", "    return True"]
    fz, v = g.pick(["label_for", "fizz", "describe"]), g.pick(["v", "x", "num_"])
    a, b = g.small(2, 3), g.choice([5, 7])  # coprime, so "both" means divisible by a * b
    fizz = [f"def {fz}({v}):", f"    if {v} % {a * b} == 0:", f"        return 'both'", f"    if {v} % {a} == 0:", f"        return 'fizz'",
            f"    if {v} % {b} == 0:", f"        return 'buzz'", f"    return str({v})"]
    found, i = g.pick(["found", "primes", "hits"]), g.pick(["i", "j", "cur"])
    lines = [f"{found} = []", f"for {i} in range({g.small(1, 5)}, {g.small(8, 16)}):", f"    if {fn}({i}):", f"        {found}.append({i})"]
    if g.chance(0.6):
        lines += [f"    print({i}, {fz}({i}))"]
    else:
        lines += [f"    print({fz}({i}), end=' ')", "print()"]
    lines.append(f"print({found}, len({found}))")
    return Piece([prime, fizz], lines, [], "None", module_share=1.0)


def _script_objects(g: ProgramRandom) -> Piece:
    """Objects built in a loop at the top level, then asked and changed."""
    cls = class_name(g, ["Robot", "Plant", "Pet", "Lamp", "Car", "Bucket"])
    name, level, grow = g.pick(["name", "label", "tag"]), g.pick(["level", "energy", "height", "water"]), g.pick(["grow", "charge", "feed", "step"])
    k = g.pick(["by", "amount", "delta"])
    cls_def = klass(cls, [method("__init__", ["self", name], [f"self.{name} = {name}", f"self.{level} = 0"]),
                          method(grow, ["self", k], [f"self.{level} += {k}", f"return self.{level}"]),
                          method("__repr__", ["self"], [f"return f'{cls}({{self.{name}!r}}, {{self.{level}}})'"])])
    objs, nm, o, i = g.pick(["fleet", "garden", "pets", "team"]), g.pick(["nm", "label_", "who"]), g.pick(["o", "one", "each"]), g.pick(["i", "idx", "pos"])
    top = g.pick(["best", "leader", "biggest"])
    lines = [f"{objs} = []", f"for {nm} in {words(g, 2, 4)!r}:", f"    {objs}.append({cls}({nm}))",
             f"for {i}, {o} in enumerate({objs}):", f"    {o}.{grow}({i} * {g.small(1, 4)} + {g.small(0, 3)})",
             f"{top} = max({objs}, key=lambda {o}: {o}.{level})", f"print({objs})", f"print('best:', {top})"]
    return Piece([cls_def], lines, [], "None", module_share=1.0)


def fam_script(g: ProgramRandom) -> Piece:
    """Module-level code with no entry call: definitions, objects, loops, method calls, prints."""
    kinds: list[Callable[[ProgramRandom], Piece]] = [_script_shop, _script_grades, _script_sim, _script_helpers, _script_objects]
    return g.choice(kinds)(g)  # type: ignore[arg-type]


FAMILIES: dict[str, Callable[[ProgramRandom], Piece]] = {**OBJECT_FAMILIES, **FLOW_FAMILIES, **RECURSION_FAMILIES, "script": fam_script}
FAMILY_NAMES: list[str] = list(FAMILIES)
# Relative weights (tunable); roughly uniform, classes and scripts a little more often.
WEIGHTS: dict[str, float] = {name: 1.0 for name in FAMILY_NAMES} | {"script": 1.5, "printing": 0.6, "class_inherit": 1.2}


def generate_python_program(rng: random.Random) -> Program:
    """One program from a family drawn by ``WEIGHTS``."""
    names = FAMILY_NAMES
    family = rng.choices(names, weights=[WEIGHTS.get(n, 1.0) for n in names])[0]
    return make_family_program(rng, family)


def make_family_program(rng: random.Random, family: str) -> Program:
    g = new_g(rng)
    piece = FAMILIES[family](g)
    module = g.chance(piece.module_share)
    source, call, entry = render(g, piece, module)
    # its own origin, so that the stats count these programs apart from the function generator's
    return Program(source, call, entry, family, program_hash(source), "python")


def generate(seed: int, n: int, dedup: bool = True) -> list[Program]:
    """``n`` programs (deduplicated by normalized source when ``dedup``), deterministic in ``seed``."""
    out: list[Program] = []
    seen: set[str] = set()
    i = 0
    while len(out) < n and i < n * 50:
        p = generate_python_program(random.Random(f"{seed}:{i}"))
        i += 1
        if dedup and p.program_id in seen:
            continue
        seen.add(p.program_id)
        out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    return print_programs("python3 -m training.data.python_families", generate, argv)


if __name__ == "__main__":
    sys.exit(main())
