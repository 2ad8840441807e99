"""The recipe (training/data/recipe.py): shares that are shares of the whole, the recipes of the
phases drawing the programs their old options drew, one command-line option per field, and the
dataset builder and the live source (train --live) drawing the same mix from one recipe."""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import math
import os
import random
from pathlib import Path
from typing import Optional

import numpy as np
import pytest

from training import build_dataset as bd
from training.data import corpus
from training.data.live_source import LiveSource
from training.data.programs import Program
from training.data.python_families import FAMILY_NAMES
from training.data.recipe import Recipe, add_arguments, from_args
from training.data.sources import draw_program
from training.data.trajectories import trajectory_texts
from training.tests.test_build_dataset import needs_tracer
from training.tokenizer import count_chunks, train_bpe
from training.trace_backend import IN_PROCESS
from training.train_tokenizer import FIXTURE_RECORDINGS, read_recordings

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ROOT / "training" / "recipes"


def old_make_program(rng: random.Random, stdlib_share: float, corpus_share: float = 0.0,
                     python_share: float = 0.0) -> Optional[Program]:
    """The builder's draw before recipes (training/build_dataset.py up to issue 25), kept as the
    reference: each share a chance, applied one after another."""
    if python_share > 0 and rng.random() < python_share:
        from training.data.python_families import generate_python_program

        return generate_python_program(rng)
    if corpus_share > 0 and rng.random() < corpus_share:
        p = corpus.make_program(rng)
        if p is not None:
            return p
    if stdlib_share > 0 and rng.random() < stdlib_share:
        from training.data import stdlib_funcs

        p = stdlib_funcs.make_program(rng)
        if p is not None:
            return p
    from training.data.generator import generate_program

    return generate_program(rng)


@pytest.fixture(scope="module")
def real_corpus() -> None:
    try:
        corpus.load()
    except corpus.CorpusMissing as exc:
        if os.environ.get("NDB_NO_SHARED") == "1":
            pytest.skip(f"NDB_NO_SHARED=1: {exc}")
        raise AssertionError(f"{exc}: put ../shared beside the repository (or set NDB_NO_SHARED=1 where it cannot be)")


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    recs = read_recordings([FIXTURE_RECORDINGS])
    tok = train_bpe(count_chunks(trajectory_texts(recs, 400, seed=1)), vocab_size=700)
    out = tmp_path_factory.mktemp("tok")
    tok.save(out)
    return out


def _within(count: int, n: int, share: float, sigmas: float = 4.0) -> bool:
    return abs(count / n - share) <= sigmas * math.sqrt(share * (1 - share) / n) + 1e-9


# ----------------------------------------------------------------------------------------------
# Shares


def test_shares_are_shares_of_the_whole(real_corpus: None) -> None:
    recipe = Recipe(python_share=0.3, corpus_share=0.3, stdlib_share=0.2)
    n = 3000
    drawn = collections.Counter(draw_program(random.Random(f"7:{i}"), recipe).origin for i in range(n))  # type: ignore[union-attr]
    assert recipe.shares() == pytest.approx({"python": 0.3, "corpus": 0.3, "stdlib": 0.2, "generated": 0.2})
    for origin, share in recipe.shares().items():
        assert _within(drawn[origin], n, share), (origin, drawn)
    # the same numbers read as the old options did, one after another: corpus 0.7 x 0.3 = 0.21 of
    # the whole, stdlib 0.7 x 0.7 x 0.2 = 0.098 (what "--corpus-share 0.35 gave 19 %" was about)
    old = collections.Counter(old_make_program(random.Random(f"7:{i}"), 0.2, 0.3, 0.3).origin for i in range(n))  # type: ignore[union-attr]
    assert _within(old["corpus"], n, 0.21) and _within(old["stdlib"], n, 0.098)
    assert not _within(old["corpus"], n, 0.3)


