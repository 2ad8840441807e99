"""Shards built ahead of a GPU lease, in the background of a developer's session (issue 45).

A lease's live workers make ~0.45 M tokens/s while its trainer reads ~2.7 M/s, so a lease alone
re-reads what it makes about nine times. Traces compress ~12x with xz, so the 64 MiB a lease may
carry holds far more fresh tokens than its workers make: this builds them here, a chunk at a time.

    python3 -m training.ahead --recipe training/recipes/lease4_s5000.json --out ../shards \\
        --worker-python ~/.pyenv/versions/3.12.1/bin/python --max-mib 40

- **chunks**: chunk ``i`` is the recipe on seed ``recipe.seed + i`` (``--chunk-tokens`` tokens),
  built by ``build_dataset.build`` (the dataset builder's own pipeline and the tracer a lease
  uses: workers under a Python >= 3.12 trace in-process), its ``.bin`` shards then xz-compressed;
- **resumable**: a chunk is done when its ``done.json`` exists (seed, tokens, bytes, the recipe);
  a chunk left half-built by a stop is built again; run the same command to go on;
- **bounded**: it stops when the compressed chunks reach ``--max-mib`` (what a lease can carry
  beside the tracked files), with a line per chunk and a summary in ``ahead.json``;
- **never in the repository**: ``--out`` must lie outside the work tree or in an ignored folder.

``training/lease.sh --pack --shards DIR`` carries the done chunks; ``lease/run.py`` reads them
(``ahead_docs``) beside its live workers, and its log says how often each token was read.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import lzma
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator, Optional

import numpy as np

from .data.recipe import ROOT, Recipe

DONE = "done.json"
SUMMARY = "ahead.json"
XZ_PRESET = 6


def chunk_dirs(out: Path) -> list[Path]:
    return sorted(p for p in out.glob("chunk_*") if p.is_dir())


def done_chunks(out: Path) -> list[dict]:
    """The finished chunks' records (``done.json``), oldest first."""
    found = []
    for d in chunk_dirs(out):
        f = d / DONE
        if f.is_file():
            rec = json.loads(f.read_text())
            rec["dir"] = str(d)
            found.append(rec)
    return found


def compressed_bytes(out: Path) -> int:
    return sum(int(r["bytes"]) for r in done_chunks(out))


def _inside_repo_unignored(out: Path) -> bool:
    try:
        out.resolve().relative_to(ROOT)
    except ValueError:
        return False
    res = subprocess.run(["git", "check-ignore", "-q", str(out)], cwd=ROOT)
    return res.returncode != 0


def compress_chunk(build_dir: Path, chunk: Path) -> tuple[int, dict[str, int]]:
    """The build's shards as ``.bin.xz`` in ``chunk`` (and its meta, stats and recipe); returns the
    bytes written and the tokens per split."""
    meta = json.loads((build_dir / "meta.json").read_text())
    dtype = np.dtype(meta["dtype"])
    total = 0
    tokens = {"train": 0, "val": 0}
    for split in ("train", "val"):
        for name in meta[split]:
            raw = (build_dir / name).read_bytes()
            tokens[split] += len(raw) // dtype.itemsize
            packed = lzma.compress(raw, preset=XZ_PRESET)
            (chunk / (name + ".xz")).write_bytes(packed)
            total += len(packed)
    for name in ("meta.json", "stats.json", "recipe.json"):
        if (build_dir / name).is_file():
            shutil.copy(build_dir / name, chunk / name)
    return total, tokens


def read_chunk(chunk: Path, split: str = "train") -> Iterator[np.ndarray]:
    """The token arrays of one done chunk's split, decompressed."""
    meta = json.loads((chunk / "meta.json").read_text())
    dtype = np.dtype(meta["dtype"])
    for name in meta[split]:
        yield np.frombuffer(lzma.decompress((chunk / (name + ".xz")).read_bytes()), dtype=dtype)


