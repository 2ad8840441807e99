"""Builds a training set: programs → recordings → trajectories → token shards.

    python3 -m training.build_dataset --recipe training/recipes/data80m_s15.json --out DIR [--workers K]
    python3 -m training.build_dataset --tokens N --out DIR [--seed S] [--tokenizer DIR] [--corpus-share F] ...

What goes in is a recipe (``training/data/recipe.py``; the datasets of the trained phases are in
``training/recipes/``): the shares of the whole of the program sources (real code from the corpus,
the Python-construct families, pure-Python functions of the standard library; the function
generator makes the rest), the trajectories drawn from each run, the tracer's limits, the seed, the
size and the tokenizer. Every field is also an option (``--corpus-share`` for ``corpus_share``);
options given override ``--recipe``'s fields. Program ``i`` is drawn from
``random.Random(f"{seed}:{i}")`` whatever the number of workers, and results are consumed in
program order, so a build is deterministic.

The jobs, each in its module:
- drawing programs: ``data/sources.py``; each program through the pipeline (trace, trajectories,
  documents): ``data/program_docs.py``; tokens and windows: ``data/documents.py``;
- tracing: ``trace_backend.py`` (in-process with Python ≥ 3.12, else Pyodide under Node; every
  program is counted by how it ended and none is dropped silently);
- the worker pool that keeps program order: ``data/workers.py``;
- counting: ``data/dataset_stats.py``; writing shards: ``data/shard_writer.py``;
- a tokenizer when the recipe names none: ``train_tokenizer.train_for_recipe``.

Programs whose hash falls in the held-out split (a corpus program's: its file's) go to ``val``.
Duplicate programs (same normalized source and call) are skipped and counted per source.

Output: ``DIR/meta.json`` and ``DIR/{train,val}_NNN.bin`` (read by ``ShardSource``),
``DIR/tokenizer/`` (the tokenizer used), ``DIR/recipe.json`` (the recipe, to build it again) and
``DIR/stats.json`` (also printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Optional

from .data.dataset_stats import Stats
from .data.recipe import Recipe, add_arguments, from_args
from .data.shard_writer import ShardWriter
from .data.workers import Dedup, ProgramStream, python_version
from .tokenizer import NdbTokenizer
from .trace_backend import IN_PROCESS, TraceBackend


def _progress(done: int, total: int, programs: int, started: float) -> str:
    width = 30
    frac = min(1.0, done / max(1, total))
    rate = done / max(1e-9, time.time() - started)
    eta = (total - done) / rate if rate > 0 and done < total else 0
    bar = "#" * int(width * frac) + "." * (width - int(width * frac))
    return f"\r[{bar}] {done:,}/{total:,} tokens, {programs:,} programs, {rate:,.0f} tok/s, eta {eta:,.0f}s "


def _tokenizer(recipe: Recipe, tok_dir: Path, quiet: bool) -> NdbTokenizer:
    """The recipe's tokenizer copied into the dataset, or one trained for it."""
    given = recipe.tokenizer_path()
    if given is not None:
        if given.resolve() != tok_dir.resolve():
            tok_dir.mkdir(parents=True, exist_ok=True)
            for name in ("tokenizer.json", "tokenizer_config.json"):
                shutil.copy(given / name, tok_dir / name)
    else:
        from .train_tokenizer import train_for_recipe

        if not quiet:
            print("training a tokenizer (the recipe names none)…", file=sys.stderr)
        train_for_recipe(recipe, tok_dir)
    return NdbTokenizer.load(tok_dir)


