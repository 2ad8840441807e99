"""The pieces of the GPU lease (training/lease.sh): the weights' parts and their hashes, the
wall-clock schedule, the per-program timeout of the data workers, and live windows that start at a
document."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Optional

import numpy as np
import pytest
import torch

from training import format as fmt
from training.data.live_source import DocBuffer, LiveSource
from training.data.recipe import Recipe
from training.data.workers import ProgramStream
from training.lease.parts import MIB, PartsError, check_out_dir, read_parts, write_parts
from training.lease.run import bf16_rounded, load_named, lr_at_fraction
from training.model import Decoder, ModelConfig
from training.tests.lease_runners import CONTEXT
from training.tokenizer import NdbTokenizer

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER = ROOT / "public" / "models" / "ndb-cpu-6m"
RUNNERS = "training.tests.lease_runners"
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="workers on Python < 3.12 start the Node tracer's backend")


def tiny_model(seed: int = 0) -> Decoder:
    torch.manual_seed(seed)
    return Decoder(ModelConfig(vocab_size=96, dim=32, n_layers=2, n_heads=4, n_kv_heads=2, hidden_dim=64, max_seq_len=64))


# -- parts -----------------------------------------------------------------------------------------


def test_parts_round_trip_to_the_bf16_weights(tmp_path: Path) -> None:
    model = tiny_model()
    named = list(model.named_parameters())
    assert "lm_head.weight" not in dict(named)  # tied to the embedding: carried once
    manifest = write_parts(tmp_path, named, {"step": 7, "model_config": model.cfg.to_dict()}, part_bytes=10_000)
    assert len(manifest["parts"]) == -(-manifest["bytes"] // 10_000) > 1  # cut into several parts
    assert all(p["bytes"] <= 10_000 for p in manifest["parts"]) and manifest["step"] == 7
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([p["file"] for p in manifest["parts"]] + ["manifest.json"])
    arrays, again = read_parts(tmp_path)
    assert again == manifest
    for name, p in named:
        want = p.detach().to(torch.bfloat16).float().numpy()
        assert arrays[name].dtype == np.float32 and np.array_equal(arrays[name], want), name
        # bf16 keeps 8 bits of mantissa: within half a unit in the last place
        assert np.all(np.abs(arrays[name] - p.detach().numpy()) <= np.abs(p.detach().numpy()) * 2.0 ** -8 + 1e-30)
    twin = tiny_model(seed=1)
    load_named(twin, {k: torch.from_numpy(v) for k, v in arrays.items()})
    x = torch.randint(0, 96, (2, 16))
    assert torch.equal(twin(x), bf16_rounded(model)(x))  # the tied output projection came back too
    assert check_out_dir(tmp_path) == []


def test_parts_refuse_a_changed_missing_or_short_part(tmp_path: Path) -> None:
    model = tiny_model()
    manifest = write_parts(tmp_path, list(model.named_parameters()), {}, part_bytes=10_000)
    part = tmp_path / manifest["parts"][1]["file"]
    data = bytearray(part.read_bytes())
    data[100] ^= 1
    part.write_bytes(bytes(data))
    with pytest.raises(PartsError, match="sha256"):
        read_parts(tmp_path)
    part.write_bytes(bytes(data[:-2]))
    with pytest.raises(PartsError, match="bytes"):
        read_parts(tmp_path)
    part.unlink()
    with pytest.raises(PartsError, match="missing"):
        read_parts(tmp_path)


def test_parts_refuse_too_many_parts_and_drop_stale_ones(tmp_path: Path) -> None:
    model = tiny_model()
    with pytest.raises(PartsError, match="at most 2"):
        write_parts(tmp_path, list(model.named_parameters()), {}, part_bytes=10_000, max_parts=2)
    write_parts(tmp_path, list(model.named_parameters()), {}, part_bytes=10_000)
    many = len(list(tmp_path.glob("weights-*.bin")))
    manifest = write_parts(tmp_path, list(model.named_parameters()), {}, part_bytes=1 * MIB)  # a later snapshot, one part
    assert many > 1 and [p.name for p in tmp_path.glob("weights-*.bin")] == [manifest["parts"][0]["file"]]
    read_parts(tmp_path)
    assert not list(tmp_path.parent.glob(f".{tmp_path.name}-*"))  # the staging folder is gone


def test_out_check_counts_what_would_not_come_back(tmp_path: Path) -> None:
    for i in range(9):
        (tmp_path / f"f{i}.bin").write_bytes(b"x")
    (tmp_path / "bad name.txt").write_bytes(b"x")
    problems = check_out_dir(tmp_path)
    assert any("10 files" in p for p in problems) and any("bad name.txt" in p for p in problems)


# -- the wall-clock schedule -----------------------------------------------------------------------


def test_the_schedule_ends_decayed_whenever_the_clock_stops() -> None:
    cfg = {"lr": 1e-3, "min_lr": 1e-4, "warmup": 10, "decay_frac": 0.25}
    assert lr_at_fraction(0, 0.0, cfg) == pytest.approx(1e-4)  # warm-up, by steps
    assert lr_at_fraction(9, 0.01, cfg) == pytest.approx(1e-3)
    assert lr_at_fraction(500, 0.5, cfg) == 1e-3 == lr_at_fraction(500, 0.75, cfg)  # held
    assert lr_at_fraction(500, 0.875, cfg) == pytest.approx(5.5e-4)  # halfway down the last quarter
    assert lr_at_fraction(500, 1.0, cfg) == 1e-4 == lr_at_fraction(500, 1.3, cfg)
    fracs = np.linspace(0.75, 0.9999, 50)
    rates = [lr_at_fraction(500, f, cfg) for f in fracs]
    assert all(a >= b for a, b in zip(rates, rates[1:])) and rates[-1] < 1.01e-4
    # a slow machine that is still warming up when the decay starts: never above either curve
    assert lr_at_fraction(2, 0.9, cfg) == pytest.approx(min(3e-4, 1e-3 - 0.6 * 9e-4))


# -- the workers' per-program timeout --------------------------------------------------------------


def drain(stream: ProgramStream, patience: float = 60.0) -> list:
    """All the stream's results, or those that came before it gave nothing for ``patience`` s."""
    got = []
    while True:
        results = stream.next_task(timeout=patience)
        if results is None:
            return got
        got.extend(results)


