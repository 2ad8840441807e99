"""Checks of the faster live workers (issue 45) that need in-process tracing (Python >= 3.12), run by
test_live_workers.py as ``PY312 -m training.tests.live_worker_checks WHAT``; prints one JSON object.

- ``trusted``: programs of each trusted origin recorded with and without the sandbox's enter and
  exit: the recordings must be equal;
- ``documents``: ``run_program`` against the pipeline as it was before (every trajectory tokenized
  on its own, then cut again at the window; every program sandboxed), program by program;
- ``reuse``: ``run_program`` with ``trace_reuse`` 3 against 1: the first group's documents are the
  documents of 1, and the kinds of trajectories keep their shares.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import random
import sys
from array import array
from pathlib import Path
from typing import Any, Optional

from training.data import builtins_mix, generator, python_families
from training.data.documents import tokenize_trajectory, window_documents
from training.data.program_docs import ProgramResult, TrajStat, corpus_run_kept, run_program
from training.data.programs import is_held_out
from training.data.recipe import Recipe
from training.data.sources import draw_program
from training.data.trajectories import sample_trajectory
from training.data.what_if import draw_what_if
from training.tokenizer import NdbTokenizer
from training.trace_backend import STATUS_NAMES, TRUSTED_ORIGINS, TraceBackend

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER = ROOT / "public" / "models" / "ndb-cpu-6m"
# the sources a test machine always has (no corpus, no Debian packages), windows short enough to cut
RECIPE = Recipe(python_share=0.3, stdlib_share=0.1, methods_share=0.3, what_if_share=0.5, jump_share=0.5, window=256,
                max_tokens=2048, seed=45)
TIMED = {"timeout"}  # a run stopped by the clock ends wherever the clock stopped it


def trusted(n: int) -> dict[str, Any]:
    makers = {"generated": generator.generate_program, "python": python_families.generate_python_program,
              "methods": builtins_mix.make_program}
    assert set(makers) == TRUSTED_ORIGINS
    backend = TraceBackend(max_events=2000, time_limit=5.0)
    out: dict[str, Any] = {}
    for origin, make in makers.items():
        same = differ = timed = 0
        for i in range(n):
            p = make(random.Random(f"trusted:{origin}:{i}"))
            assert p.origin == origin
            guarded, _ = backend.record(p.source, p.call)
            fast, _ = backend.record(p.source, p.call, trusted=True)
            if guarded is None or fast is None or guarded["exit"]["status"] in TIMED or fast["exit"]["status"] in TIMED:
                timed += 1
                continue
            if guarded == fast:
                same += 1
            else:
                differ += 1
        out[origin] = {"same": same, "differ": differ, "timed": timed}
    # after trusted runs, a sandboxed one still refuses what it refuses
    rec, _ = backend.record("try:\n    import ctypes\n    r = 'imported'\nexcept PermissionError:\n    r = 'refused'\n", "")
    out["sandbox_after"] = rec["events"][-1]["locals"].get("r") if rec and rec["events"] else None
    return out


def old_run_program(seed: int | str, i: int, recipe: Recipe, tok: NdbTokenizer, backend: TraceBackend) -> Optional[ProgramResult]:
    """``program_docs.run_program`` as it was before issue 45's faster workers (commit dfa8428)."""
    p = draw_program(random.Random(f"{seed}:{i}"), recipe)
    if p is None:
        return None
    split_key = getattr(p, "split_id", "") or p.program_id
    res = ProgramResult(i, p.program_id, p.origin, p.family, is_held_out(split_key), "trace_failed")
    rec, err = backend.record(p.source, p.call)
    if rec is None:
        res.status = "hard_stop" if err == "hard_stop" else "trace_failed"
        return res
    res.status = STATUS_NAMES.get(rec["exit"]["status"], "could_not_run")
    res.events = len(rec["events"])
    if not rec["events"]:
        return res
    if p.origin == "corpus" and not corpus_run_kept(rec):
        return res
    trng = random.Random(f"traj:{seed}:{i}")
    specs = [(sample_trajectory(rec, trng, jump_share=recipe.jump_share), rec) for _ in range(recipe.per_program)]
    wrng = random.Random(f"whatif:{seed}:{i}")
    forward = [spec for spec, _ in specs if spec.direction == "forward"]
    if forward and wrng.random() < recipe.what_if_share:
        drawn = draw_what_if(rec, forward[0], wrng, lambda edits: backend.record(p.source, p.call, edits)[0])
        if drawn is not None:
            specs.append((drawn[1], drawn[2]))
    for spec, recording in specs:
        traj = spec.render(recording)
        ids, ctx_len, states, kept, truncated = tokenize_trajectory(tok, traj, recipe.max_tokens)
        window = recipe.window
        docs = window_documents(tok, traj, recording, kept, window) if window and len(ids) > window else [ids]
        res.docs.extend(array("I", d) for d in docs)
        res.trajs.append(TrajStat(spec.direction, spec.policy, [a.kind for a in spec.actions[:kept]], len(ids),
                                  ctx_len, states, truncated, len(docs)))
    return res


