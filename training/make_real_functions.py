"""Real functions posed as CruxEval items, for `ndb eval cruxeval`: functions of the corpus's held-out
files (training/data/corpus.py; never trained on), each called once with inputs as its doctests,
tests or types give them (varied as in training), the output recorded by the real engine.

    python3 -m training.make_real_functions --n 200 --out runs/eval/real_functions.jsonl

Each line has CruxEval's fields: ``code`` (the program, ending with ``f = NAME`` so that the item's
call is ``f(input)``), ``input`` (the arguments), ``output`` (the result's repr) and ``id``. An item is
kept when the call is one call of a function with literal arguments, the run ends normally within the
event budget, and the result is a literal (so that a predicted value can be compared as a value).
"""

from __future__ import annotations

import argparse
import ast
import json
import random
from pathlib import Path

from training.trace_backend import TraceBackend
from training.data import corpus

MAX_EVENTS = 2000


def as_item(source: str, call: str) -> tuple[str, str] | None:
    """(code, input) for ``name(args)`` with literal arguments, else None."""
    try:
        node = ast.parse(call, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.keywords:
        return None
    if not all(corpus._is_literal(a) for a in node.args):
        return None
    code = source.rstrip("\n") + f"\n\n\nf = {node.func.id}\n"
    return code, ", ".join(ast.unparse(a) for a in node.args)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    backend = TraceBackend(max_events=MAX_EVENTS)
    items: list[dict[str, str]] = []
    seen: set[str] = set()
    try:
        i = 0
        while len(items) < args.n and i < args.n * 50:
            p = corpus.make_program(random.Random(f"realfn:{args.seed}:{i}"), held_out=True)
            i += 1
            made = as_item(p.source, p.call) if p is not None and p.call else None
            if made is None or (made[0] + made[1]) in seen:
                continue
            code, inputs = made
            rec, _ = backend.record(code, f"f({inputs})")
            if rec is None or rec["exit"]["status"] != "normal" or "value" not in rec["exit"]:
                continue
            try:
                ast.literal_eval(rec["exit"]["value"])
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            seen.add(code + inputs)
            items.append({"code": code, "input": inputs, "output": rec["exit"]["value"], "id": f"real_{len(items)}"})
    finally:
        backend.close()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(item) + "\n" for item in items))
    print(f"{len(items)} real functions written to {args.out} ({i} drawn)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