def build(recipe: Recipe, out: Path, workers: int = 2, shard_tokens: int = 1 << 22, task_size: int = 32,
          quiet: bool = False, max_programs: int = 0, worker_python: Optional[str] = None) -> dict[str, Any]:
    """Builds the dataset of ``recipe`` into ``out``: until ``recipe.tokens`` tokens are written
    (with some in each split), or after ``max_programs`` programs when that is given. ``worker_python``
    runs the workers under another interpreter (a Python >= 3.12 traces in-process, as a lease does)."""
    if recipe.tokens <= 0 and max_programs <= 0:
        raise RuntimeError("nothing says when to stop: give --tokens N (or a recipe with tokens), or --programs N")
    started = time.time()
    out.mkdir(parents=True, exist_ok=True)
    TraceBackend(**recipe.tracer_limits())  # fails early with a clear message when no tracer can run
    tok_dir = out / "tokenizer"
    tok = _tokenizer(recipe, tok_dir, quiet)
    if recipe.corpus_share > 0:
        from .data import corpus

        extraction = corpus.load()  # before the workers start: forked ones share it, and a missing corpus fails here
        if not quiet:
            print(f"corpus: {extraction.stats['files_read']:,} files, {len(extraction.units):,} units", file=sys.stderr)
    stats = Stats()
    dedup = Dedup()
    writer = ShardWriter(out, tok.vocab_size, shard_tokens, tok.eot_id)
    total = 0
    # a bound on program indices, in case programs give almost no tokens
    max_index = max(10_000, recipe.tokens // 20, 20 * max_programs)
    gen_started = time.time()

    def enough() -> bool:
        if max_programs > 0:
            return stats.unique >= max_programs
        return total >= recipe.tokens and stats.split_tokens["val"] > 0 and stats.split_tokens["train"] > 0

    with ProgramStream(recipe, tok_dir, recipe.seed, workers, task_size, max_index=max_index, python=worker_python) as stream:
        while not enough():
            results = stream.next_task()
            if results is None:
                break
            for r in results:
                if enough():
                    break
                if not dedup.first_time(r):
                    stats.add_duplicate(r)
                    continue
                split = "val" if r.held_out else "train"
                stats.add(r, split)
                for doc in r.docs:
                    writer.add(split, doc)
                    total += len(doc) + 1
            if not quiet:
                sys.stderr.write(_progress(total, recipe.tokens or total, stats.unique, gen_started))
    if not quiet:
        sys.stderr.write("\n")
    writer.close()
    recipe.save(out / "recipe.json")
    report = stats.report({
        "tokens_total": int(sum(writer.written.values())),
        "target_tokens": recipe.tokens, "seed": recipe.seed, "workers": workers, "wall_s": round(time.time() - started, 1),
        "tokens_per_s": round(total / max(1e-9, time.time() - gen_started)), "vocab_size": tok.vocab_size,
        "tokenizer_s": round(gen_started - started, 1),
        "tracer": _tracer_name(worker_python),
        "recipe": recipe.to_dict(),
        "shards": {split: len(names) for split, names in writer.files.items()},
    })
    (out / "stats.json").write_text(json.dumps(report, indent=2))
    return report


def _tracer_name(worker_python: Optional[str]) -> str:
    if worker_python is None:
        return "in-process (Python %d.%d)" % sys.version_info[:2] if IN_PROCESS else "pyodide under node"
    version = python_version(worker_python)
    return f"in-process (Python {version[0]}.{version[1]})" if version >= (3, 12) else "pyodide under node"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.build_dataset", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=max(1, min(8, (os.cpu_count() or 2))))
    ap.add_argument("--shard-tokens", type=int, default=1 << 22, help="tokens per shard file")
    ap.add_argument("--programs", type=int, default=0,
                    help="stop after this many programs instead (a quick look at a recipe; 0: stop at --tokens)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--worker-python", default=None,
                    help="the workers' interpreter (default this one); a Python >= 3.12 traces in-process, as a lease does")
    add_arguments(ap)
    args = ap.parse_args(argv)
    try:
        recipe = from_args(args)
        report = build(recipe, args.out, args.workers, args.shard_tokens, quiet=args.quiet, max_programs=args.programs,
                       worker_python=args.worker_python)
    except (RuntimeError, ValueError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
