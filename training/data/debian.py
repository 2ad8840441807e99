"""More code people wrote, from Debian's packages, offline: programs cut out of CPython's own test
suite (``libpython3.11-testsuite``, ``debian_tests.py``) and out of the ``>>>`` examples of the
Python documentation (``python3.11-doc``, ``debian_docs.py``). Both are under the PSF license
(``LICENSES``; training/README.md says how they are attributed).

Each candidate is run with the real tracer before it is kept (``debian_check.py``): what is drawn
ends normally within the event budget, does the same on every run and is more than a line or two.
The programs are not varied (as the corpus's calls are): a test's or a page's literals are what
its checks were written for, and another input would mostly raise.

**Held out whole** (5 %, ``is_held_out`` of a hash of the source and the unit: a test class, a
documentation page; ``Candidate.split_unit``): the dataset builder sends their runs to ``val``,
never to training.

Extracting and checking takes a minute or two, so the result is kept in a cache file
(``$NDB_CACHE_DIR``, else ``~/.cache/ndb``) named by a digest of this code, the tracer, the
Python that checked and the packages' files; ``--write FILE`` writes the same thing as a snapshot
to carry where the packages are not installed (the GPU machine), read with ``$NDB_DEBIAN_PROGRAMS=FILE``.

    python3 -m training.data.debian --stats                 # counts per source, held out, skips
    python3 -m training.data.debian --n 5 --seed 1          # programs as JSONL
    python3 -m training.data.debian --write FILE.json.gz    # a snapshot of all programs
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import gzip
import hashlib
import json
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from . import debian_docs, debian_tests
from .debian_check import check
from .debian_common import LICENSES, SOURCES, Candidate, DebianProgram, to_program
from .programs import is_held_out

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT_FORMAT = 1
# what the programs depend on besides the packages: a change to any of these checks them again
CODE = [Path(__file__).parent / name for name in ("debian.py", "debian_common.py", "debian_tests.py", "debian_docs.py",
                                                  "debian_check.py", "extract.py", "corpus_checks.py")] + \
       [ROOT / "src" / "realEngine" / "python" / "tracer.py", ROOT / "src" / "realEngine" / "python" / "sandbox.py"]


class DebianMissing(RuntimeError):
    pass


@dataclass
class Extraction:
    programs: list[DebianProgram]
    stats: dict[str, Any]
    _by: dict[tuple[Optional[bool], Optional[str]], list[DebianProgram]] = field(default_factory=dict, repr=False)

    def select(self, held: Optional[bool] = None, source: Optional[str] = None) -> list[DebianProgram]:
        """The programs held out (True), the others (False) or all (None), of one source or all."""
        key = (held, source)
        if key not in self._by:
            self._by[key] = [p for p in self.programs if (held is None or is_held_out(p.split_id) == held)
                             and (source is None or p.family == source)]
        return self._by[key]


def _roots() -> dict[str, Path]:
    return {"tests": debian_tests.TEST_DIR, "docs": debian_docs.DOC_DIR}


def _digest(roots: dict[str, Path]) -> str:
    """Names this code, the Python that checks and the packages' files (path, size, mtime)."""
    h = hashlib.sha1(f"{SNAPSHOT_FORMAT}:{sys.version}".encode())
    for path in CODE:
        h.update(path.read_bytes())
    for name, root in sorted(roots.items()):
        h.update(f"\0{name}:{root}".encode())
        for p in sorted(root.rglob("*")):
            if p.is_file():
                st = p.stat()
                h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    return Path(os.environ.get("NDB_CACHE_DIR") or Path.home() / ".cache" / "ndb")


def _source_stats(source: str, cands: list[Candidate], results: list[dict[str, Any]], skips: collections.Counter,
                  kept: list[DebianProgram], kept_files: set[str]) -> dict[str, Any]:
    normal = [r for r in results if r["status"] == "normal"]
    return {
        "package": LICENSES[source]["package"], "license": LICENSES[source]["license"],
        "files_read": skips.get("files", 0), "files_with_programs": len(kept_files),
        "candidates": len(cands), "checked": dict(collections.Counter(r["status"] for r in results).most_common()),
        "programs": len(kept), "held_out_programs": sum(is_held_out(p.split_id) for p in kept),
        # the units held out whole: test classes, documentation pages
        "split_units": len({p.split_id for p in kept}),
        "held_out_units": len({p.split_id for p in kept if is_held_out(p.split_id)}),
        "statements_mean": round(statistics.mean(len(r["keep"]) for r in normal), 2) if normal else 0,
        "events_mean": round(statistics.mean(r["events"] for r in normal), 1) if normal else 0,
        "statements_dropped_by_check": sum(len(c.statements) - len(r["keep"]) for c, r in zip(cands, results) if r["status"] == "normal"),
        "skips": dict(skips.most_common()),
    }


