"""Held-out trajectories for `ndb eval trajectories`: programs from the generator's held-out split
(never trained on), traced, with actions drawn by the training policy.

    python3 -m training.make_eval_set --n 300 --out eval/trajectories.jsonl [--seed S] [--what-if]
    python3 -m training.make_eval_set --source corpus --n 200 --out eval/corpus.jsonl
    python3 -m training.make_eval_set --source gallery --out eval/gallery.jsonl [--per-program K]

``--source corpus`` takes programs of the corpus's held-out files (training/data/corpus.py: never
trained on; a run is kept when the builder would keep it: a normal end, or an exception the code
raises on purpose). ``--source gallery`` takes the app's example programs instead (``examples/*.py`` with the entry call
of their ``# call:`` line, the source as the app shows it: without the header lines), ``K``
trajectories each (default 10), drawn by the same policy. The gallery is evaluation only: nothing
in training reads ``examples/``. ``--folder DIR`` takes another folder of such programs instead:
``fixtures/eval/teaching`` holds twelve hand-written teaching programs (classes, closures,
generators, exceptions, recursion), evaluation only as well.

With ``--what-if`` every trajectory is a what-if one (training/data/what_if.py): forward actions
to a stop, a ``set:NAME=EXPR`` item that edits a local there, then actions over the edited run.

Each line: {"id", "source", "call", "start", "actions", "breakpoints", "max_events", "direction"}.
The evaluator records the program again with the same tracer, so positions agree.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from training.data.program_docs import corpus_run_kept
from training.data.programs import is_held_out
from training.data.recipe import Recipe
from training.data.sources import draw_program
from training.trace_backend import TraceBackend
from training.data.trajectories import TrajectorySpec, sample_trajectory
from training.data.what_if import draw_what_if

MAX_EVENTS = 2000
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@dataclass
class GalleryProgram:
    program_id: str
    source: str
    call: str


def parse_example(program_id: str, text: str) -> GalleryProgram:
    """The app's reading of an example file (src/ui/examples.ts, parseExample): leading
    ``# title:`` / ``# call:`` lines are the header, the rest is the source the user sees."""
    lines = text.split("\n")
    call, body = "", 0
    while body < len(lines):
        m = re.match(r"^#\s*(title|call):\s?(.*)$", lines[body])
        if not m:
            break
        if m.group(1) == "call":
            call = m.group(2).strip()
        body += 1
    return GalleryProgram(program_id, "\n".join(lines[body:]), call)


def gallery_programs(folder: Path = EXAMPLES) -> list[GalleryProgram]:
    out = []
    for path in sorted(folder.glob("*.py")):
        with open(path, encoding="utf-8", newline="") as f:  # as the app bundles it: no newline translation
            out.append(parse_example(f"gallery:{path.stem}", f.read()))
    return out


def held_out_programs(seed: int, n: int, stdlib_share: float, mix: Optional[Recipe] = None) -> list:
    out, seen, i = [], set(), 0
    mix = mix if mix is not None else Recipe(stdlib_share=stdlib_share)
    while len(out) < n and i < n * 400:
        p = draw_program(random.Random(f"eval:{seed}:{i}"), mix)
        i += 1
        if p is not None and is_held_out(p.program_id) and p.program_id not in seen:
            seen.add(p.program_id)
            out.append(p)
    return out


def families_programs(seed: int, n: int) -> list:
    """``n`` distinct held-out programs of the Python-construct families (classes, closures,
    generators, exceptions across frames…: training/data/python_families.py)."""
    return held_out_programs(seed, n, 0.0, Recipe(python_share=1.0, stdlib_share=0.0))


def debian_programs(seed: int, n: int) -> list:
    """``n`` programs of the held-out units of Debian's programs (CPython's tests, the docs'
    examples: training/data/debian.py), drawn without repeats."""
    from training.data import debian

    held = list(debian.load().select(held=True))
    random.Random(f"evaldebian:{seed}").shuffle(held)
    return held[:n]


