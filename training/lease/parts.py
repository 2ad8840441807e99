"""Weights in parts for the way back from a lent machine: at most 8 files of at most 16 MiB (64 MiB
in all) come back, so a model's weights travel as bf16 (no optimizer state) cut into parts of at
most ``part_bytes`` (15 MiB by default) beside ``manifest.json``:

    {"format": "ndb-lease-weights/1", "byteorder": "little",
     "tensors": [{"name", "shape", "dtype": "bfloat16", "offset", "nbytes"}, ...],
     "parts": [{"file": "weights-00.bin", "bytes", "sha256"}, ...], "sha256": of all bytes,
     ... whatever the writer adds: the model's configuration, step, tokens seen, the log}

The tensors are laid end to end in one byte stream, which is cut into the parts; ``read_parts``
checks every part's size and hash before it trusts a byte. Reading needs numpy only (bf16 is the
top half of a float32), writing takes torch tensors.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterable

import numpy as np

FORMAT = "ndb-lease-weights/1"
MIB = 1 << 20
PART_BYTES = 15 * MIB
MANIFEST = "manifest.json"
# What the device machine sends back (its README): at most 8 files, 16 MiB each, 64 MiB together,
# names of letters, digits, '.', '_' and '-'.
MAX_FILES, MAX_FILE_BYTES, MAX_TOTAL_BYTES = 8, 16 * MIB, 64 * MIB
NAME_OK = re.compile(r"^[A-Za-z0-9._-]+$")


class PartsError(ValueError):
    pass


def part_name(i: int) -> str:
    return f"weights-{i:02d}.bin"


def bf16_bytes(tensor: Any) -> bytes:
    """A torch tensor as bf16 (rounded to nearest even), little-endian bytes."""
    import torch

    t = tensor.detach().to("cpu", torch.bfloat16).contiguous()
    return t.view(torch.int16).numpy().astype("<i2", copy=False).tobytes()


def bf16_to_float32(raw: bytes) -> np.ndarray:
    """bf16 bytes (little-endian) as float32: each value's 16 bits are the top half of a float32."""
    half = np.frombuffer(raw, dtype="<u2").astype(np.uint32)
    return (half << 16).view(np.float32)


def plan_parts(total_bytes: int, part_bytes: int = PART_BYTES) -> int:
    """How many parts ``total_bytes`` make."""
    return max(1, -(-total_bytes // part_bytes))


def write_parts(out: Path, tensors: Iterable[tuple[str, Any]], meta: dict[str, Any], part_bytes: int = PART_BYTES,
                max_parts: int = 5) -> dict[str, Any]:
    """Writes ``tensors`` (name, torch tensor) as bf16 parts and ``manifest.json`` (with ``meta``)
    into ``out``; returns the manifest.

    A lease writes a snapshot every few minutes into the same names, so that a run killed at its
    time limit still brings back weights. Each write is made whole in a staging folder beside
    ``out`` first, then moved in (renames: milliseconds), the manifest last; only a kill inside that
    instant leaves parts that do not match the manifest, which ``read_parts`` then refuses."""
    out.mkdir(parents=True, exist_ok=True)
    entries, chunks, offset = [], [], 0
    for name, tensor in tensors:
        raw = bf16_bytes(tensor)
        entries.append({"name": name, "shape": list(tensor.shape), "dtype": "bfloat16", "offset": offset, "nbytes": len(raw)})
        chunks.append(raw)
        offset += len(raw)
    stream = b"".join(chunks)
    n = plan_parts(len(stream), part_bytes)
    if n > max_parts:
        raise PartsError(f"{len(stream) / MIB:.1f} MiB of bf16 weights make {n} parts of {part_bytes / MIB:g} MiB; at most {max_parts} may go back")
    staging = _staging_dir(out)
    parts = []
    for i in range(n):
        piece = stream[i * part_bytes : (i + 1) * part_bytes]
        (staging / part_name(i)).write_bytes(piece)
        parts.append({"file": part_name(i), "bytes": len(piece), "sha256": hashlib.sha256(piece).hexdigest()})
    manifest = {**meta, "format": FORMAT, "byteorder": "little", "tensors": entries, "parts": parts,
                "bytes": len(stream), "sha256": hashlib.sha256(stream).hexdigest()}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=1))
    for p in parts:
        shutil.move(str(staging / p["file"]), str(out / p["file"]))
    shutil.move(str(staging / MANIFEST), str(out / MANIFEST))
    shutil.rmtree(staging, ignore_errors=True)
    for stale in out.glob("weights-*.bin"):  # parts of an earlier, larger write
        if stale.name not in {p["file"] for p in parts}:
            stale.unlink()
    return manifest


