"""Worker processes that run programs through the pipeline (``program_docs.run_program``), for the
dataset builder and the live source alike.

``ProgramStream`` hands out the results of programs 0, 1, 2, ... of a seed's stream in that order,
a task of ``task_size`` programs at a time, whatever the number of workers: a dataset built with 8
workers is the one built with 1, and a live source draws the programs a dataset of the same recipe
and seed holds.

Each worker is a fresh interpreter (``python -m training.data.workers``) that talks to this process
through its stdin and stdout in length-prefixed pickles, for three reasons:

- **a per-program timeout**: a worker says when it starts each program; one that has not finished
  a program within ``program_timeout`` seconds (a program stuck in C code, where the tracer's own
  time limit never runs) is killed with its process group and started again, the program is counted
  as a ``hard_stop`` and the rest of its task goes on, with a log line saying so. Before, one hung
  program stalled a live stream silently;
- **another interpreter**: ``python=`` runs the workers under another Python than this one (the
  CPU rehearsal of a GPU lease traces under Python 3.12 while it trains on Debian's 3.11 torch);
  the workers import no numpy and no torch;
- a fresh interpreter with ``PYTHONHASHSEED=0``, so that a set of strings lists its items in the same
  order in every build (the Node tracer fixes its own: pyodide_trace.mjs).
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import importlib
import os
import pickle
import queue
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Optional

from ..tokenizer import NdbTokenizer
from ..trace_backend import IN_PROCESS, ROOT, TraceBackend
from .program_docs import ProgramResult, run_program
from .recipe import Recipe

# Pickles both ends can read when the workers run another Python version than this process.
PROTOCOL = 4
# What a program runs through by default: "module:function" with run_program's signature.
DEFAULT_RUNNER = "training.data.program_docs:run_program"
# The Node tracer (Python < 3.12) restarts a hung Pyodide itself after the recipe's hard_timeout; it
# may also spend this long loading Pyodide first, twice for a what-if. The watchdog is a backstop there.
NODE_LOAD_S = 60.0


@contextlib.contextmanager
def hash_seed_for_children() -> Iterator[None]:
    """PYTHONHASHSEED=0 for the interpreters started meanwhile (spawned workers), this one's
    environment left as it was."""
    old = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        yield
    finally:
        if old is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = old


# -- the wire ----------------------------------------------------------------------------------------


def write_frame(out: BinaryIO, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=PROTOCOL)
    out.write(struct.pack("<Q", len(data)) + data)
    out.flush()


def read_frame(inp: BinaryIO) -> Any:
    """The next object, or None at the end of the stream."""
    head = inp.read(8)
    if len(head) < 8:
        return None
    (n,) = struct.unpack("<Q", head)
    data = inp.read(n)
    if len(data) < n:
        return None
    return pickle.loads(data)


def python_version(python: str) -> tuple[int, int]:
    out = subprocess.run([python, "-c", "import sys; print(sys.version_info[0], sys.version_info[1])"],
                         capture_output=True, text=True, check=True, timeout=60)
    major, minor = out.stdout.split()
    return int(major), int(minor)


# -- the worker side ---------------------------------------------------------------------------------


def serve() -> None:
    """A worker's main loop: a setup frame (recipe, tokenizer folder, runner), then tasks."""
    # The frames own the original stdin and stdout; the programs traced in this process get
    # /dev/null and stderr instead, so that nothing they print or read can corrupt a frame.
    inp = os.fdopen(os.dup(0), "rb")
    out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    setup = read_frame(inp)
    if setup is None:
        return
    recipe, tok_dir, runner_name, corpus_cache = setup
    if corpus_cache:
        from . import corpus

        corpus._CACHE.update(corpus_cache)  # the parent's extraction, made by this same Python
    # Programs compiled here (the corpus's, on Python 3.12) warn about their own escapes: noise in
    # the trainer's log, never about this pipeline.
    warnings.filterwarnings("ignore", category=SyntaxWarning)
    tok = NdbTokenizer.load(Path(tok_dir))
    backend = TraceBackend(**recipe.tracer_limits())
    runner = load_runner(runner_name)
    started = time.time()
    warm_up(recipe)
    write_frame(out, ("ready", os.getpid(), sys.version_info[:2], IN_PROCESS, time.time() - started))
    try:
        while True:
            msg = read_frame(inp)
            if msg is None or msg[0] == "stop":
                break
            _, task_id, seed, start, count = msg
            for i in range(start, start + count):
                write_frame(out, ("start", task_id, i, time.time()))
                try:
                    result = runner(seed, i, recipe, tok, backend)
                except Exception:  # noqa: BLE001 - reported to the parent, which stops
                    write_frame(out, ("error", task_id, i, traceback.format_exc()))
                    return
                write_frame(out, ("result", task_id, i, result))
            write_frame(out, ("done", task_id))
    finally:
        backend.close()