def test_a_recipe_of_the_old_options_draws_the_same_programs(real_corpus: None) -> None:
    recipe = Recipe.from_sequential(python=0.35, corpus=0.35, stdlib=0.1)
    assert (recipe.python_share, recipe.corpus_share, recipe.stdlib_share) == (0.35, 0.2275, 0.04225)
    assert recipe.generator_share == pytest.approx(0.38025)
    # the chances come back exactly as the old options' numbers: every comparison with the random
    # stream, and so every program, is the same
    assert recipe.draw_chances() == {"python": 0.35, "corpus": 0.35, "stdlib": 0.1}
    phase12 = Recipe.load(RECIPES / "data80m_s15.json")
    assert phase12.draw_chances() == recipe.draw_chances()
    origins = collections.Counter()
    for i in range(300):
        old = old_make_program(random.Random(f"15:{i}"), 0.1, 0.35, 0.35)
        new = draw_program(random.Random(f"15:{i}"), phase12)
        assert old is not None and new is not None
        assert (old.source, old.call, old.family, old.program_id) == (new.source, new.call, new.family, new.program_id), i
        # the one difference: the Python families have their own origin
        assert new.origin == ("python" if new.family in FAMILY_NAMES else old.origin)
        origins[new.origin] += 1
    assert set(origins) == {"python", "corpus", "stdlib", "generated"}


def test_the_recipes_of_the_phases() -> None:
    chances = {
        "data16m_s10": {"python": 0.0, "corpus": 0.4, "stdlib": 0.1},
        # lease 3: 10 % Debian, a little less of each other share
        "lease3_debian_s31": {"python": 0.33, "corpus": 0.298507462687, "stdlib": 0.085106382979, "debian": 0.232558139535},
        "data12m_s41": {"python": 0.33, "corpus": 0.298507462687, "stdlib": 0.085106382979, "debian": 0.232558139535},
        "data12m_s42": {"python": 0.33, "corpus": 0.298507462687, "stdlib": 0.085106382979, "debian": 0.232558139535},
        "data12m_s43": {"python": 0.33, "corpus": 0.298507462687, "stdlib": 0.085106382979, "debian": 0.232558139535},
        # issue 45: the first shards built ahead, on lease 3's mix
        "ahead_s5000": {"python": 0.33, "corpus": 0.298507462687, "stdlib": 0.085106382979, "debian": 0.232558139535},
        # issue 45: 25 % builtins mix, taken from the Python families, the corpus and the generator
        "ahead_methods_s6000": {"python": 0.25, "corpus": 0.2, "stdlib": 0.066666666667, "debian": 0.178571428571, "methods": 0.54347826087},
    }
    seen = set()
    for path in sorted(RECIPES.glob("*.json")):
        recipe = Recipe.load(path)
        seen.add(path.stem)
        assert recipe.draw_chances() == chances.get(path.stem, {"python": 0.35, "corpus": 0.35, "stdlib": 0.1}), path.name
        assert recipe.tokenizer_path() is not None and (recipe.tokenizer_path() / "tokenizer.json").exists(), path.name  # type: ignore[operator]
        assert f"_s{recipe.seed}" in path.stem and recipe.tokens > 0 and recipe.note
    assert {"data16m_s13", "data40m_s14", "data80m_s15"} <= seen
    # every config that names its data names recipes that exist
    named = 0
    for config in (ROOT / "training" / "configs").rglob("*.json"):
        for name in json.loads(config.read_text()).get("data", {}).get("recipes", []):
            assert (ROOT / name).exists(), (config.name, name)
            named += 1
    assert named >= 4


def test_without_the_corpus_the_other_sources_keep_their_chances() -> None:
    recipe = Recipe.from_sequential(python=0.35, corpus=0.35, stdlib=0.1)
    bare = recipe.without_corpus()
    assert bare.corpus_share == 0.0 and bare.draw_chances() == {"python": 0.35, "corpus": 0.0, "stdlib": 0.1}
    # so a tokenizer trained for a recipe draws the programs the builder's tokenizer drew before
    for i in range(200):
        old = old_make_program(random.Random(f"x:{i}"), 0.1, python_share=0.35)
        new = draw_program(random.Random(f"x:{i}"), bare)
        assert old is not None and new is not None and old.program_id == new.program_id


# ----------------------------------------------------------------------------------------------
# Files and the command line


