"""A dataset's recipe: one typed config for where its programs come from and in what shares, how
trajectories are drawn from their runs, the tracer's limits, the seed and the size.

The dataset builder (``python3 -m training.build_dataset``) and the live source of the GPU path
(``training/data/live_source.py``, ``train --live``) both draw from a ``Recipe``, so that a run on
the fly draws the mix a dataset on disk holds. Recipes of the datasets behind the trained phases
live in ``training/recipes/`` as JSON (the fields below, by name); the builder's command-line
options are generated from the same fields (``add_arguments``), so each is written once.

**Shares of the whole.** ``corpus_share``, ``python_share``, ``stdlib_share``, ``debian_share`` and
``methods_share`` are shares of all programs drawn; the function generator makes the rest. A program
draws its source in a fixed order (Python families, corpus, stdlib, Debian, builtins mix, generator)
with the chance of each given that none before it was drawn (``draw_chances``), which is how the
builder's options worked before they were shares of the whole: a recipe whose shares equal those
of old options therefore draws the very same programs from the same seed. Programs that turn out to
be duplicates are skipped after they are drawn (the stats count them per source), so at scale a
source with few distinct programs (the corpus) ends up with a smaller share of the *unique* programs
than of the drawn ones.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parents[2]

# The order in which a program's source is drawn; the generator is what is left.
SOURCE_ORDER = ("python", "corpus", "stdlib", "debian", "methods")
# Sources added after recipes were first written: they appear in ``shares`` and ``draw_chances``
# only when a recipe gives them a share, so that what an old recipe reports is what it always did.
LATER_SOURCES = frozenset({"debian", "methods"})
# The share fields of the sources, by origin (what ``Program.origin`` and the stats call them).
SHARE_FIELDS = {"python": "python_share", "corpus": "corpus_share", "stdlib": "stdlib_share", "debian": "debian_share",
                "methods": "methods_share"}

# Chances are rounded to this many decimals: shares of the whole written with a few decimals (a
# recipe file) then give back exactly the chances the old options named (0.35, not 0.35000000000000003),
# so that every comparison with the random stream, and hence every program, is the same.
CHANCE_DECIMALS = 12


def _opt(default: Any, help: str, cli: bool = True) -> Any:
    return field(default=default, metadata={"help": help, "cli": cli})


@dataclass(frozen=True)
class Recipe:
    # Sources: shares of all programs drawn; the function generator (training/data/generator.py) makes the rest.
    corpus_share: float = _opt(0.0, "share of programs from the corpus of real code (../shared/corpus or $NDB_CORPUS; "
                                    "training/data/corpus.py)")
    python_share: float = _opt(0.0, "share of programs from the Python-construct families (classes, closures, generators, "
                                    "scripts, ...; training/data/python_families.py)")
    stdlib_share: float = _opt(0.25, "share of programs from the standard library's pure-Python functions "
                                     "(training/data/stdlib_funcs.py)")
    # Later sources (LATER_SOURCES), after the stdlib in SOURCE_ORDER and 0 by default: a recipe without
    # them draws the very programs it drew before.
    debian_share: float = _opt(0.0, "share of programs from Debian's packages: CPython's test suite and the documentation's "
                                    ">>> examples (training/data/debian.py)")
    methods_share: float = _opt(0.0, "share of programs that teach the builtins: methods of str, list, dict, set and tuple and "
                                     "the builtin functions on messy literals (training/data/builtins_mix.py)")
    # Trajectories drawn from each run (training/data/trajectories.py, what_if.py).
    per_program: int = _opt(2, "trajectories drawn per recording")
    trace_reuse: int = _opt(1, "draw the trajectories of this many programs (per_program each, and each group its what-if "
                               "chance) from every recording: more trajectories per trace, in the same mix of kinds, "
                               "and the same source context more often (1: each recording once)")
    what_if_share: float = _opt(0.1, "chance that a program with a forward trajectory also gives a what-if trajectory "
                                     "(a local edited at a stop)")
    jump_share: float = _opt(0.0, "share of trajectories drawn from the jumps policy (step_return, breakpoint, continue)")
    max_tokens: int = _opt(2048, "cap on a trajectory's tokens (its last steps are dropped to fit)")
    window: int = _opt(0, "cut a trajectory longer than this many tokens into documents that each start again at a state "
                          "written in full, as the app's sessions do; set it to the training seq_len (0: whole trajectories)")
    # The tracer's limits.
    max_events: int = _opt(2000, "the tracer's event budget")
    time_limit: float = _opt(5.0, "the tracer's time limit (s)")
    hard_timeout: float = _opt(30.0, "kill a tracer that does not answer (s)")
    # The stream and the dataset.
    seed: int = _opt(0, "program i is drawn from random.Random(f'{seed}:{i}')")
    tokens: int = _opt(0, "stop once this many tokens are written (the dataset's size; --live ignores it)")
    tokenizer: Optional[str] = _opt(None, "a tokenizer folder (in a recipe file, relative to the repository root; "
                                          "default: train one on the recipe's programs)")
    vocab_size: int = _opt(2048, "the vocabulary when a tokenizer is trained")
    note: str = _opt("", "where the recipe comes from (documentation only)", cli=False)

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(Recipe)
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            kind = hints[f.name]
            if kind is float and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, float(value))  # JSON writes 0.0 as 0
            elif not _has_type(value, kind):
                raise ValueError(f"recipe: {f.name} must be {_type_name(kind)}, not {value!r}")
        for name in (*SHARE_FIELDS.values(), "what_if_share", "jump_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"recipe: {name} must be within [0, 1], not {getattr(self, name)}")
        if self._sources_total() > 1.0 + 1e-9:
            raise ValueError("recipe: the corpus, Python, stdlib, Debian and builtins-mix shares are shares of the whole and add up "
                             f"to more than 1 ({' + '.join(str(getattr(self, f)) for f in SHARE_FIELDS.values())})")
        for name in ("per_program", "trace_reuse", "max_tokens", "max_events"):
            if getattr(self, name) < 1:
                raise ValueError(f"recipe: {name} must be at least 1")
        if self.window < 0 or self.tokens < 0:
            raise ValueError("recipe: window and tokens cannot be negative")

    # -- shares ----------------------------------------------------------------------------------

    def _sources_total(self) -> float:
        # in the order the check always summed them, the later sources last (an old recipe adds 0.0)
        return self.corpus_share + self.python_share + self.stdlib_share + self.debian_share + self.methods_share

    @property
    def generator_share(self) -> float:
        return max(0.0, 1.0 - self.corpus_share - self.python_share - self.stdlib_share - self.debian_share - self.methods_share)

    def shares(self) -> dict[str, float]:
        """The share of the whole of each origin (as ``Program.origin`` names them)."""
        shares = {origin: getattr(self, name) for origin, name in SHARE_FIELDS.items()}
        shares["generated"] = self.generator_share
        return {k: v for k, v in shares.items() if v > 0 or k not in LATER_SOURCES}

    def draw_chances(self) -> dict[str, float]:
        """For each source in ``SOURCE_ORDER``, the chance of drawing it given that no source
        before it was drawn: what makes the shares shares of the whole. A later source without a
        share is left out (its chance is 0: ``draw_program`` reads it with ``get``)."""
        left = 1.0
        chances: dict[str, float] = {}
        shares = self.shares()
        for origin in SOURCE_ORDER:
            if origin not in shares:
                continue
            share = shares[origin]
            chances[origin] = round(min(1.0, share / left), CHANCE_DECIMALS) if left > 1e-12 else 0.0
            left -= share
        return chances

    @classmethod
    def from_sequential(cls, python: float = 0.0, corpus: float = 0.0, stdlib: float = 0.0, **rest: Any) -> "Recipe":
        """The recipe that draws what the builder's options drew before they were shares of the
        whole: each applied as a chance, one after another, in ``SOURCE_ORDER``."""
        shares = {"python_share": python, "corpus_share": (1 - python) * corpus,
                  "stdlib_share": (1 - python) * (1 - corpus) * stdlib}
        return cls(**{k: round(v, CHANCE_DECIMALS) for k, v in shares.items()}, **rest)

    def without_corpus(self) -> "Recipe":
        """The same draw with the corpus left out (what a tokenizer is trained on): the sources
        after it keep their chances, so the corpus's share goes to them in proportion."""
        chances = self.draw_chances()
        python = chances["python"]
        debian = (1 - python) * (1 - chances["stdlib"]) * chances.get("debian", 0.0)
        methods = (1 - python) * (1 - chances["stdlib"]) * (1 - chances.get("debian", 0.0)) * chances.get("methods", 0.0)
        return dataclasses.replace(self, corpus_share=0.0, stdlib_share=round((1 - python) * chances["stdlib"], CHANCE_DECIMALS),
                                   debian_share=round(debian, CHANCE_DECIMALS), methods_share=round(methods, CHANCE_DECIMALS))

    def tracer_limits(self) -> dict[str, Any]:
        """``TraceBackend``'s keyword arguments."""
        return {"max_events": self.max_events, "time_limit": self.time_limit, "hard_timeout": self.hard_timeout}

    # -- files -----------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Recipe":
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"recipe: unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(names))})")
        return cls(**data)

    @classmethod
    def load(cls, path: str | Path) -> "Recipe":
        with open(path) as handle:
            return cls.from_dict(json.load(handle))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2) + "\n")

    def tokenizer_path(self) -> Optional[Path]:
        """The tokenizer folder; a relative path is relative to the repository root, so that a
        recipe file means the same folder from wherever it is built."""
        if self.tokenizer is None:
            return None
        path = Path(self.tokenizer)
        return path if path.is_absolute() else ROOT / path


