"""A wide pool of identifiers, so that the model learns to copy names it has never seen.

Each family names its variables from a short pool (``xs``, ``total``, ...). A small model trained
only on those learns the pools, not copying: shown ``output = []`` it writes ``out``. ``wide_name``
draws instead from generic nouns and ``prefix_noun`` compounds in the style of everyday Python
code, and sometimes from random letters. Builtins and keywords are never drawn, so a name cannot
shadow a function the program calls.
"""

from __future__ import annotations

import builtins
import keyword
import random

from .values import LETTERS

NOUNS = (
    "account address amount animal answer area array article balance basket block board book "
    "border box branch bucket buffer cache card cart cell chain channel chunk city claim client "
    "column comment config container content counter country cursor customer digit distance doc "
    "document domain edge email file_name folder fruit garden grade graph group guest header "
    "height host image inventory invoice item_list key_name label_ layer leaf link member "
    "message metric mode node note number offset owner packet page pair_ parent path pattern "
    "payload phrase pixel player position price queue quote rank rate reading region report "
    "request rule segment sentence shape signal slot speed stamp status store stream string "
    "suffix symbol tag task team term threshold ticket token_ track unit user vector version "
    "weight zone "
).split()
PREFIXES = "new old tmp my first last cur next prev max min raw clean sorted joined left right base temp final".split()
# Names that family templates write literally (not through ``ProgramRandom.pick``): a wide name must not be one.
TEMPLATE_NAMES = set("out cur mid key half best kept total common ranked row col res acc lo hi i j k v p".split())
_TAKEN = set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist) | TEMPLATE_NAMES


def wide_name(rng: random.Random) -> str:
    """A random identifier outside the families' own pools."""
    r = rng.random()
    if r < 0.45:
        name = rng.choice(NOUNS)
    elif r < 0.8:
        name = f"{rng.choice(PREFIXES)}_{rng.choice(NOUNS)}"
    else:
        name = "".join(rng.choice(LETTERS) for _ in range(rng.randint(3, 7)))
    return name if name not in _TAKEN and name.isidentifier() else f"{name}_v"
