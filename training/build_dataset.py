"""Builds a training set: programs → recordings → trajectories → token shards.

    python3 -m training.build_dataset --tokens N --out DIR [--workers K] [--seed S] [--tokenizer DIR]

Programs come from two sources: the generator (``training/data/generator.py``) and pure-Python
functions of the standard library called with generated inputs (``training/data/stdlib_funcs.py``,
share ``--stdlib-share``); ``--python-share`` adds programs with classes, closures, generators,
decorators and module-level scripts (``training/data/python_families.py``). Program ``i`` is
drawn from ``random.Random(f"{seed}:{i}")`` whatever the number of workers, and results are
consumed in program order, so a build is deterministic.

Tracing: with Python ≥ 3.12 each worker imports ``src/realEngine/tracer.py`` (through ``training.real_engine``) and records in-process; with
an older Python (whose traces differ: docs/architecture.md#python-versions) each worker streams programs through its own
``node training/pyodide_trace.mjs`` (CPython 3.14 in Pyodide) and kills and restarts it when a
program does not come back within ``--hard-timeout`` seconds. Every program is counted by how it
ended (normal, raised, over the event budget, past the time limit, could not run, hard-stopped):
none is dropped silently, and those that have events still give trajectories (their exits are
states of the format).

Each recording gives ``--per-program`` trajectories drawn with the data policy
(``training/data/trajectories.py``), rendered with ``training/format.py`` and tokenized; a
trajectory longer than ``--max-tokens`` loses its last steps (it still ends with ``<|trace_end|>``;
one whose first state alone does not fit is cut), and is counted as truncated. With ``--window N``
(the training ``seq_len``), a trajectory longer than N tokens becomes several documents, each after
the first starting again at a state written in full, as the app's sessions do when a prompt outgrows
the trained context: training windows start at a document, so no state is then left beyond every
window (without it, the steps past a window's 512 tokens are never learnt). Documents are
separated by ``<|endoftext|>``. Programs whose hash falls in the generator's held-out split go to
``val``. Duplicate programs (same normalized source) are skipped and counted. A share of programs
(``--what-if-share``) also gives a what-if trajectory: a local changed at one of its stops, then
actions over the run that goes on from the new value (``training/data/what_if.py``).

Output: ``DIR/meta.json`` and ``DIR/{train,val}_NNN.bin`` (``write_shards`` layout, read by
``ShardSource``), ``DIR/tokenizer/`` (the tokenizer used; trained on the first programs when
``--tokenizer`` is not given) and ``DIR/stats.json`` (also printed).
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing as mp
import os
import random
import select
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

import numpy as np

from .data.generator import Program, generate_program, is_held_out
from .data.trajectories import sample_trajectory
from .data.what_if import draw_what_if
from .format import TRACE_END, render_state, source_lines, state_at
from .tokenizer import NdbTokenizer, count_chunks, train_bpe

ROOT = Path(__file__).resolve().parents[1]
NODE_TRACER = ROOT / "training" / "pyodide_trace.mjs"
IN_PROCESS = sys.version_info >= (3, 12)

# exit statuses of the tracer → the names the stats use
STATUS_NAMES = {
    "normal": "normal",
    "exception": "raised",
    "budget": "over_budget",
    "timeout": "never_ended",
    "syntax_error": "could_not_run",
    "call_error": "could_not_run",
    "error": "could_not_run",
}

# how a program ended, as the stats count it (every program is in exactly one)
EXIT_CATEGORIES = ("normal", "raised", "over_budget", "never_ended", "could_not_run", "hard_stop", "trace_failed")


# ----------------------------------------------------------------------------------------------
# Programs


def make_program(rng: random.Random, stdlib_share: float, corpus_share: float = 0.0,
                 python_share: float = 0.0) -> Optional[Program]:
    """One program: with probability ``python_share`` from the Python-construct families
    (``training/data/python_families.py``: classes, closures, generators, scripts, ...), else with
    probability ``corpus_share`` real code from the corpus (``training/data/corpus.py``), else with
    probability ``stdlib_share`` a standard-library function, else the generator. A share of 0
    draws nothing from ``rng``, so builds without it are unchanged."""
    if python_share > 0 and rng.random() < python_share:
        from .data.python_families import generate_python_program

        return generate_python_program(rng)
    if corpus_share > 0 and rng.random() < corpus_share:
        from .data import corpus

        p = corpus.make_program(rng)
        if p is not None:
            return p
    if stdlib_share > 0 and rng.random() < stdlib_share:
        from .data import stdlib_funcs

        p = stdlib_funcs.make_program(rng)
        if p is not None:
            return p
    return generate_program(rng)


def make_programs(seed: int, n: int, stdlib_share: float = 0.0, corpus_share: float = 0.0,
                  python_share: float = 0.0) -> list[Program]:
    out: list[Program] = []
    seen: set[str] = set()
    i = 0
    while len(out) < n and i < n * 20:
        p = make_program(random.Random(f"{seed}:{i}"), stdlib_share, corpus_share, python_share)
        i += 1
        if p is not None and p.program_id not in seen:
            seen.add(p.program_id)
            out.append(p)
    return out


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


# ----------------------------------------------------------------------------------------------
# Tracing backends


class TraceBackend:
    """Records programs with CPython ≥ 3.12: in-process when this Python is new enough, else
    through Pyodide under Node."""

    def __init__(self, max_events: int = 2000, time_limit: float = 5.0, hard_timeout: float = 30.0,
                 node_script: Path = NODE_TRACER, load_timeout: float = 60.0) -> None:
        self.load_timeout = load_timeout  # extra wait for a fresh Node to load Pyodide
        self.max_events = max_events
        self.time_limit = time_limit
        self.hard_timeout = hard_timeout
        self.node_script = node_script
        self.proc: Optional[subprocess.Popen] = None
        self.restarts = 0
        if not IN_PROCESS and shutil.which("node") is None:
            raise RuntimeError(
                f"Python {sys.version.split()[0]} traces differ from Python ≥ 3.12 (docs/architecture.md, Python versions) and `node` is not "
                "installed: run the builder with Python ≥ 3.12, or install Node and `npm install` for Pyodide"
            )

    def _start(self) -> subprocess.Popen:
        self.proc = subprocess.Popen(
            ["node", str(self.node_script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=str(ROOT), bufsize=0,
        )
        self._buf = b""
        return self.proc

    def _readline(self, deadline: float) -> Optional[bytes]:
        assert self.proc is not None and self.proc.stdout is not None
        while b"\n" not in self._buf:
            left = deadline - time.time()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line

    def close(self) -> None:
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(timeout=5)
            except Exception:  # noqa: BLE001
                pass
            self.proc = None

    def record(self, source: str, call: str, edits: Optional[list[dict[str, Any]]] = None) -> tuple[Optional[dict], Optional[str]]:
        """(recording, None) or (None, why it failed: "hard_stop" or the tracer's error). ``edits``:
        what-if assignments (tracer.record's ``edits``)."""
        if IN_PROCESS:
            from .real_engine import tracer

            try:
                return tracer.record(source, call, max_events=self.max_events, time_limit=self.time_limit, edits=edits), None
            except Exception as exc:  # noqa: BLE001
                return None, f"tracer error: {exc}"
        fresh = self.proc is None or self.proc.poll() is not None
        if fresh:
            self._start()
        assert self.proc is not None and self.proc.stdin is not None
        req = {"id": 0, "source": source, "call": call, "max_events": self.max_events, "time_limit": self.time_limit, "edits": edits or []}
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode("utf-8"))
        except BrokenPipeError:
            self.close()
            return None, "hard_stop"
        line = self._readline(time.time() + self.hard_timeout + (self.load_timeout if fresh else 0.0))
        if line is None:
            self.close()
            self.restarts += 1
            return None, "hard_stop"
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            return None, "bad reply from the tracer"
        if "recording" in reply:
            return reply["recording"], None
        return None, f"tracer error: {reply.get('error')}"


def trace_programs(programs: Iterable[Program], **kw: Any) -> Iterator[tuple[Optional[dict], Optional[str]]]:
    backend = TraceBackend(**kw)
    try:
        for p in programs:
            yield backend.record(p.source, p.call)
    finally:
        backend.close()


# ----------------------------------------------------------------------------------------------
# Workers


@dataclass
class TrajStat:
    direction: str
    policy: str
    actions: list[str]
    tokens: int
    context_tokens: int
    state_tokens: list[int]
    truncated: bool
    documents: int = 1  # more than one when --window cut it


@dataclass
class ProgramResult:
    index: int
    program_id: str
    origin: str
    family: str
    held_out: bool
    status: str  # STATUS_NAMES value, "hard_stop" or "trace_failed"
    events: int = 0
    docs: list[np.ndarray] = field(default_factory=list)
    trajs: list[TrajStat] = field(default_factory=list)


_WORKER: dict[str, Any] = {}


def _worker_init(tok_dir: str, backend_kw: dict[str, Any]) -> None:
    _WORKER["tok"] = NdbTokenizer.load(Path(tok_dir))
    _WORKER["backend"] = TraceBackend(**backend_kw)


def tokenize_trajectory(tok: NdbTokenizer, traj: Any, max_tokens: int) -> tuple[list[int], int, list[int], int, bool]:
    """Tokenizes the pieces of a rendered trajectory (each starts with a format token, so the
    pieces' ids are the whole text's ids) and drops trailing steps to fit ``max_tokens``.
    Returns (ids, context tokens, tokens of each state, steps kept, truncated)."""
    ctx = tok.encode(traj.context)
    first = tok.encode(traj.first)
    end = tok.encode(TRACE_END)
    ids = ctx + first
    states = [len(first)]
    kept = 0
    truncated = False
    for step in traj.steps:
        a = tok.encode(step.action_text)
        s = tok.encode(step.state_text)
        if len(ids) + len(a) + len(s) + len(end) > max_tokens:
            truncated = True
            break
        ids += a + s
        states.append(len(s))
        kept += 1
    ids += end
    if len(ids) > max_tokens:  # the context and the first state alone are too long
        ids = ids[:max_tokens]
        truncated = True
    return ids, len(ctx), states, kept, truncated


def window_documents(tok: NdbTokenizer, traj: Any, rec: dict[str, Any], steps: int, window: int) -> list[list[int]]:
    """The first ``steps`` steps of a trajectory as documents of at most ``window`` tokens where it can:
    each document after the first starts again at the newest state of the one before, written in full
    as a first state, as the app's sessions do when a prompt outgrows the trained context
    (``src/neuralEngine/neuralSession.ts``). Training windows start at a document, so every state is
    then learnt with its source and at the positions the model is trained on. A document whose
    context and first step alone exceed ``window`` stays whole (the trainer's window cuts it)."""
    lines = source_lines(rec["source"])
    ctx = tok.encode(traj.context)
    end = tok.encode(TRACE_END)
    docs: list[list[int]] = []
    ids = ctx + tok.encode(traj.first)
    fresh = True  # no step in the current document yet
    last = traj.start
    for step in traj.steps[:steps]:
        piece = tok.encode(step.action_text) + tok.encode(step.state_text)
        if not fresh and len(ids) + len(piece) + len(end) > window:
            docs.append(ids + end)
            ids = ctx + tok.encode(render_state(lines, state_at(rec, last)))
        ids += piece
        fresh = False
        last = step.position
    docs.append(ids + end)
    return docs


def _work(task: tuple[int, int, int, dict[str, Any]]) -> list[ProgramResult]:
    seed, start, count, opts = task
    tok: NdbTokenizer = _WORKER["tok"]
    backend: TraceBackend = _WORKER["backend"]
    out: list[ProgramResult] = []
    for i in range(start, start + count):
        rng = random.Random(f"{seed}:{i}")
        p = make_program(rng, opts["stdlib_share"], opts.get("corpus_share", 0.0), opts.get("python_share", 0.0))
        if p is None:
            continue
        split_key = getattr(p, "split_id", "") or p.program_id
        res = ProgramResult(i, p.program_id, p.origin, p.family, is_held_out(split_key), "trace_failed")
        out.append(res)
        rec, err = backend.record(p.source, p.call)
        if rec is None:
            res.status = "hard_stop" if err == "hard_stop" else "trace_failed"
            continue
        res.status = STATUS_NAMES.get(rec["exit"]["status"], "could_not_run")
        res.events = len(rec["events"])
        if not rec["events"]:
            continue  # nothing ran: no states to learn from (counted above)
        if p.origin == "corpus" and not corpus_run_kept(rec):
            continue  # counted by its exit; real code is kept only when it ran as its authors meant
        trng = random.Random(f"traj:{seed}:{i}")
        specs = [(sample_trajectory(rec, trng, jump_share=opts.get("jump_share", 0.0)), rec) for _ in range(opts["per_program"])]
        # its own random stream, so that the other trajectories do not depend on the share
        wrng = random.Random(f"whatif:{seed}:{i}")
        forward = [spec for spec, _ in specs if spec.direction == "forward"]
        if forward and wrng.random() < opts.get("what_if_share", 0.0):
            drawn = draw_what_if(rec, forward[0], wrng, lambda edits: backend.record(p.source, p.call, edits)[0])
            if drawn is not None:
                specs.append((drawn[1], drawn[2]))
        for spec, recording in specs:
            traj = spec.render(recording)
            ids, ctx_len, states, kept, truncated = tokenize_trajectory(tok, traj, opts["max_tokens"])
            window = opts.get("window", 0)
            docs = window_documents(tok, traj, recording, kept, window) if window and len(ids) > window else [ids]
            res.docs.extend(np.asarray(d, dtype=np.uint32) for d in docs)
            res.trajs.append(TrajStat(spec.direction, spec.policy, [a.kind for a in spec.actions[:kept]], len(ids),
                                      ctx_len, states, truncated, len(docs)))
    return out


# ----------------------------------------------------------------------------------------------
# Stats


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
        self.duplicates = 0
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
            "programs": {"unique": sum(self.programs.values()), "per_source": dict(self.programs),
                         "duplicates_skipped": self.duplicates, "no_events": self.no_events,
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


# ----------------------------------------------------------------------------------------------
# Building


class ShardWriter:
    """Writes token shards as they fill, in the layout of ``token_source.write_shards`` (flat
    ``{split}_{i:03d}.bin`` files and ``meta.json``); each split's stream starts with
    ``<|endoftext|>`` and every document is followed by one."""

    def __init__(self, out: Path, vocab_size: int, shard_tokens: int, eot: int) -> None:
        self.out = out
        self.vocab_size = vocab_size
        self.dtype = np.uint16 if vocab_size <= 65535 else np.uint32
        self.shard_tokens = max(2, shard_tokens)
        self.eot = eot
        self.parts: dict[str, list[np.ndarray]] = {s: [np.asarray([eot], dtype=self.dtype)] for s in ("train", "val")}
        self.sizes = {s: 1 for s in ("train", "val")}
        self.files: dict[str, list[str]] = {"train": [], "val": []}
        self.written = collections.Counter()
        for old in list(out.glob("train_*.bin")) + list(out.glob("val_*.bin")):
            old.unlink()

    def add(self, split: str, doc: np.ndarray) -> None:
        self.parts[split].append(np.asarray(doc, dtype=self.dtype))
        self.parts[split].append(np.asarray([self.eot], dtype=self.dtype))
        self.sizes[split] += len(doc) + 1
        if self.sizes[split] >= self.shard_tokens:
            self._flush(split, final=False)

    def _flush(self, split: str, final: bool) -> None:
        flat = np.concatenate(self.parts[split]) if self.parts[split] else np.zeros(0, dtype=self.dtype)
        while len(flat) >= self.shard_tokens or (final and len(flat)):
            piece, flat = flat[: self.shard_tokens], flat[self.shard_tokens :]
            name = f"{split}_{len(self.files[split]):03d}.bin"
            piece.tofile(self.out / name)
            self.files[split].append(name)
            self.written[split] += len(piece)
        self.parts[split] = [flat] if len(flat) else []
        self.sizes[split] = len(flat)

    def close(self) -> None:
        for split in ("train", "val"):
            self._flush(split, final=True)
        meta = {"vocab_size": self.vocab_size, "dtype": np.dtype(self.dtype).name, **self.files}
        (self.out / "meta.json").write_text(json.dumps(meta, indent=2))


def _progress(done: int, total: int, programs: int, started: float) -> str:
    width = 30
    frac = min(1.0, done / max(1, total))
    rate = done / max(1e-9, time.time() - started)
    eta = (total - done) / rate if rate > 0 and done < total else 0
    bar = "#" * int(width * frac) + "." * (width - int(width * frac))
    return f"\r[{bar}] {done:,}/{total:,} tokens, {programs:,} programs, {rate:,.0f} tok/s, eta {eta:,.0f}s "


def train_default_tokenizer(seed: int, out: Path, vocab_size: int, programs: int, samples: int,
                            stdlib_share: float, backend_kw: dict[str, Any], python_share: float = 0.0) -> NdbTokenizer:
    """A tokenizer trained on trajectories of programs outside the dataset's own seed stream."""
    from .data.trajectories import trajectory_texts

    progs = make_programs(seed + 1_000_003, programs, stdlib_share, python_share=python_share)
    recs = [r for r, _ in trace_programs(progs, **backend_kw) if r is not None and r["events"]]
    texts = list(trajectory_texts(recs, samples, seed))
    tok = train_bpe(count_chunks(texts), vocab_size)
    tok.save(out)
    return tok


def build(tokens: int, out: Path, workers: int = 2, seed: int = 0, tokenizer: Optional[Path] = None,
          per_program: int = 2, max_tokens: int = 2048, stdlib_share: float = 0.25, shard_tokens: int = 1 << 22,
          task_size: int = 32, max_events: int = 2000, time_limit: float = 5.0, hard_timeout: float = 30.0,
          vocab_size: int = 2048, what_if_share: float = 0.1, jump_share: float = 0.0, corpus_share: float = 0.0,
          quiet: bool = False, python_share: float = 0.0, window: int = 0) -> dict[str, Any]:
    started = time.time()
    out.mkdir(parents=True, exist_ok=True)
    backend_kw = {"max_events": max_events, "time_limit": time_limit, "hard_timeout": hard_timeout}
    TraceBackend(**backend_kw)  # fails early with a clear message when no tracer can run
    tok_dir = out / "tokenizer"
    if tokenizer is not None:
        if Path(tokenizer).resolve() != tok_dir.resolve():
            tok_dir.mkdir(parents=True, exist_ok=True)
            for name in ("tokenizer.json", "tokenizer_config.json"):
                shutil.copy(Path(tokenizer) / name, tok_dir / name)
    else:
        if not quiet:
            print("training a tokenizer (no --tokenizer given)…", file=sys.stderr)
        train_default_tokenizer(seed, tok_dir, vocab_size, 2000, 20000, stdlib_share, backend_kw, python_share)
    tok = NdbTokenizer.load(tok_dir)
    eot = tok.eot_id
    opts = {"stdlib_share": stdlib_share, "per_program": per_program, "max_tokens": max_tokens, "what_if_share": what_if_share,
            "jump_share": jump_share, "corpus_share": corpus_share, "python_share": python_share, "window": window}
    if corpus_share > 0:
        from .data import corpus

        extraction = corpus.load()  # before the workers fork, so that they share it
        if not quiet:
            print(f"corpus: {extraction.stats['files_read']:,} files, {len(extraction.units):,} units", file=sys.stderr)
    stats = Stats()
    seen: set[int] = set()  # 64-bit prefixes of program ids
    writer = ShardWriter(out, tok.vocab_size, shard_tokens, eot)
    total = 0
    next_index = 0
    max_programs = max(10_000, tokens // 20)  # a bound, in case programs give almost no tokens
    gen_started = time.time()
    ctx = mp.get_context("fork" if sys.platform != "win32" else "spawn")
    pool = ctx.Pool(workers, initializer=_worker_init, initargs=(str(tok_dir), backend_kw))
    pending: collections.deque = collections.deque()

    def enough() -> bool:
        return total >= tokens and stats.split_tokens["val"] > 0 and stats.split_tokens["train"] > 0

    try:
        while True:
            while len(pending) < 2 * workers and not enough() and next_index < max_programs:
                pending.append(pool.apply_async(_work, ((seed, next_index, task_size, opts),)))
                next_index += task_size
            if not pending:
                break
            for r in pending.popleft().get():
                if enough():
                    break
                key = int(r.program_id[:16], 16)
                if key in seen:
                    stats.duplicates += 1
                    continue
                seen.add(key)
                split = "val" if r.held_out else "train"
                stats.add(r, split)
                for doc in r.docs:
                    writer.add(split, doc)
                    total += len(doc) + 1
            if not quiet:
                sys.stderr.write(_progress(total, tokens, sum(stats.programs.values()), gen_started))
            if enough():
                break
    finally:
        pool.terminate()
        pool.join()
    if not quiet:
        sys.stderr.write("\n")
    writer.close()
    wall = time.time() - started
    report = stats.report({
        "tokens_total": int(sum(writer.written.values())),
        "target_tokens": tokens, "seed": seed, "workers": workers, "wall_s": round(wall, 1),
        "tokens_per_s": round(total / max(1e-9, time.time() - gen_started)), "vocab_size": tok.vocab_size,
        "tokenizer_s": round(gen_started - started, 1),
        "tracer": "in-process (Python %d.%d)" % sys.version_info[:2] if IN_PROCESS else "pyodide under node",
        "options": {"per_program": per_program, "max_tokens": max_tokens, "stdlib_share": stdlib_share, "what_if_share": what_if_share, "jump_share": jump_share,
                    "corpus_share": corpus_share, "python_share": python_share, "window": window,
                    "max_events": max_events, "time_limit": time_limit, "hard_timeout": hard_timeout},
        "shards": {split: len(names) for split, names in writer.files.items()},
    })
    (out / "stats.json").write_text(json.dumps(report, indent=2))
    return report


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.build_dataset", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, required=True, help="stop once this many tokens are written")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--workers", type=int, default=max(1, min(8, (os.cpu_count() or 2))))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tokenizer", type=Path, default=None, help="a tokenizer folder (default: train one)")
    ap.add_argument("--vocab-size", type=int, default=2048, help="when training the tokenizer")
    ap.add_argument("--per-program", type=int, default=2, help="trajectories drawn per recording")
    ap.add_argument("--max-tokens", type=int, default=2048, help="cap on a trajectory's tokens")
    ap.add_argument("--stdlib-share", type=float, default=0.25, help="share of programs from the standard library")
    ap.add_argument("--what-if-share", type=float, default=0.1,
                    help="share of programs that also give a what-if trajectory (a local edited at a stop)")
    ap.add_argument("--jump-share", type=float, default=0.0,
                    help="share of trajectories drawn from the jumps policy (step_return, breakpoint, continue)")
    ap.add_argument("--corpus-share", type=float, default=0.0,
                    help="share of programs from the corpus of real code (../shared/corpus, training/data/corpus.py)")
    ap.add_argument("--python-share", type=float, default=0.0,
                    help="share of programs from the Python-construct families (classes, closures, generators, "
                         "scripts, ...; training/data/python_families.py)")
    ap.add_argument("--window", type=int, default=0,
                    help="cut a trajectory longer than this many tokens into documents that each start again at "
                         "a state written in full, as the app's sessions do; set it to the training seq_len "
                         "(default 0: documents are whole trajectories)")
    ap.add_argument("--shard-tokens", type=int, default=1 << 22, help="tokens per shard file")
    ap.add_argument("--max-events", type=int, default=2000, help="the tracer's event budget")
    ap.add_argument("--time-limit", type=float, default=5.0, help="the tracer's time limit (s)")
    ap.add_argument("--hard-timeout", type=float, default=30.0, help="kill a tracer that does not answer (s)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        report = build(args.tokens, args.out, args.workers, args.seed, args.tokenizer, args.per_program,
                       args.max_tokens, args.stdlib_share, args.shard_tokens, max_events=args.max_events,
                       time_limit=args.time_limit, hard_timeout=args.hard_timeout, vocab_size=args.vocab_size,
                       what_if_share=args.what_if_share, jump_share=args.jump_share, corpus_share=args.corpus_share,
                       quiet=args.quiet, python_share=args.python_share, window=args.window)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
