"""The dataset builder: tracing backends, truncation, and a tiny dataset read back with ShardSource."""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from training import build_dataset as bd
from training import format as fmt
from training import trace_backend as tb
from training.data.documents import tokenize_trajectory, window_documents
from training.data.recipe import Recipe
from training.data.token_source import ShardSource
from training.data.trajectories import sample_trajectory
from training.data.trajectories import trajectory_texts
from training.tokenizer import NdbTokenizer, count_chunks, train_bpe
from training.train_tokenizer import FIXTURE_RECORDINGS, read_recordings

ROOT = Path(__file__).resolve().parents[2]
CAN_TRACE = tb.IN_PROCESS or (shutil.which("node") is not None and (ROOT / "node_modules/pyodide").exists())
needs_tracer = pytest.mark.skipif(not CAN_TRACE, reason="needs Python >= 3.12, or node with pyodide installed")


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    recs = read_recordings([FIXTURE_RECORDINGS])
    tok = train_bpe(count_chunks(trajectory_texts(recs, 400, seed=1)), vocab_size=700)
    out = tmp_path_factory.mktemp("tok")
    tok.save(out)
    return out


def test_tokenized_pieces_equal_the_whole_and_truncation_keeps_a_trajectory(tok_dir: Path) -> None:
    tok = NdbTokenizer.load(tok_dir)
    recs = read_recordings([FIXTURE_RECORDINGS])
    rng = random.Random(4)
    end = tok.token_id(fmt.TRACE_END)
    n_trunc = 0
    for i in range(80):
        rec = recs[i % len(recs)]
        traj = sample_trajectory(rec, rng).render(rec)
        ids, ctx, states, kept, truncated = tokenize_trajectory(tok, traj, 10_000)
        assert ids == tok.encode(traj.text()) and not truncated and kept == len(traj.steps)
        assert len(states) == kept + 1 and ctx == len(tok.encode(traj.context))
        short, _, sstates, skept, strunc = tokenize_trajectory(tok, traj, len(ids) - 1)
        n_trunc += strunc
        assert strunc and len(short) <= len(ids) - 1
        if skept or len(short) < len(ids) - 1:  # cut at a state boundary: still a whole trajectory
            assert short[-1] == end and skept < len(traj.steps)
            assert tok.decode(short) == traj.context + traj.first + "".join(
                s.action_text + s.state_text for s in traj.steps[:skept]) + fmt.TRACE_END
    assert n_trunc == 80


def test_window_cuts_a_long_trajectory_into_documents_that_start_at_a_full_state(tok_dir: Path) -> None:
    tok = NdbTokenizer.load(tok_dir)
    recs = read_recordings([FIXTURE_RECORDINGS])
    rng = random.Random(7)
    end = tok.token_id(fmt.TRACE_END)
    window = 160
    cut = 0
    for i in range(60):
        rec = recs[i % len(recs)]
        traj = sample_trajectory(rec, rng).render(rec)
        whole = tok.encode(traj.text())
        docs = window_documents(tok, traj, rec, len(traj.steps), window)
        assert window_documents(tok, traj, rec, len(traj.steps), len(whole)) == [whole]
        texts = [tok.decode(d) for d in docs]
        assert all(d[-1] == end for d in docs)
        lines = fmt.source_lines(rec["source"])
        steps = iter(traj.steps)
        last = traj.start
        for k, text in enumerate(texts):
            first = traj.first if k == 0 else fmt.render_state(lines, fmt.state_at(rec, last))
            head = traj.context + first
            assert text.startswith(head)
            body = text[len(head):-len(fmt.TRACE_END)]
            taken = 0
            while body:  # the steps follow in order, each exactly as the trajectory wrote it
                step = next(steps)
                piece = step.action_text + step.state_text
                assert body.startswith(piece)
                body = body[len(piece):]
                last = step.position
                taken += 1
            assert taken >= 1 or len(traj.steps) == 0
            assert len(docs[k]) <= window or taken == 1  # only a single step may not fit
        assert next(steps, None) is None  # no step lost
        cut += len(docs) > 1
    assert cut > 5


@needs_tracer
def test_backend_traces_like_python_3_12_and_counts_runaways() -> None:
    backend = tb.TraceBackend(max_events=300, time_limit=5.0)
    try:
        rec, err = backend.record("def f(xs):\n    ys = [x * 2 for x in xs]\n    return sum(ys)\n", "f([1, 2, 3])")
        assert err is None and rec["exit"]["status"] == "normal" and rec["exit"]["value"] == "12"
        # PEP 709 (3.12+): the comprehension is inlined, no <listcomp> frame
        assert {e["function"] for e in rec["events"]} == {"f"}
        rec, err = backend.record("def g():\n    n = 0\n    while True:\n        n += 1\n", "g()")
        assert err is None and tb.STATUS_NAMES[rec["exit"]["status"]] == "over_budget" and len(rec["events"]) >= 300
        rec, err = backend.record("def h(x):\n    return x[5]\n", "h([1])")
        assert tb.STATUS_NAMES[rec["exit"]["status"]] == "raised"
        rec, err = backend.record("def h(x:\n", "h(1)")
        assert tb.STATUS_NAMES[rec["exit"]["status"]] == "could_not_run" and not rec["events"]
    finally:
        backend.close()


@pytest.mark.skipif(tb.IN_PROCESS or shutil.which("node") is None, reason="the Node backend is not used here")
def test_a_tracer_that_does_not_answer_is_killed(tmp_path: Path) -> None:
    silent = tmp_path / "silent.mjs"
    silent.write_text("process.stdin.on('data', () => {}); setInterval(() => {}, 1000);\n")
    backend = tb.TraceBackend(hard_timeout=0.5, load_timeout=0.5, node_script=silent)
    rec, err = backend.record("def f():\n    return 1\n", "f()")
    assert rec is None and err == "hard_stop" and backend.proc is None and backend.restarts == 1


