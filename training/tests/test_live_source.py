"""Live data: trajectories drawn on the fly from worker processes (Python >= 3.12; on older
Pythons a clear error, and the Node backend in tests)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from training import trace_backend as tb
from training import format as fmt
from training.data.live_source import LiveSource, LiveSourceError
from training.data.trajectories import trajectory_texts
from training.tokenizer import NdbTokenizer, count_chunks, train_bpe
from training.train_tokenizer import FIXTURE_RECORDINGS, read_recordings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    recs = read_recordings([FIXTURE_RECORDINGS])
    tok = train_bpe(count_chunks(trajectory_texts(recs, 300, seed=2)), vocab_size=600)
    out = tmp_path_factory.mktemp("tok")
    tok.save(out)
    return out


@pytest.mark.skipif(tb.IN_PROCESS, reason="this Python can trace in-process")
def test_old_python_gets_a_clear_error(tok_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(LiveSourceError, match="3.12"):
        LiveSource(tok_dir, workers=1)
    proc = subprocess.run(
        [sys.executable, "-m", "training.train", "--config", "training/configs/tiny.json", "--live", str(tok_dir),
         "--out", str(tmp_path / "run")], capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 2 and "3.12" in proc.stderr and "build_dataset" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "training.train", "--config", "training/configs/tiny.json", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 2 and "--data" in proc.stderr


@pytest.mark.skipif(not tb.IN_PROCESS and shutil.which("node") is None, reason="no tracer")
def test_batches_come_from_fresh_trajectories(tok_dir: Path) -> None:
    src = LiveSource(tok_dir, workers=1, task_size=8, allow_node=not tb.IN_PROCESS, wait_timeout=120)
    try:
        assert src.vocab_size == 600
        x, y, w = src.batch(3, 48)
        assert x.shape == y.shape == w.shape == (3, 48)
        assert (x[:, 1:] == y[:, :-1]).all() and int(x.max()) < 600 and float(w.sum()) == 3 * 48
        xv, _, _ = src.batch(2, 16, split="val")
        assert xv.shape == (2, 16)
        assert src.stats.unique > 0 and src.stats.split_tokens["val"] > 0
        tok = NdbTokenizer.load(tok_dir)
        text = tok.decode(src.buffers["train"][:4000].tolist())
        assert text.count(fmt.TRACE_CONTEXT_START) >= 1 and fmt.TRACE_END in text
        before = src.stats.unique
        for _ in range(20):
            src.batch(2, 32)
            if src.stats.unique > before:
                break
            import time

            time.sleep(0.2)
        assert src.stats.unique > before  # the workers keep drawing
    finally:
        src.close()
