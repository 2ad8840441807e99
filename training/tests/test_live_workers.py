"""Faster live workers (issue 45, item 2): trusted programs traced without the sandbox's enter and
exit, each piece of a program's trajectories tokenized once, more trajectories per trace
(``trace_reuse``), the corpus extracted once and read back. The documents must stay what they were
where nothing asks for more (the checks under Python >= 3.12 are in live_worker_checks.py)."""

from __future__ import annotations

import ast
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from training.data import corpus
from training.data.documents import remembering, tokenize_trajectory, trajectory_documents, window_documents
from training.data.recipe import Recipe
from training.data.trajectories import sample_trajectory
from training.real_engine import TRACER_PATH
from training.tests.test_corpus import small_corpus  # noqa: F401 - a fixture
from training.tests.test_lease import PY312, TOKENIZER
from training.tokenizer import NdbTokenizer, pretokenize, split_with_gaps
from training.trace_backend import _Unguarded
from training.train_tokenizer import FIXTURE_RECORDINGS, read_recordings

ROOT = Path(__file__).resolve().parents[2]
needs_312 = pytest.mark.skipif(PY312 is None, reason="no Python >= 3.12 for in-process tracing")


def run_checks(what: str, n: int) -> dict:
    proc = subprocess.run([PY312, "-W", "ignore", "-m", "training.tests.live_worker_checks", what, str(n)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the sandbox's enter and exit ------------------------------------------------------------------


def test_the_unguarded_sandbox_has_every_name_the_tracer_calls() -> None:
    tree = ast.parse(TRACER_PATH.read_text())
    called = {n.attr for n in ast.walk(tree)
              if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "ndb_sandbox"}
    assert {"enter", "exit", "set_tracer"} <= called
    missing = sorted(name for name in called if not hasattr(_Unguarded, name))
    assert not missing, f"tracer.py calls ndb_sandbox.{missing} that trace_backend._Unguarded lacks"


@needs_312
def test_trusted_programs_record_the_same_without_the_sandbox() -> None:
    out = run_checks("trusted", 120)
    for origin in ("generated", "python", "methods"):
        assert out[origin]["differ"] == 0 and out[origin]["same"] >= 100, out
    assert out["sandbox_after"] == "'refused'"  # a repr


# -- tokenized once --------------------------------------------------------------------------------


def test_documents_tokenized_once_are_the_documents_tokenized_per_trajectory() -> None:
    tok = NdbTokenizer.load(TOKENIZER)
    recs = [r for r in read_recordings([FIXTURE_RECORDINGS]) if r["events"]]
    rng = random.Random(45)
    cut = truncated = 0
    for n in range(240):
        rec = recs[n % len(recs)]
        encode = remembering(tok)  # shared by every trajectory of this recording, as run_program shares it
        for _ in range(3):
            traj = sample_trajectory(rec, rng, jump_share=0.5).render(rec)
            max_tokens, window = rng.choice([(2048, 1024), (2048, 96), (300, 128), (60, 40), (2048, 0)])
            ids, ctx, states, kept, trunc = tokenize_trajectory(tok, traj, max_tokens)
            old = window_documents(tok, traj, rec, kept, window) if window and len(ids) > window else [ids]
            new = trajectory_documents(encode, traj, rec, max_tokens, window)
            assert new == (old, len(ids), ctx, states, kept, trunc)
            cut += len(old) > 1
            truncated += trunc
    assert cut > 50 and truncated > 20  # both cuts were exercised


def test_the_pretokenizer_has_no_gaps() -> None:
    """pretokenize takes the pattern's matches alone (2.6 times as fast): right while every
    character matches one of its alternatives."""
    rng = random.Random(45)
    alphabet = [chr(c) for c in range(128)] + ["é", "…", "中", "\ud800", "🙂", "  ", "\r\n"]
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert pretokenize(text) == split_with_gaps(text), repr(text)


@needs_312
def test_run_program_makes_the_documents_it_made_before() -> None:
    out = run_checks("documents", 150)
    assert out["differ"] == 0 and out["same"] >= 140, out
    assert out["windowed"] > 10 and set(out["origins"]) >= {"generated", "python", "methods"}, out


# -- more trajectories per trace -------------------------------------------------------------------


def test_trace_reuse_is_a_recipe_field_of_at_least_one() -> None:
    assert Recipe().trace_reuse == 1 and Recipe.from_dict({"trace_reuse": 2}).trace_reuse == 2
    with pytest.raises(ValueError, match="trace_reuse"):
        Recipe(trace_reuse=0)


@needs_312
def test_more_trajectories_per_trace_keep_the_first_and_the_mix() -> None:
    out = run_checks("reuse", 150)
    assert out["not_prefix"] == 0 and out["prefix"] >= 140, out
    one, many = out["one"], out["many"]
    assert 2.6 < many["trajectories"] / one["trajectories"] < 3.4, out
    for kind in ("inverse", "jumps", "steps", "what_if_per_drawn"):
        assert abs(many[kind] - one[kind]) < 0.06, (kind, out)
    assert abs(many["tokens_per_trajectory"] / one["tokens_per_trajectory"] - 1) < 0.15, out


def test_the_lease_configs_recipe_overrides_are_recipe_fields() -> None:
    for path in (ROOT / "training" / "configs").rglob("*.json"):
        over = json.loads(path.read_text()).get("data", {}).get("recipe")
        if over:
            Recipe.from_dict({**Recipe().to_dict(), **over})  # an unknown field raises


# -- the corpus extracted once ---------------------------------------------------------------------


def test_the_corpus_extraction_is_kept_and_read_back(small_corpus: Path, tmp_path: Path,  # noqa: F811
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NDB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(corpus, "_CACHE", {})
    fresh = corpus.load(small_corpus)
    kept = list((tmp_path / "cache" / "corpus").glob("extraction-py*.pickle.gz"))
    assert len(kept) == 1

    def no_extraction(*_: object) -> None:
        raise AssertionError("extracted again")

    monkeypatch.setattr(corpus, "_CACHE", {})
    with monkeypatch.context() as m:
        m.setattr(corpus, "extract", no_extraction)
        again = corpus.load(small_corpus)
    assert again.units == fresh.units and again.stats == fresh.stats and again.split(True) == fresh.split(True)
    # a torn file is extracted again (and written whole)
    kept[0].write_bytes(kept[0].read_bytes()[:100])
    monkeypatch.setattr(corpus, "_CACHE", {})
    assert corpus.load(small_corpus).units == fresh.units
    assert corpus._read_extraction(kept[0]) is not None


def test_an_extraction_written_beside_the_archives_is_read_there(small_corpus: Path, tmp_path: Path,  # noqa: F811
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "carry"
    folder.mkdir()
    for archive in small_corpus.glob("*.tar.gz"):
        (folder / archive.name).write_bytes(archive.read_bytes())
    # as lease.sh --pack writes it: the module run as a command (its classes must be the package's)
    proc = subprocess.run([sys.executable, "-m", "training.data.corpus", "--corpus", str(folder), "--write-extraction", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env={"PATH": "/usr/bin:/bin", "NDB_CACHE_DIR": str(tmp_path / "c1")})
    assert proc.returncode == 0, proc.stderr
    written = list(folder.glob("extraction-py*.pickle.gz"))
    assert len(written) == 1 and written[0].name == corpus.extraction_file_name(corpus.extraction_key(folder))
    monkeypatch.setenv("NDB_CACHE_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(corpus, "_CACHE", {})
    monkeypatch.setattr(corpus, "extract", lambda *_: (_ for _ in ()).throw(AssertionError("extracted again")))
    units = corpus.load(folder).units
    assert units and not (tmp_path / "empty").exists()
    # another archive is another extraction
    (folder / "keon-algorithms.tar.gz").write_bytes((small_corpus / "toolz.tar.gz").read_bytes())
    assert corpus.extraction_file_name(corpus.extraction_key(folder)) != written[0].name