def _staging_dir(out: Path) -> Path:
    """A fresh folder on the same file system as ``out`` where possible (so that moves are renames),
    never inside it (whatever is under $OUT counts towards the files that come back)."""
    try:
        return Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.resolve().parent))
    except OSError:
        return Path(tempfile.mkdtemp(prefix="ndb-parts-"))


def read_parts(folder: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """({name: float32 array}, manifest) from a folder ``write_parts`` wrote, every part's size and
    sha256 checked first."""
    path = folder / MANIFEST
    if not path.is_file():
        raise PartsError(f"{path} not found: not the output of a lease")
    manifest = json.loads(path.read_text())
    if manifest.get("format") != FORMAT:
        raise PartsError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    if manifest.get("byteorder") != "little":
        raise PartsError(f"{path}: byte order {manifest.get('byteorder')!r} is not supported")
    chunks = []
    for p in manifest["parts"]:
        part = folder / p["file"]
        if not part.is_file():
            raise PartsError(f"{part} is missing")
        data = part.read_bytes()
        if len(data) != p["bytes"]:
            raise PartsError(f"{part}: {len(data)} bytes, the manifest says {p['bytes']}")
        digest = hashlib.sha256(data).hexdigest()
        if digest != p["sha256"]:
            raise PartsError(f"{part}: sha256 {digest} differs from the manifest's {p['sha256']}")
        chunks.append(data)
    stream = b"".join(chunks)
    if len(stream) != manifest["bytes"] or hashlib.sha256(stream).hexdigest() != manifest["sha256"]:
        raise PartsError(f"{folder}: the parts put together do not match the manifest's size and sha256")
    arrays: dict[str, np.ndarray] = {}
    for t in manifest["tensors"]:
        if t["dtype"] != "bfloat16":
            raise PartsError(f"{t['name']}: dtype {t['dtype']} is not supported")
        raw = stream[t["offset"] : t["offset"] + t["nbytes"]]
        count = int(np.prod(t["shape"])) if t["shape"] else 1
        if len(raw) != 2 * count:
            raise PartsError(f"{t['name']}: {len(raw)} bytes for shape {t['shape']}")
        arrays[t["name"]] = bf16_to_float32(raw).reshape(t["shape"])
    return arrays, manifest


def check_out_dir(out: Path) -> list[str]:
    """What would not come back from the device machine's $OUT (empty when all of it does)."""
    problems = []
    files = [p for p in out.rglob("*") if p.is_file()]
    if len(files) > MAX_FILES:
        problems.append(f"{len(files)} files, at most {MAX_FILES} come back")
    total = 0
    for p in files:
        size = p.stat().st_size
        total += size
        if size > MAX_FILE_BYTES:
            problems.append(f"{p.name}: {size / MIB:.1f} MiB, at most 16 MiB a file")
        if not NAME_OK.match(p.name):
            problems.append(f"{p.name}: only letters, digits, '.', '_' and '-' come back")
        if len(p.relative_to(out).parts) > 3:
            problems.append(f"{p.relative_to(out)}: more than 2 folders down")
    if total > MAX_TOTAL_BYTES:
        problems.append(f"{total / MIB:.1f} MiB in all, at most 64 MiB come back")
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python3 -m training.lease.parts OUT``: the files in OUT with their sizes, whether all of them
    come back from the device machine, and whether the parts match their manifest."""
    import argparse
    import sys

    ap = argparse.ArgumentParser(prog="python3 -m training.lease.parts", description=main.__doc__)
    ap.add_argument("folder", type=Path)
    args = ap.parse_args(argv)
    files = sorted(p for p in args.folder.rglob("*") if p.is_file())
    for p in files:
        print(f"  {p.stat().st_size / MIB:8.2f} MiB  {p.relative_to(args.folder)}")
    print(f"  {len(files)} file(s), {sum(p.stat().st_size for p in files) / MIB:.2f} MiB")
    problems = check_out_dir(args.folder)
    try:
        arrays, manifest = read_parts(args.folder)
        print(f"  manifest: {len(arrays)} tensors, {len(manifest['parts'])} part(s), hashes match; step {manifest.get('step')}, "
              f"{manifest.get('tokens')} tokens, final {manifest.get('final')}")
    except (PartsError, OSError, ValueError, KeyError) as exc:
        problems.append(str(exc))
    for p in problems:
        print(f"  problem: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