@needs_node
def test_a_hung_program_is_given_up_and_the_stream_goes_on() -> None:
    notes: list[str] = []
    started = time.time()
    with ProgramStream(Recipe(), TOKENIZER, seed=7, workers=2, task_size=4, max_index=12, runner=f"{RUNNERS}:hangs_at_5",
                       program_timeout=2.0, log=notes.append) as stream:
        got = drain(stream)
        assert stream.killed == 1
    assert time.time() - started < 60
    assert [r.index for r in got] == list(range(12))  # in order, none lost
    assert [r.status for r in got].count("normal") == 11
    assert got[5].status == "hard_stop" and got[5].origin == "hung" and not got[5].docs
    assert got[6].docs and got[6].docs[0][1] == 106  # the rest of its task was made by the restarted worker
    assert any("program 5" in n and "killed" in n and "more than 2 s" in n for n in notes), notes


@needs_node
def test_the_timeout_starts_with_the_programs_not_the_warm_up() -> None:
    """A worker loads its sources (the corpus: 40-70 s here) before it says it is ready; a timeout that
    counted that time killed every fresh worker of a loaded machine at its first corpus program."""
    with ProgramStream(Recipe(), TOKENIZER, seed=7, workers=1, task_size=4, max_index=8,
                       runner="training.tests.lease_slow_start:fake", program_timeout=1.0, log=lambda _: None) as stream:
        got = drain(stream, patience=20.0)
        assert stream.killed == 0
    assert [r.status for r in got] == ["normal"] * 8