def warm_up(recipe: Recipe) -> None:
    """Loads what the recipe's sources load at their first draw, before the worker says it is
    ready: the per-program timeout is for a program, not for extracting the corpus (40-70 s a core
    on these machines). Without this, a loaded machine made every fresh worker overrun the timeout
    on its first corpus program and be killed, again and again, and the stream starved."""
    shares = recipe.shares()
    if shares.get("corpus", 0) > 0:
        from . import corpus

        corpus.load()
    if shares.get("stdlib", 0) > 0:
        from . import stdlib_funcs

        stdlib_funcs.available()
    if shares.get("debian", 0) > 0:
        from . import debian

        debian.load()


def load_runner(name: str) -> Callable[..., Optional[ProgramResult]]:
    if name == DEFAULT_RUNNER:
        return run_program
    module, _, func = name.partition(":")
    return getattr(importlib.import_module(module), func)


# -- the parent side ---------------------------------------------------------------------------------


class _Worker:
    def __init__(self, wid: int, python: str, setup: tuple, inbox: "queue.Queue[tuple[int, int, Any]]", generation: int) -> None:
        self.wid = wid
        self.generation = generation  # messages of a killed predecessor are told apart by this
        env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        # its own process group: a kill also ends what it started (the Node tracer under Python < 3.12)
        self.proc = subprocess.Popen([python, "-m", "training.data.workers"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=str(ROOT), env=env, start_new_session=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin = self.proc.stdin
        self.ready = False
        self.pieces: collections.deque = collections.deque()  # (task_id, start, count) sent, in order
        self.current: Optional[tuple[int, int, float]] = None  # (task_id, program index, started at)
        with contextlib.suppress(OSError):  # a worker that cannot start: its end of stream says so next
            write_frame(self.stdin, setup)
        self.reader = threading.Thread(target=self._read, args=(self.proc.stdout, inbox), daemon=True)
        self.reader.start()

    def _read(self, stdout: BinaryIO, inbox: "queue.Queue[tuple[int, int, Any]]") -> None:
        while True:
            try:
                msg = read_frame(stdout)
            except Exception as exc:  # noqa: BLE001 - a torn frame from a killed worker
                msg = None
                if self.proc.poll() is None:
                    inbox.put((self.wid, self.generation, ("error", None, None, f"unreadable reply: {exc!r}")))
            if msg is None:
                inbox.put((self.wid, self.generation, ("eof",)))
                return
            inbox.put((self.wid, self.generation, msg))

    def send(self, task_id: int, seed: int | str, start: int, count: int) -> None:
        self.pieces.append((task_id, start, count))  # first: a worker that died meanwhile gives it back
        with contextlib.suppress(OSError):  # it died: its end of stream comes next and restarts it
            write_frame(self.stdin, ("task", task_id, seed, start, count))

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        with contextlib.suppress(Exception):
            self.stdin.close()
        with contextlib.suppress(Exception):
            self.proc.wait(timeout=10)


def lost_program(seed: int | str, i: int) -> ProgramResult:
    """What a killed program counts as: a ``hard_stop`` of a source named "hung" (which program it
    was is known only inside the worker that was killed); its id is derived from the seed and index,
    so that the dedup of the builder and the live source takes it once."""
    pid = hashlib.sha256(f"hung:{seed}:{i}".encode()).hexdigest()
    return ProgramResult(i, pid, "hung", "hung", False, "hard_stop")


class ProgramStream:
    """Tasks of a seed's stream sent to the workers ahead of need (two a worker) and taken back in
    order. ``python``: the interpreter of the workers (default this one); ``program_timeout``: the
    seconds after which a program is given up (default: the recipe's ``hard_timeout`` when the
    workers trace in-process, more under the Node tracer, which stops its own hung programs);
    ``runner``: what runs a program, as "module:function" (tests put a program that hangs there);
    ``log``: where the stream's notes go (default stderr)."""

    def __init__(self, recipe: Recipe, tok_dir: Path, seed: int | str, workers: int = 1, task_size: int = 32,
                 max_index: Optional[int] = None, python: Optional[str] = None, program_timeout: Optional[float] = None,
                 runner: str = DEFAULT_RUNNER, log: Optional[Callable[[str], None]] = None) -> None:
        self.seed = seed
        self.workers = max(1, workers)
        self.task_size = task_size
        self.max_index = max_index
        self.next_index = 0
        self.python = python or sys.executable
        in_process = IN_PROCESS if python is None else python_version(self.python) >= (3, 12)
        if program_timeout is None:
            program_timeout = recipe.hard_timeout if in_process else 2 * (recipe.hard_timeout + NODE_LOAD_S) + 30
        self.program_timeout = float(program_timeout)
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self.killed = 0  # programs given up after program_timeout (or whose worker died)
        self._setup = (recipe, str(tok_dir), runner, self._shared_corpus(python))
        self._inbox: "queue.Queue[tuple[int, int, Any]]" = queue.Queue()
        self._generation = 0
        self._pool: list[_Worker] = []
        self._order: collections.deque = collections.deque()  # task ids not yet handed out, oldest first
        self._tasks: dict[int, tuple[int, int]] = {}  # task id -> (start, count)
        self._results: dict[int, dict[int, Optional[ProgramResult]]] = {}  # task id -> program index -> result
        self._unsent: collections.deque = collections.deque()  # (task id, start, count) pieces waiting for a worker
        self._next_task_id = 0
        self.closed = False
        self._announced = False
        for wid in range(self.workers):
            self._pool.append(self._start(wid))

    @staticmethod
    def _shared_corpus(python: Optional[str]) -> dict:
        """The corpus this process has extracted already (the dataset builder loads it first), for
        workers of this same interpreter: 3.5 MB that unpickle in 0.05 s, where each worker's own
        extraction takes 40-70 s of a loaded core. Another Python extracts its own (its ast may differ)."""
        if python is not None and python != sys.executable:
            return {}
        corpus = sys.modules.get(f"{__package__}.corpus")
        return dict(getattr(corpus, "_CACHE", {}) or {})

    def _start(self, wid: int) -> _Worker:
        self._generation += 1
        return _Worker(wid, self.python, self._setup, self._inbox, self._generation)

    # -- bookkeeping ------------------------------------------------------------------------------

    def submit(self) -> None:
        """Keeps two tasks a worker in flight."""
        while len(self._order) < 2 * self.workers and (self.max_index is None or self.next_index < self.max_index):
            count = self.task_size if self.max_index is None else min(self.task_size, self.max_index - self.next_index)
            tid = self._next_task_id
            self._next_task_id += 1
            self._tasks[tid] = (self.next_index, count)
            self._results[tid] = {}
            self._order.append(tid)
            self._unsent.append((tid, self.next_index, count))
            self.next_index += count
        for w in self._pool:
            while self._unsent and w.ready and len(w.pieces) < 2:
                w.send(self._unsent[0][0], self.seed, self._unsent[0][1], self._unsent[0][2])
                self._unsent.popleft()

    def _restart(self, w: _Worker, lost: Optional[int], why: str) -> None:
        """Kills a worker, counts the program it was on (``lost``) as a hard_stop, and gives the rest
        of its pieces to the others."""
        w.kill()
        requeue = []
        for tid, start, count in w.pieces:
            done = self._results.get(tid)
            if done is None:
                continue
            if lost is not None and start <= lost < start + count and lost not in done:
                done[lost] = lost_program(self.seed, lost)
                self.killed += 1
            rest = [i for i in range(start, start + count) if i not in done]
            if rest:
                requeue.append((tid, rest[0], rest[-1] - rest[0] + 1))
        self._unsent.extendleft(reversed(requeue))  # before the newer tasks: the oldest is waited for
        self.log(f"workers: worker {w.wid} {why}; it was killed and started again"
                 + (f" (program {lost} of stream {self.seed} counted as hard_stop)" if lost is not None else ""))
        self._pool[w.wid] = self._start(w.wid)

    def _handle(self, wid: int, generation: int, msg: tuple) -> None:
        w = self._pool[wid]
        if generation != w.generation:
            return  # from a worker killed since
        kind = msg[0]
        if kind == "ready":
            w.ready = True
            if not self._announced:
                self._announced = True
                self.log(f"workers: the first worker is ready after {msg[4]:.0f} s of loading the sources "
                         f"(Python {msg[2][0]}.{msg[2][1]}, {'in-process tracing' if msg[3] else 'the Node tracer'})")
        elif kind == "start":
            _, tid, i, at = msg
            w.current = (tid, i, at)
        elif kind == "result":
            _, tid, i, result = msg
            if tid in self._results:
                self._results[tid][i] = result
            w.current = None
        elif kind == "done":
            if w.pieces:
                w.pieces.popleft()
        elif kind == "error":
            _, tid, i, text = msg
            self.close()
            raise RuntimeError(f"program {i} of stream {self.seed} failed in a worker:\n{text}")
        elif kind == "eof":
            code = w.proc.poll()
            if code is None:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    code = w.proc.wait(timeout=5)
            if not w.ready:
                self.close()
                raise RuntimeError(f"a worker ({self.python} -m training.data.workers) exited with status {code} before "
                                   "it was ready: its error is above")
            lost = w.current[1] if w.current is not None else None
            self._restart(w, lost, f"exited with status {code}")

    def _pump(self, wait: float = 0.0) -> bool:
        """Takes in the workers' messages (waiting up to ``wait`` s for the first one), gives up on
        programs past their time and keeps the workers busy. True if anything came in."""
        got = False
        try:
            item = self._inbox.get(timeout=wait) if wait > 0 else self._inbox.get_nowait()
            while True:
                got = True
                self._handle(*item)
                item = self._inbox.get_nowait()
        except queue.Empty:
            pass
        now = time.time()
        for w in list(self._pool):
            if w.current is not None and now - w.current[2] > self.program_timeout:
                self._restart(w, w.current[1], f"ran program {w.current[1]} for more than {self.program_timeout:g} s")
        self.submit()
        return got

    def _oldest_done(self) -> bool:
        if not self._order:
            return False
        tid = self._order[0]
        start, count = self._tasks[tid]
        return len(self._results[tid]) == count

    def busy_note(self) -> str:
        """What the workers are on, for a log line when the stream is slow."""
        now = time.time()
        parts = []
        for w in self._pool:
            if w.current is not None:
                parts.append(f"worker {w.wid} on program {w.current[1]} for {now - w.current[2]:.0f} s")
            elif not w.ready:
                parts.append(f"worker {w.wid} starting")
        oldest = f"waiting for the task of programs {self._tasks[self._order[0]][0]}+" if self._order else "no task pending"
        return f"{oldest}; " + (", ".join(parts) if parts else "all workers idle")

    # -- the stream -------------------------------------------------------------------------------

    def next_task(self, block: bool = True, timeout: Optional[float] = None) -> Optional[list[ProgramResult]]:
        """The results of the oldest task: waits for it when ``block`` (at most ``timeout`` s, then
        None), else None unless it is done. None too once ``max_index`` programs have been handed out."""
        if self.closed:
            return None
        self._pump()
        started = time.time()
        noted = started
        while not self._oldest_done():
            if not self._order or not block:
                return None
            if timeout is not None and time.time() - started >= timeout:
                return None
            self._pump(wait=0.25)
            if time.time() - noted >= 60:
                noted = time.time()
                self.log(f"workers: no results for {noted - started:.0f} s: {self.busy_note()}")
        tid = self._order.popleft()
        done = self._results.pop(tid)
        del self._tasks[tid]
        self.submit()
        return [done[i] for i in sorted(done) if done[i] is not None]

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for w in self._pool:
            with contextlib.suppress(Exception):
                write_frame(w.stdin, ("stop",))
        for w in self._pool:
            w.kill()
        self._pool = []

    def __enter__(self) -> "ProgramStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        with contextlib.suppress(Exception):
            self.close()


class Dedup:
    """Programs already taken, by the first 64 bits of their id: about 70 bytes a program (a live
    source that draws 10 M programs holds 0.7 GB of them)."""

    def __init__(self) -> None:
        self.seen: set[int] = set()

    def first_time(self, r: ProgramResult) -> bool:
        key = int(r.program_id[:16], 16)
        if key in self.seen:
            return False
        self.seen.add(key)
        return True


if __name__ == "__main__":
    serve()
