"""One program through the pipeline: drawn with a recipe, recorded, trajectories drawn from its run,
rendered and tokenized into documents (``ProgramResult``).

Program ``i`` of a stream is drawn from ``random.Random(f"{seed}:{i}")``, its trajectories from
``f"traj:{seed}:{i}"`` and its what-if edit from ``f"whatif:{seed}:{i}"``: a program's documents
depend on the seed and its index alone, whichever worker makes them. A recipe with ``trace_reuse``
k > 1 draws k such groups from the one recording, group g > 0 from ``traj:{seed}:{i}:{g}`` and
``whatif:{seed}:{i}:{g}``: the first group's documents are those of k = 1, and every group is drawn
as one program's are, so the kinds of trajectories keep the recipe's shares.
"""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from ..tokenizer import NdbTokenizer
from ..trace_backend import STATUS_NAMES, TRUSTED_ORIGINS, TraceBackend
from .documents import remembering, trajectory_documents
from .programs import is_held_out
from .recipe import Recipe
from .sources import draw_program
from .trajectories import sample_trajectory
from .what_if import draw_what_if


@dataclass
class TrajStat:
    direction: str
    policy: str
    actions: list[str]
    tokens: int
    context_tokens: int
    state_tokens: list[int]
    truncated: bool
    documents: int = 1  # more than one when the window cut it


@dataclass
class ProgramResult:
    index: int
    program_id: str
    origin: str
    family: str
    held_out: bool
    status: str  # a STATUS_NAMES value, "hard_stop" or "trace_failed"
    events: int = 0
    # token ids as array("I") rather than numpy: the workers that make them need no numpy (the
    # rehearsal runs them under a Python 3.12 without it); consumers take np.asarray(doc) and len(doc)
    docs: list[array] = field(default_factory=list)
    trajs: list[TrajStat] = field(default_factory=list)


# Exceptions that say a varied input had the wrong type or shape rather than that the code
# refused it on purpose (a ValueError of a check is what its authors wrote; a TypeError rarely is).
CORPUS_NOISE_EXCEPTIONS = frozenset({"TypeError", "AttributeError", "NameError", "RecursionError", "UnboundLocalError",
                                     "ZeroDivisionError", "OverflowError", "MemoryError", "ImportError", "ModuleNotFoundError"})


def corpus_run_kept(rec: dict[str, Any]) -> bool:
    """A corpus run is trained on when it ended normally within the budget, or raised an exception
    its code raises on purpose."""
    end = rec["exit"]
    if end["status"] == "normal":
        return True
    return end["status"] == "exception" and end.get("exc_type") not in CORPUS_NOISE_EXCEPTIONS


def draw_specs(rec: dict[str, Any], recipe: Recipe, key: str, rerun: Callable[[list[dict[str, Any]]], Optional[dict]]) -> list[tuple[Any, dict]]:
    """The trajectories one program draws from its recording: ``recipe.per_program`` from the
    random stream ``traj:KEY``, and with chance ``what_if_share`` a what-if (``rerun`` records the
    edited run) from ``whatif:KEY``, as (spec, the recording it is rendered from)."""
    trng = random.Random(f"traj:{key}")
    specs = [(sample_trajectory(rec, trng, jump_share=recipe.jump_share), rec) for _ in range(recipe.per_program)]
    # its own random stream, so that the other trajectories do not depend on the share
    wrng = random.Random(f"whatif:{key}")
    forward = [spec for spec, _ in specs if spec.direction == "forward"]
    if forward and wrng.random() < recipe.what_if_share:
        drawn = draw_what_if(rec, forward[0], wrng, rerun)
        if drawn is not None:
            specs.append((drawn[1], drawn[2]))
    return specs


def run_program(seed: int | str, i: int, recipe: Recipe, tok: NdbTokenizer, backend: TraceBackend) -> Optional[ProgramResult]:
    """Program ``i`` of the stream of ``seed``, with its documents (None when no source gave one).
    Every program drawn gives a result, counted by how it ended, even when it gives no document."""
    p = draw_program(random.Random(f"{seed}:{i}"), recipe)
    if p is None:
        return None
    split_key = getattr(p, "split_id", "") or p.program_id  # corpus programs are held out by file
    res = ProgramResult(i, p.program_id, p.origin, p.family, is_held_out(split_key), "trace_failed")
    trusted = p.origin in TRUSTED_ORIGINS  # ours: traced without the sandbox's enter and exit (trace_backend.py)
    rec, err = backend.record(p.source, p.call, trusted=trusted)
    if rec is None:
        res.status = "hard_stop" if err == "hard_stop" else "trace_failed"
        return res
    res.status = STATUS_NAMES.get(rec["exit"]["status"], "could_not_run")
    res.events = len(rec["events"])
    if not rec["events"]:
        return res  # nothing ran: no states to learn from (counted by its exit)
    if p.origin == "corpus" and not corpus_run_kept(rec):
        return res  # real code is kept only when it ran as its authors meant
    specs: list[tuple[Any, dict]] = []
    for g in range(recipe.trace_reuse):  # group 0 is what a recipe without trace_reuse draws
        specs.extend(draw_specs(rec, recipe, f"{seed}:{i}" + (f":{g}" if g else ""),
                                lambda edits: backend.record(p.source, p.call, edits, trusted=trusted)[0]))
    encode = remembering(tok)  # a context, a first state, a step shared by trajectories: tokenized once
    for spec, recording in specs:
        traj = spec.render(recording)
        docs, n_ids, ctx_len, states, kept, truncated = trajectory_documents(encode, traj, recording, recipe.max_tokens,
                                                                             recipe.window)
        res.docs.extend(array("I", d) for d in docs)
        res.trajs.append(TrajStat(spec.direction, spec.policy, [a.kind for a in spec.actions[:kept]], n_ids,
                                  ctx_len, states, truncated, len(docs)))
    return res
