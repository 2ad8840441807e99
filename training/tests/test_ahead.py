"""Shards built ahead of a lease (training/ahead.py): chunks on consecutive seeds, xz-compressed,
resumable and bounded, read back as the lease reads them beside its live workers."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from training.ahead import build_ahead, done_chunks, read_chunk, summarize
from training.data.live_source import LiveSource
from training.data.recipe import Recipe
from training.tests.lease_runners import CONTEXT
from training.tests.test_lease import PY312, RUNNERS, TOKENIZER

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(PY312 is None, reason="no Python >= 3.12 for in-process tracing")
def test_chunks_build_on_consecutive_seeds_resume_and_stop_at_the_cap(tmp_path: Path) -> None:
    recipe = Recipe(seed=70, stdlib_share=0.2, tokenizer=str(TOKENIZER), window=512)
    out = tmp_path / "shards"
    lines: list[str] = []
    first = build_ahead(recipe, out, chunk_tokens=3000, max_mib=50, worker_python=PY312, workers=1, max_chunks=2, log=lines.append)
    assert first["chunks"] == 2 and first["seeds"] == [70, 71]
    chunks = done_chunks(out)
    assert [Path(c["dir"]).name for c in chunks] == ["chunk_000_s70", "chunk_001_s71"]
    for c in chunks:
        chunk = Path(c["dir"])
        assert not list(chunk.glob("*.bin"))  # only the compressed shards are kept
        arrays = list(read_chunk(chunk, "train"))
        assert sum(len(a) for a in arrays) == c["tokens"]["train"] >= 3000 - 1
        assert json.loads((chunk / "recipe.json").read_text())["seed"] == c["seed"]
    # different seeds, different programs
    a, b = (np.concatenate(list(read_chunk(Path(c["dir"]), "train"))) for c in chunks)
    assert not np.array_equal(a[:500], b[:500])
    # a chunk left half-built is built again; done ones are kept; the cap stops the run
    (out / "chunk_002_s72").mkdir()
    (out / "chunk_002_s72" / "train_000.bin.xz").write_bytes(b"partial")
    again = build_ahead(recipe, out, chunk_tokens=3000, max_mib=50, worker_python=PY312, workers=1, max_chunks=1, log=lines.append)
    assert again["seeds"] == [70, 71, 72]
    assert (out / "chunk_002_s72" / "done.json").is_file()
    capped = build_ahead(recipe, out, chunk_tokens=3000, max_mib=0.001, worker_python=PY312, workers=1, log=lines.append)
    assert capped["chunks"] == 3 and any("the cap" in line for line in lines)
    assert summarize(out)["train_tokens"] == sum(c["tokens"]["train"] for c in done_chunks(out))


def test_refuses_a_folder_of_the_repository_that_git_does_not_ignore() -> None:
    with pytest.raises(ValueError, match="never committed"):
        build_ahead(Recipe(seed=1), ROOT / "training" / "shards-here", 1000, 1, None, 1, max_chunks=1)
    assert not (ROOT / "training" / "shards-here").exists()


def test_a_lease_draws_carried_documents_beside_live_ones_in_proportion() -> None:
    src = LiveSource(TOKENIZER, Recipe(corpus_share=0.0, seed=3), workers=1, task_size=8, allow_node=True,
                     runner=f"{RUNNERS}:fake", log=lambda _: None, wait_timeout=60)
    try:
        eot = src.eot
        # carried documents: a context start, then tokens 1..3 (no fake program writes those)
        doc = np.array([CONTEXT] + [1, 2, 3] * 20, dtype=np.uint16)
        stream = np.concatenate([np.array([eot], dtype=np.uint16)] + [np.concatenate([doc, [eot]]).astype(np.uint16)] * 400)
        taken = src.carry([stream])
        assert taken == src.carried_tokens == 400 * (len(doc) + 1)
        # before the workers have made anything, every row is a carried one: the trainer need not wait
        x, _, _ = src.batch(8, 24)
        assert (x[:, 1] <= 3).all()
        src.fill("train", 8_000)
        carried_rows = live_rows = 0
        for _ in range(20):
            x, y, _ = src.batch(8, 24)
            assert (x[:, 0] == CONTEXT).all()  # every window starts at a document, carried or live
            assert torch_equal(x[:, 1:], y[:, :-1])
            from_carried = (x[:, 1] <= 3).numpy()
            carried_rows += int(from_carried.sum())
            live_rows += int((~from_carried).sum())
        assert carried_rows > 0 and live_rows > 0
    finally:
        src.close()


def torch_equal(a, b) -> bool:  # noqa: ANN001 - torch tensors
    import torch

    return bool(torch.equal(a, b))