def build_ahead(recipe: Recipe, out: Path, chunk_tokens: int, max_mib: float, worker_python: Optional[str],
                workers: int, max_chunks: int = 0, log=print) -> dict:
    from .build_dataset import build

    if _inside_repo_unignored(out):
        raise ValueError(f"{out} is inside the repository and not ignored: shards are never committed (use a folder outside it, or runs/)")
    out.mkdir(parents=True, exist_ok=True)
    cap = int(max_mib * 1024 * 1024)
    started = time.time()
    i = 0
    built = 0
    while True:
        have = compressed_bytes(out)
        if have >= cap:
            log(f"ahead: {have / 2**20:.1f} MiB of chunks ready, the cap of {max_mib} MiB: stopping")
            break
        if max_chunks and built >= max_chunks:
            break
        seed = recipe.seed + i
        chunk = out / f"chunk_{i:03d}_s{seed}"
        i += 1
        if (chunk / DONE).is_file():
            continue
        if chunk.exists():
            shutil.rmtree(chunk)  # left half-built by a stop
        scratch = out / f".build_{seed}"
        if scratch.exists():
            shutil.rmtree(scratch)
        t0 = time.time()
        log(f"ahead: chunk {chunk.name}: building {chunk_tokens:,} tokens on seed {seed} ({have / 2**20:.1f} MiB ready)")
        r = dataclasses.replace(recipe, seed=seed, tokens=chunk_tokens)
        report = build(r, scratch, workers=workers, quiet=True, worker_python=worker_python)
        chunk.mkdir(parents=True)
        nbytes, tokens = compress_chunk(scratch, chunk)
        shutil.rmtree(scratch)
        rec = {"seed": seed, "tokens": tokens, "bytes": nbytes, "wall_s": round(time.time() - t0, 1),
               "tokens_per_s": report.get("tokens_per_s"), "tracer": report.get("tracer"),
               "programs": report.get("programs", {}).get("unique") if isinstance(report.get("programs"), dict) else None,
               "recipe": r.to_dict()}
        (chunk / DONE).write_text(json.dumps(rec, indent=2))
        built += 1
        ratio = (tokens["train"] + tokens["val"]) * 2 / max(1, nbytes)
        log(f"ahead: chunk {chunk.name} done: {tokens['train']:,} train + {tokens['val']:,} val tokens in "
            f"{nbytes / 2**20:.2f} MiB (xz {ratio:.1f}x), {rec['wall_s']} s")
    summary = summarize(out)
    summary["session_wall_s"] = round(time.time() - started, 1)
    (out / SUMMARY).write_text(json.dumps(summary, indent=2))
    return summary


def summarize(out: Path) -> dict:
    chunks = done_chunks(out)
    return {
        "chunks": len(chunks),
        "seeds": [c["seed"] for c in chunks],
        "train_tokens": sum(c["tokens"]["train"] for c in chunks),
        "val_tokens": sum(c["tokens"]["val"] for c in chunks),
        "mib": round(sum(c["bytes"] for c in chunks) / 2**20, 2),
    }


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.ahead", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipe", type=Path, help="the mix (its seed is chunk 0's)")
    ap.add_argument("--out", type=Path, required=True, help="the chunks' folder, outside the repository")
    ap.add_argument("--chunk-tokens", type=int, default=8_000_000)
    ap.add_argument("--max-mib", type=float, default=40.0, help="stop when the compressed chunks reach this")
    ap.add_argument("--max-chunks", type=int, default=0, help="build at most this many chunks in this run (0: no bound)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--worker-python", default=None, help="a Python >= 3.12 for the workers (in-process tracing, as a lease)")
    ap.add_argument("--summary", action="store_true", help="print what is ready and stop")
    args = ap.parse_args(argv)
    if args.summary:
        print(json.dumps(summarize(args.out), indent=2))
        return 0
    if args.recipe is None:
        ap.error("--recipe is needed to build")
    try:
        summary = build_ahead(Recipe.load(args.recipe), args.out, args.chunk_tokens, args.max_mib, args.worker_python,
                              args.workers, args.max_chunks, log=lambda s: print(s, flush=True))
    except (RuntimeError, ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