def _has_type(value: Any, kind: Any) -> bool:
    if typing.get_origin(kind) is typing.Union:
        return any(_has_type(value, k) for k in typing.get_args(kind))
    if kind is type(None):
        return value is None
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _type_name(kind: Any) -> str:
    if typing.get_origin(kind) is typing.Union:
        return " or ".join(_type_name(k) for k in typing.get_args(kind))
    return "null" if kind is type(None) else kind.__name__


# ----------------------------------------------------------------------------------------------
# The command line: one option per field, named after it (corpus_share -> --corpus-share)


def _cli_fields() -> list[dataclasses.Field]:
    return [f for f in dataclasses.fields(Recipe) if f.metadata.get("cli", True)]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--recipe FILE`` and an option for every field; an option given overrides the file's value."""
    parser.add_argument("--recipe", type=Path, default=None,
                        help="a recipe (JSON, training/recipes/); the options below override its fields")
    hints = typing.get_type_hints(Recipe)
    group = parser.add_argument_group("recipe", "the fields of training/data/recipe.py (defaults: a recipe file's, else these)")
    for f in _cli_fields():
        kind = hints[f.name]
        if f.name == "tokenizer":
            convert: Any = lambda text: str(Path(text).resolve())  # noqa: E731 - relative to where the command runs
        else:
            convert = kind
        # SUPPRESS: only options actually given reach the namespace, so a recipe file's value stands otherwise
        metavar = "DIR" if f.name == "tokenizer" else ("N" if kind is int else "F")
        default = "" if f.default is None else f" (default: {f.default})"
        group.add_argument("--" + f.name.replace("_", "-"), dest=f.name, type=convert, default=argparse.SUPPRESS,
                           metavar=metavar, help=f"{f.metadata['help']}{default}")


def from_args(args: argparse.Namespace) -> Recipe:
    """The recipe a command line asks for: ``--recipe``'s file (or the defaults), then the options given."""
    base = Recipe.load(args.recipe) if getattr(args, "recipe", None) is not None else Recipe()
    given = {f.name: getattr(args, f.name) for f in _cli_fields() if hasattr(args, f.name)}
    return dataclasses.replace(base, **given)
