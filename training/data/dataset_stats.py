"""What a dataset holds, counted as it is built (``stats.json``) or as a live source draws: programs
per source and how they ended, trajectories, actions, tokens.

Every program drawn is in exactly one exit category; duplicates (the same normalized source and
call as a program already taken) are counted per source and skipped.
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np

from .program_docs import ProgramResult

# how a program ended, as the stats count it (every program is in exactly one)
EXIT_CATEGORIES = ("normal", "raised", "over_budget", "never_ended", "could_not_run", "hard_stop", "trace_failed")


def _dist(hist: collections.Counter) -> dict[str, float]:
    """Summary of a histogram {value: count}."""
    n = sum(hist.values())
    if not n:
        return {"n": 0}
    keys = sorted(hist)
    cum = np.cumsum([hist[k] for k in keys])

    def pct(q: float) -> int:
        return int(keys[int(np.searchsorted(cum, q * n))])

    mean = sum(k * c for k, c in hist.items()) / n
    return {"n": int(n), "mean": round(mean, 2), "p50": pct(0.5), "p90": pct(0.9), "max": int(keys[-1]), "min": int(keys[0])}


class Stats:
    def __init__(self) -> None:
        self.programs = collections.Counter()  # per origin, unique ones
        self.status = collections.defaultdict(collections.Counter)  # origin -> status -> n
        self.corpus_status = collections.defaultdict(collections.Counter)  # corpus collection -> status -> n
        self.families = collections.Counter()
        self.duplicates = collections.Counter()  # per origin
        self.no_events = 0
        self.traj_actions: collections.Counter = collections.Counter()
        self.traj_tokens: collections.Counter = collections.Counter()
        self.context_tokens: collections.Counter = collections.Counter()
        self.state_tokens: collections.Counter = collections.Counter()
        self.actions = collections.Counter()
        self.directions = collections.Counter()
        self.policies = collections.Counter()
        self.truncated = 0
        self.trajectories = 0
        self.windowed = 0
        self.documents = 0
        self.split_programs = collections.Counter()
        self.split_tokens = collections.Counter()

    def add_duplicate(self, r: ProgramResult) -> None:
        self.duplicates[r.origin] += 1

    @property
    def unique(self) -> int:
        return sum(self.programs.values())

    def add(self, r: ProgramResult, split: str) -> None:
        self.programs[r.origin] += 1
        self.status[r.origin][r.status] += 1
        if r.origin == "corpus":  # a corpus program's family is "collection:origin"
            self.corpus_status[r.family.split(":")[0]][r.status] += 1
        self.families[f"{r.origin}:{r.family}"] += 1
        self.split_programs[split] += 1
        if r.status not in ("hard_stop", "trace_failed") and not r.events:
            self.no_events += 1
        for doc in r.docs:
            self.split_tokens[split] += len(doc) + 1
        for t in r.trajs:
            self.trajectories += 1
            self.windowed += int(t.documents > 1)
            self.documents += t.documents
            self.traj_actions[len(t.actions)] += 1
            self.traj_tokens[t.tokens] += 1
            self.context_tokens[t.context_tokens] += 1
            self.state_tokens.update(t.state_tokens)
            self.actions.update(t.actions)
            self.directions[t.direction] += 1
            self.policies[t.policy] += 1
            self.truncated += int(t.truncated)

    def report(self, extra: dict[str, Any]) -> dict[str, Any]:
        total_actions = sum(self.actions.values()) or 1
        return {
            **extra,
            "programs": {"unique": self.unique, "per_source": dict(self.programs),
                         "duplicates_skipped": sum(self.duplicates.values()),
                         # drawn = unique + duplicates: what a recipe's shares are shares of
                         "drawn_per_source": {o: self.programs[o] + self.duplicates[o] for o in self.programs | self.duplicates},
                         "no_events": self.no_events,
                         "by_split": dict(self.split_programs)},
            "exits": {origin: {name: c.get(name, 0) for name in EXIT_CATEGORIES} for origin, c in self.status.items()},
            "corpus_exits": {coll: {name: c.get(name, 0) for name in EXIT_CATEGORIES} for coll, c in sorted(self.corpus_status.items())},
            "families": dict(sorted(self.families.items())),
            "trajectories": {"n": self.trajectories, "direction": dict(self.directions), "policy": dict(self.policies),
                             "truncated": self.truncated,
                             "share_truncated": round(self.truncated / max(1, self.trajectories), 4),
                             "windowed": self.windowed, "documents": self.documents},
            "trajectory_actions": _dist(self.traj_actions),
            "trajectory_tokens": _dist(self.traj_tokens),
            "context_tokens": _dist(self.context_tokens),
            "tokens_per_state": _dist(self.state_tokens),
            "action_mix": {k: {"n": v, "share": round(v / total_actions, 4)} for k, v in self.actions.most_common()},
            "tokens": dict(self.split_tokens),
        }