def extract(progress: bool = False) -> Extraction:
    """Every program of the installed packages, checked, with counts per source."""
    roots = _roots()
    missing = [f"{LICENSES[s]['package']} ({root})" for s, root in roots.items() if not root.is_dir()]
    if missing:
        raise DebianMissing(f"Debian packages not installed: {', '.join(missing)}; install them with "
                            f"`apt-get install -y {' '.join(LICENSES[s]['package'] for s in SOURCES)}` "
                            "or point $NDB_DEBIAN_PROGRAMS at a snapshot (python3 -m training.data.debian --write)")
    programs: list[DebianProgram] = []
    seen: set[str] = set()
    stats: dict[str, Any] = {"per_source": {}, "licenses": LICENSES}
    started = time.time()
    for source, make in (("tests", debian_tests.candidates), ("docs", debian_docs.candidates)):
        cands, skips = make(roots[source])
        report = (lambda n, total=len(cands), s=source: n % 500 == 0 and sys.stderr.write(f"debian {s}: checked {n:,}/{total:,}\n")) \
            if progress else None
        results = check(cands, report)
        kept: list[DebianProgram] = []
        kept_files: set[str] = set()
        for c, r in zip(cands, results):
            if r["status"] != "normal":
                continue
            p = to_program(dataclasses.replace(c, statements=[c.statements[i] for i in r["keep"]]))
            if p.program_id in seen:
                skips["duplicate_program"] += 1
                continue
            seen.add(p.program_id)
            kept.append(p)
            kept_files.add(c.file)
        programs.extend(kept)
        stats["per_source"][source] = _source_stats(source, cands, results, skips, kept, kept_files)
    stats["programs"] = len(programs)
    stats["held_out_programs"] = sum(is_held_out(p.split_id) for p in programs)
    stats["seconds"] = round(time.time() - started, 1)
    return Extraction(programs, stats)


def save(extraction: Extraction, path: Path) -> None:
    data = {"format": SNAPSHOT_FORMAT, "stats": extraction.stats, "programs": [dataclasses.asdict(p) for p in extraction.programs]}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as handle:
        json.dump(data, handle)
    os.replace(tmp, path)  # whole or not at all: workers may read it meanwhile


def read(path: Path) -> Extraction:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    if data.get("format") != SNAPSHOT_FORMAT:
        raise DebianMissing(f"{path}: a snapshot of another format ({data.get('format')}, expected {SNAPSHOT_FORMAT})")
    return Extraction([DebianProgram(**p) for p in data["programs"]], data["stats"])


_LOADED: dict[str, Extraction] = {}


def load(progress: bool = False) -> Extraction:
    """The programs: from ``$NDB_DEBIAN_PROGRAMS`` when set, else from the cache, else extracted
    (and cached). Once per process."""
    snapshot = os.environ.get("NDB_DEBIAN_PROGRAMS")
    if snapshot:
        key = f"snapshot:{snapshot}"
        if key not in _LOADED:
            _LOADED[key] = read(Path(snapshot))
        return _LOADED[key]
    roots = _roots()
    if not all(root.is_dir() for root in roots.values()):
        extract()  # raises DebianMissing with what to install
    digest = _digest(roots)
    if digest not in _LOADED:
        path = cache_dir() / f"debian-{digest}.json.gz"
        if path.exists():
            _LOADED[digest] = read(path)
        else:
            extraction = extract(progress)
            save(extraction, path)
            _LOADED[digest] = extraction
    return _LOADED[digest]


def make_program(rng: random.Random, held: Optional[bool] = None, source: Optional[str] = None) -> Optional[DebianProgram]:
    """A random program (None when there is none): every program of the split equally likely,
    so each source is drawn in proportion to the programs it gives (``--stats``)."""
    programs = load().select(held, source)
    return rng.choice(programs) if programs else None


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.data.debian", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stats", action="store_true", help="print the counts per source")
    ap.add_argument("--n", type=int, default=0, help="print this many random programs as JSONL")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--source", choices=SOURCES, default=None)
    ap.add_argument("--held-out", action="store_true", help="draw only held-out programs")
    ap.add_argument("--write", type=Path, default=None, help="write all programs as a snapshot (.json.gz)")
    args = ap.parse_args(argv)
    try:
        extraction = load(progress=True)
    except DebianMissing as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.write:
        save(extraction, args.write)
        print(f"wrote {len(extraction.programs):,} programs to {args.write}", file=sys.stderr)
    if args.stats or not (args.n or args.write):
        print(json.dumps(extraction.stats, indent=2))
    for i in range(args.n):
        p = make_program(random.Random(f"{args.seed}:{i}"), True if args.held_out else None, args.source)
        if p is not None:
            print(json.dumps(dataclasses.asdict(p)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