@needs_node
def test_a_worker_that_dies_is_replaced_and_its_program_counted() -> None:
    notes: list[str] = []
    with ProgramStream(Recipe(), TOKENIZER, seed=7, workers=1, task_size=4, max_index=8, runner=f"{RUNNERS}:dies_at_2",
                       program_timeout=30.0, log=notes.append) as stream:
        got = drain(stream)
        assert stream.killed == 1
    assert [r.index for r in got] == list(range(8))
    assert got[2].status == "hard_stop" and all(r.status == "normal" for i, r in enumerate(got) if i != 2)
    assert any("exited with status 3" in n for n in notes), notes


@needs_node
def test_a_failing_pipeline_stops_the_stream_with_its_traceback() -> None:
    with ProgramStream(Recipe(), TOKENIZER, seed=7, workers=1, task_size=4, max_index=8, runner=f"{RUNNERS}:fails_at_3",
                       log=lambda _: None) as stream:
        with pytest.raises(RuntimeError, match="a bug in the pipeline"):
            drain(stream)


# -- document-aligned windows ----------------------------------------------------------------------


def test_doc_buffer_windows_start_at_documents_also_after_trimming() -> None:
    eot = 9
    buf = DocBuffer(eot, max_tokens=200)
    rng = np.random.default_rng(0)
    for i in range(40):
        buf.add([CONTEXT] + [100 + i] * int(rng.integers(3, 30)))
        if i % 7 == 0:
            buf.flush()
    buf.flush()
    assert len(buf) <= 200 and buf.starts[0] == 0  # trimmed at a document's start
    assert all(buf.tokens[s] == CONTEXT for s in buf.starts) and (buf.tokens == CONTEXT).sum() == len(buf.starts)
    assert all(buf.tokens[s - 1] == eot for s in buf.starts[1:])
    rows = buf.windows(rng, 64, 20)
    assert rows.shape == (64, 21) and (rows[:, 0] == CONTEXT).all()
    firsts = {int(r[1]) for r in rows}
    assert len(firsts) > 3  # windows come from many documents, not one
    with pytest.raises(ValueError):
        buf.windows(rng, 1, 500)
    # a full buffer takes new documents in by eighths (each flush copies it whole); a forced flush at once
    before = buf.tokens.copy()
    buf.add([CONTEXT, 7, 7])
    buf.flush(force=False)
    assert np.array_equal(buf.tokens, before)
    buf.add([CONTEXT] + [8] * 30)
    buf.flush(force=False)
    assert buf.tokens[-1] == eot and buf.tokens[-2] == 8 and 7 in buf.tokens[-40:]
    buf.add([CONTEXT, 5])
    buf.flush()
    assert list(buf.tokens[-3:]) == [CONTEXT, 5, eot] and buf.tokens[buf.starts[-1]] == CONTEXT
    # a buffer far from full also grows by eighths of what it holds (each flush copies it whole)
    big = DocBuffer(eot, max_tokens=10_000)
    big.add([CONTEXT] + [1] * 799)
    big.flush(force=False)  # empty: whatever came in counts at once
    assert len(big) == 801
    big.add([CONTEXT] + [2] * 50)
    big.flush(force=False)
    assert len(big) == 801  # 52 < 801 // 8
    big.add([CONTEXT] + [3] * 60)
    big.flush(force=False)
    assert len(big) == 801 + 52 + 62 and big.tokens[-2] == 3


@needs_node
def test_live_windows_start_at_a_document() -> None:
    src = LiveSource(TOKENIZER, Recipe(corpus_share=0.0, seed=3), workers=1, task_size=8, allow_node=True,
                     runner=f"{RUNNERS}:fake", log=lambda _: None, wait_timeout=60)
    try:
        for _ in range(10):
            x, y, w = src.batch(8, 24)
            assert (x[:, 0] == CONTEXT).all()
            assert (x[:, 1] >= 100).all()  # the first token after the context start: a program's own
            assert torch.equal(x[:, 1:], y[:, :-1])
        xv, _, _ = src.batch(4, 24, split="val")
        assert (xv[:, 0] == CONTEXT).all()
        assert all((int(t) - 100) % 5 == 4 for t in xv[:, 1])  # held-out programs only
        assert src.produced_tokens == src.stats.split_tokens["train"] > 0
    finally:
        src.close()