SET_OF_STRINGS = "def f():\n    s = {'L', 'E', 'P', 'apple', 'x', 'yz', 'q'}\n    return s\n"


@pytest.mark.skipif(tb.IN_PROCESS or not CAN_TRACE, reason="the Node tracer is not used here")
def test_the_node_tracer_orders_a_set_of_strings_the_same_in_every_process() -> None:
    values = set()
    for _ in range(3):  # each backend starts its own Node, so its own Pyodide
        backend = tb.TraceBackend()
        try:
            rec, err = backend.record(SET_OF_STRINGS, "f()")
            assert err is None
            values.add(rec["exit"]["value"])
        finally:
            backend.close()
    assert len(values) == 1, values


def _hash_of_a_string(_: int) -> int:
    return hash("ndb")


def test_spawned_workers_hash_strings_with_a_fixed_seed() -> None:
    import multiprocessing as mp
    import os

    from training.data.workers import hash_seed_for_children

    before = os.environ.get("PYTHONHASHSEED")
    seen = set()
    for _ in range(2):
        with hash_seed_for_children():
            with mp.get_context("spawn").Pool(1) as pool:
                seen.add(pool.map(_hash_of_a_string, [0])[0])
    assert len(seen) == 1 and os.environ.get("PYTHONHASHSEED") == before


@needs_tracer
def test_tiny_dataset_reads_back_and_is_deterministic(tmp_path: Path, tok_dir: Path) -> None:
    recipe = Recipe(tokens=4000, tokenizer=str(tok_dir), seed=3, stdlib_share=0.5, what_if_share=0.5)
    kw = dict(task_size=8, shard_tokens=1500, quiet=True)
    report = bd.build(recipe, tmp_path / "a", workers=2, **kw)
    again = bd.build(recipe, tmp_path / "b", workers=1, **kw)
    meta = json.loads((tmp_path / "a/meta.json").read_text())
    for split in ("train", "val"):
        for name in meta[split]:
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert again["programs"] == report["programs"]
    assert Recipe.load(tmp_path / "a/recipe.json") == recipe and report["recipe"] == recipe.to_dict()

    tok = NdbTokenizer.load(tmp_path / "a/tokenizer")
    assert meta["vocab_size"] == tok.vocab_size == 700
    src = ShardSource(tmp_path / "a")
    x, y, w = src.batch(4, 64)
    assert x.shape == y.shape == w.shape == (4, 64)
    assert int(x.max()) < src.vocab_size and (x[:, 1:] == y[:, :-1]).all()
    xv, _, _ = src.batch(2, 16, split="val")
    assert xv.shape == (2, 16)
    # a mix that lists the shards of other datasets finds the end-of-text id beside them: its
    # windows start at a trajectory as the dataset's own do
    mix = tmp_path / "mix"
    mix.mkdir()
    (mix / "meta.json").write_text(json.dumps({**meta, "train": [f"../a/{n}" for n in meta["train"]], "val": [f"../a/{n}" for n in meta["val"]]}))
    mixed = ShardSource(mix)
    assert mixed.starts is not None and src.starts is not None
    assert all((a == b).all() for a, b in zip(mixed.starts["train"], src.starts["train"]))

    assert len(meta["train"]) >= 2 and meta["dtype"] == "uint16"
    sizes = [(tmp_path / "a" / n).stat().st_size // 2 for n in meta["train"]]
    assert all(n == 1500 for n in sizes[:-1]) and 0 < sizes[-1] <= 1500
    stream = np.concatenate([np.fromfile(tmp_path / "a" / n, dtype=meta["dtype"]) for n in meta["train"]])
    assert report["tokens"]["train"] == len(stream) - 1 and report["shards"]["train"] == len(meta["train"])
    assert report["tokens_total"] >= 4000 and report["tokens"]["val"] > 0
    assert stream[0] == stream[-1] == tok.eot_id
    docs = [d for d in np.split(stream, np.where(stream == tok.eot_id)[0]) if len(d) > 1]
    assert len(docs) >= 3
    for d in docs:
        text = tok.decode(d[1:].tolist())
        assert text.startswith(fmt.TRACE_CONTEXT_START)
        assert text.endswith(fmt.TRACE_END) or len(d) - 1 >= 2048

    progs = report["programs"]
    assert set(progs["per_source"]) == {"generated", "stdlib"}
    assert sum(sum(c.values()) for c in report["exits"].values()) == progs["unique"]
    assert sum(progs["by_split"].values()) == progs["unique"]
    what_if = report["trajectories"]["direction"].get("what_if", 0)
    assert what_if > 0  # half the programs try an edit; most programs have a local to edit
    assert report["trajectory_tokens"]["n"] == report["trajectories"]["n"] == 2 * (progs["unique"] - progs["no_events"]) + what_if
    assert 0 <= report["trajectories"]["share_truncated"] <= 1
    assert report["tokens_per_state"]["mean"] > 3
    assert json.loads((tmp_path / "a/stats.json").read_text())["tokens_total"] == report["tokens_total"]


@needs_tracer
def test_cli_builds_and_reports(tmp_path: Path, tok_dir: Path) -> None:
    import subprocess

    out = tmp_path / "ds"
    proc = subprocess.run(
        [sys.executable, "-m", "training.build_dataset", "--tokens", "1500", "--out", str(out), "--workers", "1",
         "--tokenizer", str(tok_dir), "--seed", "9"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["tokens_total"] >= 1500 and "tokens" in proc.stderr  # the progress bar
    assert ShardSource(out).vocab_size == 700