def corpus_programs(seed: int, n: int) -> list:
    """``n`` distinct programs of the corpus's held-out files (inputs varied as in training)."""
    from training.data import corpus

    out, seen, i = [], set(), 0
    while len(out) < n and i < n * 50:
        p = corpus.make_program(random.Random(f"evalcorpus:{seed}:{i}"), held_out=True)
        i += 1
        if p is not None and p.program_id not in seen:
            seen.add(p.program_id)
            out.append(p)
    return out


def what_if_actions(p: Any, rec: dict[str, Any], rng: random.Random, backend: TraceBackend) -> Optional[tuple[TrajectorySpec, list[str]]]:
    """A what-if trajectory of ``rec`` and its action list with the edit as a ``set:`` item."""
    for _ in range(5):
        spec = sample_trajectory(rec, rng, inverse_share=0.0)
        drawn = draw_what_if(rec, spec, rng, lambda edits: backend.record(p.source, p.call, edits)[0])
        if drawn is None:
            continue
        edit, what_if, _ = drawn
        j = what_if.positions.index(edit["at"])
        actions = [str(a) for a in what_if.actions]
        return what_if, [*actions[: j + 1], f"set:{edit['name']}={edit['expr']}", *actions[j + 1 :]]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--stdlib-share", type=float, default=0.1)
    parser.add_argument("--what-if", action="store_true", help="what-if trajectories (an edit at a stop)")
    parser.add_argument("--source", choices=["generator", "corpus", "gallery", "families", "debian"], default="generator",
                        help="generator: its held-out split (--n programs); corpus: held-out files of real code "
                             "(--n programs); gallery: examples/*.py; families: the Python-construct families' "
                             "held-out split; debian: the held-out units of Debian's programs (--n programs)")
    parser.add_argument("--per-program", type=int, default=10, help="trajectories per gallery program")
    parser.add_argument("--folder", type=Path, default=None,
                        help="with --source gallery: another folder of programs with # call: headers "
                             "(e.g. fixtures/eval/teaching, hand-written teaching programs)")
    args = parser.parse_args(argv)
    if args.source == "gallery":
        # several trajectories of each program, each with its own draw (k below is the item index)
        programs: list[Any] = [
            GalleryProgram(f"{p.program_id}:{j}", p.source, p.call)
            for p in gallery_programs(args.folder or EXAMPLES)
            for j in range(args.per_program)
        ]
    elif args.source == "corpus":
        programs = corpus_programs(args.seed, args.n)
    elif args.source == "families":
        programs = families_programs(args.seed, args.n)
    elif args.source == "debian":
        programs = debian_programs(args.seed, args.n)
    else:
        programs = held_out_programs(args.seed, args.n, args.stdlib_share)
    backend = TraceBackend(max_events=MAX_EVENTS)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    recorded: dict[tuple[str, str], Any] = {}
    try:
        with open(args.out, "w") as out:
            for k, p in enumerate(programs):
                if (p.source, p.call) not in recorded:
                    recorded[(p.source, p.call)] = backend.record(p.source, p.call)[0]
                rec = recorded[(p.source, p.call)]
                if rec is None or not rec["events"] or (args.source == "corpus" and not corpus_run_kept(rec)):
                    continue
                rng = random.Random(f"evaltraj:{args.seed}:{k}")
                spec = sample_trajectory(rec, rng)
                actions = [str(a) for a in spec.actions]
                if args.what_if:
                    drawn = what_if_actions(p, rec, rng, backend)
                    if drawn is None:
                        continue
                    spec, actions = drawn
                if not spec.actions:
                    continue
                item = {
                    "id": p.program_id,
                    "source": p.source,
                    "call": p.call,
                    "start": spec.start,
                    "actions": actions,
                    "breakpoints": spec.breakpoints,
                    "max_events": MAX_EVENTS,
                    "direction": spec.direction,
                }
                out.write(json.dumps(item) + "\n")
                written += 1
    finally:
        backend.close()
    kind = {"generator": "held-out", "corpus": "held-out corpus", "gallery": "gallery", "families": "held-out families",
            "debian": "held-out Debian"}[args.source]
    print(f"{written} {kind} trajectories written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
