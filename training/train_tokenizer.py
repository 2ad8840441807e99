"""Trains the model's tokenizer (``training/tokenizer.py``) on trajectories of traced programs, or
prints the ids of a text:

    python3 -m training.train_tokenizer train --out DIR [--vocab-size 2048] [--samples 20000] [--programs 2000]
    python3 -m training.train_tokenizer encode --tokenizer DIR < text
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Iterable, Optional

from .data.recipe import Recipe
from .data.trajectories import trajectory_texts
from .tokenizer import DEFAULT_MAX_LENGTH, DEFAULT_VOCAB_SIZE, NdbTokenizer, count_chunks, train_bpe


def read_recordings(paths: Iterable[Path]) -> list[dict]:
    recs: list[dict] = []
    for path in paths:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if line.strip():
                obj = json.loads(line)
                if "recording" in obj:
                    recs.append(obj["recording"])
    return recs


FIXTURE_RECORDINGS = Path(__file__).resolve().parents[1] / "fixtures" / "data" / "generated_recordings.jsonl"

# Tokenizers are trained on programs of a stream of their own, apart from any dataset's.
TOKENIZER_SEED_OFFSET = 1_000_003


def train_for_recipe(recipe: Recipe, out: Path, programs: int = 2000, samples: int = 20000) -> NdbTokenizer:
    """The tokenizer a dataset builds when its recipe names none: trained on trajectories of
    ``programs`` programs drawn with the recipe's shares, corpus left out (``Recipe.without_corpus``:
    the tokenizers of the recipes before the corpus existed stay the same), from the seed's own
    stream for tokenizers."""
    from .data.sources import draw_programs
    from .trace_backend import trace_programs

    progs = draw_programs(recipe.seed + TOKENIZER_SEED_OFFSET, programs, recipe.without_corpus())
    recs = [r for r, _ in trace_programs(progs, **recipe.tracer_limits()) if r is not None and r["events"]]
    texts = list(trajectory_texts(recs, samples, recipe.seed))
    tok = train_bpe(count_chunks(texts), recipe.vocab_size)
    tok.save(out)
    return tok


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.train_tokenizer")
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train", help="train the BPE tokenizer on generated trajectories")
    t.add_argument("--out", required=True, type=Path)
    t.add_argument("--vocab-size", type=int, default=DEFAULT_VOCAB_SIZE)
    t.add_argument("--samples", type=int, default=20000, help="trajectories to render for training")
    t.add_argument("--recordings", type=Path, action="append", default=None,
                   help="JSONL of {id, recording} (default: fixtures/data/generated_recordings.jsonl)")
    t.add_argument("--programs", type=int, default=2000,
                   help="also generate and trace this many programs (generator and stdlib sources; 0: none)")
    t.add_argument("--stdlib-share", type=float, default=0.25, help="share of --programs from the standard library")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--max-length", type=int, default=DEFAULT_MAX_LENGTH)
    e = sub.add_parser("encode", help="print the ids of stdin's text")
    e.add_argument("--tokenizer", required=True, type=Path)
    args = ap.parse_args(argv)
    if args.cmd == "encode":
        tok = NdbTokenizer.load(args.tokenizer)
        print(json.dumps(tok.encode(sys.stdin.read())))
        return 0
    recs = read_recordings(args.recordings or [FIXTURE_RECORDINGS])
    if args.programs:
        from .data.sources import draw_programs
        from .trace_backend import trace_programs

        progs = draw_programs(args.seed + TOKENIZER_SEED_OFFSET, args.programs, Recipe(stdlib_share=args.stdlib_share))
        recs += [r for r, _ in trace_programs(progs) if r is not None]
    if not recs:
        print("no recordings", file=sys.stderr)
        return 1
    started = time.time()
    texts = list(trajectory_texts(recs, args.samples, args.seed))
    counts = count_chunks(texts)
    print(f"{len(recs)} recordings, {len(texts)} trajectories, {sum(len(x) for x in texts):,} chars, "
          f"{len(counts):,} distinct chunks", file=sys.stderr)
    tok = train_bpe(counts, args.vocab_size, model_max_length=args.max_length, progress=True)
    tok.save(args.out)
    n_tokens = sum(len(tok.encode(x)) for x in texts[:2000])
    n_chars = sum(len(x) for x in texts[:2000])
    print(f"vocab {tok.vocab_size}, {len(tok.merges)} merges, {n_chars / max(1, n_tokens):.2f} chars/token, "
          f"{time.time() - started:.0f}s -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