def test_every_field_is_an_option_and_options_override_the_file(tmp_path: Path) -> None:
    ap = argparse.ArgumentParser()
    add_arguments(ap)
    dests = {a.dest for a in ap._actions}
    assert {f.name for f in dataclasses.fields(Recipe)} - {"note"} <= dests
    file = tmp_path / "r.json"
    Recipe(seed=5, corpus_share=0.2, window=512, note="a test").save(file)
    r = from_args(ap.parse_args(["--recipe", str(file), "--seed", "9", "--what-if-share", "0.3"]))
    assert (r.seed, r.corpus_share, r.window, r.what_if_share, r.note) == (9, 0.2, 512, 0.3, "a test")
    assert from_args(ap.parse_args([])) == Recipe()
    assert from_args(ap.parse_args(["--tokenizer", "some/dir"])).tokenizer == str(Path("some/dir").resolve())
    # a relative tokenizer in a recipe file is the repository's
    assert Recipe(tokenizer="public/models/ndb-cpu-6m").tokenizer_path() == ROOT / "public/models/ndb-cpu-6m"


def test_a_bad_recipe_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown field.*corpus_shares"):
        Recipe.from_dict({"corpus_shares": 0.1})
    with pytest.raises(ValueError, match="more than 1"):
        Recipe(corpus_share=0.5, python_share=0.4, stdlib_share=0.2)
    with pytest.raises(ValueError, match="window must be int"):
        Recipe.from_dict({"window": "512"})
    with pytest.raises(ValueError, match=r"within \[0, 1\]"):
        Recipe(jump_share=1.5)
    whole = Recipe.from_dict({"corpus_share": 0, "seed": 3})  # JSON's 0 for a share
    assert isinstance(whole.corpus_share, float) and whole.seed == 3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"stdlib_share": 0.9, "python_share": 0.9}))
    assert bd.main(["--recipe", str(bad), "--out", str(tmp_path / "ds"), "--quiet"]) == 2
    assert bd.main(["--out", str(tmp_path / "ds"), "--quiet"]) == 2  # neither --tokens nor --programs
    assert not (tmp_path / "ds" / "meta.json").exists()


# ----------------------------------------------------------------------------------------------
# The builder and the live source


@needs_tracer
def test_the_builder_and_the_live_source_draw_the_same_mix(tmp_path: Path, tok_dir: Path, real_corpus: None) -> None:
    recipe = Recipe(python_share=0.3, corpus_share=0.3, stdlib_share=0.1, what_if_share=0.3, jump_share=0.3,
                    window=160, seed=21, tokenizer=str(tok_dir))
    live = LiveSource(tok_dir, recipe, workers=1, task_size=40, allow_node=not IN_PROCESS, wait_timeout=300)
    try:
        while live.stats.unique < 200:
            live._take(block=True)
    finally:
        live.close()
    n = live.stats.unique
    built = bd.build(recipe, tmp_path / "ds", workers=1, task_size=40, quiet=True, max_programs=n)
    drawn = live.stats.report({})
    assert built["programs"]["unique"] == n
    for key in ("per_source", "by_split", "no_events"):
        assert built["programs"][key] == drawn["programs"][key], key
    assert built["exits"] == drawn["exits"]
    assert built["action_mix"] == drawn["action_mix"] and built["trajectories"] == drawn["trajectories"]
    # not only the counts: the live source's documents are the dataset's, in the same order (this
    # needs the tracer's fixed string hash seed: a set of strings is in such a recipe's programs)
    meta = json.loads((tmp_path / "ds/meta.json").read_text())
    stream = np.concatenate([np.fromfile(tmp_path / "ds" / name, dtype=meta["dtype"]) for name in meta["train"]])
    assert np.array_equal(stream[1:].astype(np.int64), live.buffers["train"])
    # every source and every kind of trajectory the recipe asks for is there
    assert set(built["programs"]["per_source"]) == {"python", "corpus", "stdlib", "generated"}
    assert {"what_if", "forward", "inverse"} <= set(built["trajectories"]["direction"])
    assert {"jumps", "steps", "mixed"} <= set(built["trajectories"]["policy"]) and built["trajectories"]["windowed"] > 0
    # shares of the whole, of the programs drawn, within sampling error
    per_source = built["programs"]["drawn_per_source"]
    total = sum(per_source.values())
    for origin, share in recipe.shares().items():
        assert _within(per_source.get(origin, 0), total, share), (origin, per_source)
