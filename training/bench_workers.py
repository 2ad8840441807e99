"""How fast a live worker makes training tokens: the lease's own path (``data/workers.py``'s
``ProgramStream``, fresh interpreters tracing in-process under Python >= 3.12) on the lease's recipe,
timed from the moment the first worker is ready (its start, the corpus load, is reported apart).

    python3 -m training.bench_workers --seconds 60                 # one worker, the lease's recipe
    python3 -m training.bench_workers --seconds 60 --trace-reuse 1  # without the lease's reuse of traces

Prints one JSON line: ``ready_s`` (start to the first worker ready), programs, trajectories,
documents and tokens taken (duplicates skipped, as the live source skips them), ``tokens_per_s``
(documents and their end-of-text, train and val, per worker), ``task_tokens_per_s`` (the same less
the source context, which the lease weighs 0.1) and ``programs_per_s``; and the same per CPU-second
of the workers (``tokens_per_cpu_s`` ...): what a worker with a core of its own makes, as a lease's
have, and the number to compare on a machine whose cores other work shares. Compare two trees by
alternating their runs (training/README.md, "The GPU lease").
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Optional

from .data.recipe import ROOT, Recipe
from .data.workers import Dedup, ProgramStream

DEFAULT_CONFIG = ROOT / "training" / "configs" / "gpu-lease-20m.json"
TOKENIZER = ROOT / "public" / "models" / "ndb-cpu-6m"


def worker_python() -> str:
    """This Python when it traces in-process (>= 3.12), else pyenv's newest 3.12 (as lease.sh finds it)."""
    if sys.version_info >= (3, 12):
        return sys.executable
    env = os.environ.get("NDB_WORKER_PYTHON")
    if env:
        return env
    root = os.environ.get("PYENV_ROOT") or str(Path.home() / ".pyenv")
    # by version, as lease.sh's `sort -V` (3.12.10 after 3.12.9)
    found = sorted(glob.glob(f"{root}/versions/3.12*/bin/python"), key=lambda p: [int(n) for n in re.findall(r"\d+", p.split("/versions/")[1])])
    if not found:
        raise SystemExit("no Python >= 3.12 for the workers: set NDB_WORKER_PYTHON")
    return found[-1]


def lease_recipe(config: Path) -> Recipe:
    """The recipe a lease run of ``config`` draws (lease/run.py: data.recipes[0] on data.seed, with
    data's recipe overrides when the config has them)."""
    dcfg = json.loads(config.read_text()).get("data", {})
    recipe = Recipe.load(ROOT / dcfg["recipes"][0])
    if dcfg.get("seed") is not None:
        recipe = dataclasses.replace(recipe, seed=int(dcfg["seed"]))
    over = dcfg.get("recipe", {})
    return Recipe.from_dict({**recipe.to_dict(), **over}) if over else recipe


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux's /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench(recipe: Recipe, seconds: float, workers: int, python: str, task_size: int = 16) -> dict:
    ready_at: list[float] = []

    def log(line: str) -> None:
        if "ready after" in line and not ready_at:
            ready_at.append(time.time())
        print(line, file=sys.stderr, flush=True)

    started = time.time()
    dedup = Dedup()
    count = {"programs": 0, "duplicates": 0, "trajectories": 0, "documents": 0, "tokens": 0, "context_tokens": 0}
    with ProgramStream(recipe, TOKENIZER, recipe.seed, workers, task_size, python=python, log=log) as stream:
        stream.submit()
        first = stream.next_task(block=True, timeout=600)  # waits for the start; the first task is not counted
        if first is None:
            raise SystemExit("no worker was ready within 600 s")
        t0 = time.time()
        pids = [w.proc.pid for w in stream._pool]
        cpu0 = sum(cpu_seconds(pid) for pid in pids)
        while time.time() - t0 < seconds:
            results = stream.next_task(block=True, timeout=max(0.1, seconds - (time.time() - t0)))
            if results is None:
                continue
            for r in results:
                if not dedup.first_time(r):
                    count["duplicates"] += 1
                    continue
                count["programs"] += 1
                count["trajectories"] += len(r.trajs)
                count["documents"] += len(r.docs)
                count["tokens"] += sum(len(d) + 1 for d in r.docs)
                count["context_tokens"] += sum(t.context_tokens * t.documents for t in r.trajs)
        elapsed = time.time() - t0
        cpu = sum(cpu_seconds(w.proc.pid) for w in stream._pool) - cpu0 if [w.proc.pid for w in stream._pool] == pids else None
    out = {"seconds": round(elapsed, 1), "workers": workers, "python": python, "seed": recipe.seed,
           "per_program": recipe.per_program, "trace_reuse": getattr(recipe, "trace_reuse", 1),
           "ready_s": round((ready_at[0] if ready_at else t0) - started, 1), **count}
    out["tokens_per_s"] = round(count["tokens"] / elapsed / workers)
    out["task_tokens_per_s"] = round((count["tokens"] - count["context_tokens"]) / elapsed / workers)
    out["programs_per_s"] = round(count["programs"] / elapsed / workers, 1)
    if cpu:  # per CPU-second of the workers: what a worker on a core of its own makes (a lease's)
        out["worker_cpu_s"] = round(cpu, 1)
        out["tokens_per_cpu_s"] = round(count["tokens"] / cpu)
        out["task_tokens_per_cpu_s"] = round((count["tokens"] - count["context_tokens"]) / cpu)
        out["programs_per_cpu_s"] = round(count["programs"] / cpu, 1)
    return out


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.bench_workers", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to count after the first worker is ready (default 60)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--config", type=Path, default=DEFAULT_CONFIG, help="the lease config whose recipe is drawn (default gpu-lease-20m)")
    ap.add_argument("--recipe", type=Path, default=None, help="a recipe instead of the config's")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--trace-reuse", type=int, default=None, help="override the recipe's trace_reuse")
    ap.add_argument("--worker-python", default=None, help="default: this Python if >= 3.12, else pyenv's 3.12")
    args = ap.parse_args(argv)
    recipe = Recipe.load(args.recipe) if args.recipe is not None else lease_recipe(args.config)
    if args.seed is not None:
        recipe = dataclasses.replace(recipe, seed=args.seed)
    if args.trace_reuse is not None:
        recipe = dataclasses.replace(recipe, trace_reuse=args.trace_reuse)
    print(json.dumps(bench(recipe, args.seconds, args.workers, args.worker_python or worker_python())), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
