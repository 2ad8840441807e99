"""Held-out trajectories for `ndb eval trajectories`: programs from the generator's held-out split
(never trained on), traced, with actions drawn by the training policy.

    python3 -m training.make_eval_set --n 300 --out eval/trajectories.jsonl [--seed S]

Each line: {"id", "source", "call", "start", "actions", "breakpoints", "max_events", "direction"}.
The evaluator records the program again with the same tracer, so positions agree.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from training.build_dataset import TraceBackend, make_program
from training.data.generator import is_held_out
from training.data.trajectories import sample_trajectory

MAX_EVENTS = 2000


def held_out_programs(seed: int, n: int, stdlib_share: float) -> list:
    out, seen, i = [], set(), 0
    while len(out) < n and i < n * 400:
        p = make_program(random.Random(f"eval:{seed}:{i}"), stdlib_share)
        i += 1
        if p is not None and is_held_out(p.program_id) and p.program_id not in seen:
            seen.add(p.program_id)
            out.append(p)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stdlib-share", type=float, default=0.1)
    args = parser.parse_args(argv)
    programs = held_out_programs(args.seed, args.n, args.stdlib_share)
    backend = TraceBackend(max_events=MAX_EVENTS)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    try:
        with open(args.out, "w") as out:
            for k, p in enumerate(programs):
                rec, err = backend.record(p.source, p.call)
                if rec is None or not rec["events"]:
                    continue
                spec = sample_trajectory(rec, random.Random(f"evaltraj:{args.seed}:{k}"))
                if not spec.actions:
                    continue
                item = {
                    "id": p.program_id,
                    "source": p.source,
                    "call": p.call,
                    "start": spec.start,
                    "actions": [str(a) for a in spec.actions],
                    "breakpoints": spec.breakpoints,
                    "max_events": MAX_EVENTS,
                    "direction": spec.direction,
                }
                out.write(json.dumps(item) + "\n")
                written += 1
    finally:
        backend.close()
    print(f"{written} held-out trajectories written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