def python_312() -> Optional[str]:
    candidates = [os.environ.get("NDB_WORKER_PYTHON", "")] + sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python")))
    candidates += [shutil.which(n) or "" for n in ("python3.12", "python3.13")]
    for c in filter(None, candidates):
        try:
            ok = subprocess.run([c, "-c", "import sys; sys.exit(sys.version_info < (3, 12))"], timeout=30).returncode == 0
        except OSError:
            continue
        if ok:
            return c
    return None


PY312 = python_312()


@pytest.mark.skipif(PY312 is None, reason="no Python >= 3.12 for in-process tracing")
def test_real_live_windows_under_python_312_start_with_their_source() -> None:
    """The lease's data path as the rehearsal runs it: workers under Python >= 3.12 tracing in-process."""
    tok = NdbTokenizer.load(TOKENIZER)
    start = tok.token_id(fmt.TRACE_CONTEXT_START)
    src = LiveSource(TOKENIZER, Recipe(corpus_share=0.0, seed=3), workers=1, task_size=8, worker_python=PY312,
                     log=lambda _: None, wait_timeout=120)
    try:
        x, _, _ = src.batch(6, 128)
        assert (x[:, 0] == start).all()
        text = tok.decode(x[0].tolist())
        assert text.startswith(fmt.TRACE_CONTEXT_START) and fmt.FRAME_SEP in text
        assert src.stats.unique > 0 and src.stream.killed == 0
    finally:
        src.close()


# -- starting from earlier weights, and the import -------------------------------------------------


def test_init_reads_a_lease_folder_or_a_checkpoint_of_the_same_shape(tmp_path: Path) -> None:
    from training.lease.run import load_init

    model = tiny_model()
    write_parts(tmp_path / "lease", list(model.named_parameters()), {"model_config": model.cfg.to_dict(), "step": 3},
                part_bytes=10_000)
    fresh = tiny_model(seed=5)
    assert "step 3" in load_init(fresh, tmp_path / "lease")
    x = torch.randint(0, 96, (1, 8))
    assert torch.equal(fresh(x), bf16_rounded(model)(x))
    torch.save({"model": model.state_dict(), "model_config": model.cfg.to_dict()}, tmp_path / "c.pt")
    again = tiny_model(seed=6)
    load_init(again, tmp_path / "c.pt")
    assert torch.equal(again(x), model(x))
    other = Decoder(ModelConfig(vocab_size=96, dim=32, n_layers=3, n_heads=4, n_kv_heads=2, hidden_dim=64, max_seq_len=64))
    with pytest.raises(SystemExit, match="differs"):
        load_init(other, tmp_path / "lease")


def test_unpack_writes_a_checkpoint_the_exporter_reads(tmp_path: Path) -> None:
    from training.lease.unpack import unpack
    from training.train import load_model

    model = tiny_model()
    config = {"model": {}, "train": {"seq_len": 48}}
    write_parts(tmp_path / "out", list(model.named_parameters()),
                {"model_config": model.cfg.to_dict(), "step": 9, "tokens": 1234, "config": config,
                 "tokenizer": {"tokenizer_json_sha256": "0" * 64}}, part_bytes=10_000)
    with pytest.raises(PartsError, match="another tokenizer"):
        unpack(tmp_path / "out", tmp_path / "c.pt", tokenizer=TOKENIZER)
    manifest = unpack(tmp_path / "out", tmp_path / "c.pt")
    loaded = load_model(tmp_path / "c.pt")
    x = torch.randint(0, 96, (1, 8))
    assert manifest["step"] == 9 and torch.equal(loaded(x), bf16_rounded(model)(x))
    ckpt = torch.load(tmp_path / "c.pt")
    assert ckpt["config"]["train"]["seq_len"] == 48 and "optim" not in ckpt  # the trained context reaches config.json