def as_plain(r: Optional[ProgramResult]) -> Any:
    if r is None:
        return None
    return {**dataclasses.asdict(r), "docs": [list(d) for d in r.docs]}


def documents(n: int) -> dict[str, Any]:
    tok = NdbTokenizer.load(TOKENIZER)
    backend = TraceBackend(**RECIPE.tracer_limits())
    same = differ = timed = 0
    docs = windowed = 0
    origins: collections.Counter = collections.Counter()
    for i in range(n):
        old, new = as_plain(old_run_program(RECIPE.seed, i, RECIPE, tok, backend)), as_plain(run_program(RECIPE.seed, i, RECIPE, tok, backend))
        if old is not None and (old["status"] == "never_ended" or new["status"] == "never_ended"):
            timed += 1
            continue
        if old == new:
            same += 1
        else:
            differ += 1
        if new is not None:
            origins[new["origin"]] += 1
            docs += len(new["docs"])
            windowed += sum(t["documents"] > 1 for t in new["trajs"])
    return {"same": same, "differ": differ, "timed": timed, "documents": docs, "windowed": windowed, "origins": dict(origins)}


def kinds(results: list[ProgramResult]) -> dict[str, float]:
    trajs = [t for r in results for t in r.trajs]
    drawn = [t for t in trajs if t.direction != "what_if"]
    return {
        "trajectories": len(trajs),
        "inverse": sum(t.direction == "inverse" for t in drawn) / len(drawn),
        "jumps": sum(t.policy == "jumps" for t in drawn) / len(drawn),
        "steps": sum(t.policy == "steps" for t in drawn) / len(drawn),
        "what_if_per_drawn": (len(trajs) - len(drawn)) / len(drawn),
        "tokens_per_trajectory": sum(t.tokens for t in trajs) / len(trajs),
    }


def reuse(n: int, k: int = 3) -> dict[str, Any]:
    tok = NdbTokenizer.load(TOKENIZER)
    backend = TraceBackend(**RECIPE.tracer_limits())
    more = dataclasses.replace(RECIPE, trace_reuse=k)
    ones, many = [], []
    prefix = not_prefix = 0
    for i in range(n):
        a, b = run_program(RECIPE.seed, i, RECIPE, tok, backend), run_program(more.seed, i, more, tok, backend)
        if a is None or b is None or a.status == "never_ended" or b.status == "never_ended":
            continue
        ones.append(a)
        many.append(b)
        if [list(d) for d in b.docs[: len(a.docs)]] == [list(d) for d in a.docs] and b.trajs[: len(a.trajs)] == a.trajs:
            prefix += 1
        else:
            not_prefix += 1
    return {"prefix": prefix, "not_prefix": not_prefix, "one": kinds(ones), "many": kinds(many), "k": k}


def main(argv: list[str]) -> int:
    what, n = argv[0], int(argv[1])
    print(json.dumps({"trusted": trusted, "documents": documents, "reuse": reuse}[what](n)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
