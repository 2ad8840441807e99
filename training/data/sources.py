"""Where a program comes from: one of the program sources, drawn with a recipe's shares.

    draw_program(random.Random(f"{seed}:{i}"), recipe)

Sources are drawn in ``recipe.SOURCE_ORDER`` with ``Recipe.draw_chances``; a source with no share
draws nothing from the random stream, so that adding a source at share 0 changes no program.
"""

from __future__ import annotations

import random
from typing import Optional

from .generator import generate_program
from .programs import Program
from .recipe import Recipe


def draw_program(rng: random.Random, recipe: Recipe) -> Optional[Program]:
    """One program. A corpus, stdlib or Debian draw that finds nothing usable (no corpus units, no
    usable function) falls through to the sources after it, as it always did. The builtins mix
    (``builtins_mix.py``) always gives a program."""
    chances = recipe.draw_chances()
    if chances["python"] > 0 and rng.random() < chances["python"]:
        from .python_families import generate_python_program

        return generate_python_program(rng)
    if chances["corpus"] > 0 and rng.random() < chances["corpus"]:
        from . import corpus

        p = corpus.make_program(rng)
        if p is not None:
            return p
    if chances["stdlib"] > 0 and rng.random() < chances["stdlib"]:
        from . import stdlib_funcs

        p = stdlib_funcs.make_program(rng)
        if p is not None:
            return p
    if chances.get("debian", 0.0) > 0 and rng.random() < chances["debian"]:
        from . import debian

        p = debian.make_program(rng)
        if p is not None:
            return p
    if chances.get("methods", 0.0) > 0 and rng.random() < chances["methods"]:
        from . import builtins_mix

        return builtins_mix.make_program(rng)
    return generate_program(rng)


def draw_programs(seed: int | str, n: int, recipe: Recipe) -> list[Program]:
    """``n`` distinct programs of the seed's stream (a bounded number of tries)."""
    out: list[Program] = []
    seen: set[str] = set()
    i = 0
    while len(out) < n and i < n * 20:
        p = draw_program(random.Random(f"{seed}:{i}"), recipe)
        i += 1
        if p is not None and p.program_id not in seen:
            seen.add(p.program_id)
            out.append(p)
    return out
