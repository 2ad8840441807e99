"""Random input values of simple types, and their Python source text.

Types are short strings: "int", "str", "word", "text", "list_int", "list_str", "dict_str_int",
"set_int", "tuple_int", "matrix". Sets hold ints only: the iteration order of a set of strings
depends on the hash seed, and traces must be deterministic.
"""

from __future__ import annotations

import random
from typing import Any

WORDS = (
    "apple banana cherry date fig grape kiwi lemon mango pear plum "
    "red green blue cat dog bird fish sun moon star tree rock wind "
    "alpha beta gamma delta one two three four hello world python code"
).split()
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def rand_int(rng: random.Random, lo: int = -5, hi: int = 20) -> int:
    r = rng.random()
    if r < 0.1:
        return 0
    if r < 0.18 and (lo, hi) == (-5, 20):  # now and then a larger number, unless bounds were asked for
        return rng.randint(-60, 150)
    if r < 0.8:
        return rng.randint(max(lo, 0), hi)
    return rng.randint(lo, hi)


def rand_word(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        w = rng.choice(WORDS)
    elif r < 0.65:
        w = "".join(rng.choice(LETTERS[:8]) for _ in range(rng.randint(1, 6)))
    else:  # any letters: values the model has to copy rather than recall
        w = "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 10)))
    r = rng.random()
    if r < 0.15:
        w = w.capitalize()
    elif r < 0.2:
        w = w.upper()
    return w


def rand_str(rng: random.Random) -> str:
    """A short string with some variety: letters, case, digits, spaces, punctuation."""
    r = rng.random()
    if r < 0.08:
        return ""
    if r < 0.45:
        return rand_word(rng)
    alphabet = LETTERS[: rng.randint(3, 26)] + rng.choice(["", "AEIOU", "XYZ", "0123456789", " ", " ,.!-", LETTERS.upper(), "#$%*+/:;=?@_"])
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 20 if r > 0.85 else 12)))


def rand_text(rng: random.Random) -> str:
    sep = rng.choice([" ", " ", " ", ",", ", ", "-"])
    return sep.join(rand_word(rng) for _ in range(rng.randint(0, 6)))


def rand_value(rng: random.Random, typ: str) -> Any:
    if typ == "int":
        return rand_int(rng)
    if typ == "small_int":
        return rng.randint(0, 8)
    if typ == "str":
        return rand_str(rng)
    if typ == "word":
        return rand_word(rng)
    if typ == "text":
        return rand_text(rng)
    if typ == "list_int":
        return [rand_int(rng) for _ in range(rng.choice([0, 1, 2, 3, 4, 4, 5, 5, 6, 7, 8]))]
    if typ == "list_str":
        return [rand_word(rng) for _ in range(rng.randint(0, 6))]
    if typ == "dict_str_int":
        return {rand_word(rng): rand_int(rng) for _ in range(rng.randint(0, 5))}
    if typ == "set_int":
        return {rand_int(rng) for _ in range(rng.randint(0, 6))}
    if typ == "tuple_int":
        return tuple(rand_int(rng) for _ in range(rng.randint(1, 4)))
    if typ == "matrix":
        n, m = rng.randint(1, 3), rng.randint(1, 3)
        return [[rand_int(rng, 0, 9) for _ in range(m)] for _ in range(n)]
    raise ValueError(f"unknown type {typ}")


def source_of(value: Any) -> str:
    """Python source for a value (repr, except that an empty set is ``set()``)."""
    if isinstance(value, set) and not value:
        return "set()"
    if isinstance(value, set):
        return "{" + ", ".join(repr(v) for v in sorted(value)) + "}"
    return repr(value)
