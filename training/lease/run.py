"""The lease's trainer: live data, a wall-clock budget, bf16 weights in parts at the end.

    python3 -m training.lease.run --config training/configs/gpu-lease-20m.json --out $OUT --minutes 8

``training/lease.sh`` calls it (read that first). What it does that ``training.train`` does not:

- **a deadline, not a step count**: the run ends ``reserve_s`` before ``--deadline`` (or ``--minutes``
  after its start), however long the machine took to start workers or compile, and its learning
  rate decays over the last ``decay_frac`` of the training time (``lr_at_fraction``), so a stop at
  the time limit is a finished schedule, not an undecayed snapshot;
- **live data** (``data/live_source.py``) from workers on the machine's spare cores, windows that
  start at a document, a per-program timeout, and how many fresh tokens the workers made beside
  the tokens trained (when the GPU is faster, windows are reused from the buffer: the log says so);
- bf16 autocast where it pays (``train.pick_precision``), ``torch.compile`` when this torch has it
  and it works (a failure falls back to eager, logged), fused AdamW on CUDA, a thread that prepares
  the next batches while the GPU works;
- **the way back**: every ``snapshot_every_s`` and at the end, the weights as bf16 in parts of at
  most 15 MiB with ``manifest.json`` (``parts.py``: names, shapes, sha256 of each part, the model's
  configuration, step, tokens seen, the log), no optimizer state. The final manifest also carries
  the validation loss of the weights as trained and after rounding to bf16, so that the cost of the
  way back is measured, not assumed.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import hashlib
import json
import os
import platform
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Optional

import torch

from training.data.recipe import ROOT, Recipe
from training.data.token_classes import CLASSES, class_weights
from training.lease.parts import MANIFEST, MAX_FILES, MAX_TOTAL_BYTES, MIB, PartsError, check_out_dir, plan_parts, read_parts, write_parts
from training.model import Decoder, ModelConfig
from training.tokenizer import NdbTokenizer
from training.train import Batch, autocast, evaluate, keep_freed_memory, masked_loss, param_groups, pick_precision, validation_set, weigh_batch

STARTED = time.time()


def log(line: str) -> None:
    """One line of the lease's log (lease.sh keeps it in $OUT/lease.log), with the seconds since start."""
    print(f"[{time.time() - STARTED:7.1f} s] {line}", file=sys.stderr, flush=True)


def lr_at_fraction(step: int, frac: float, cfg: dict[str, Any]) -> float:
    """The learning rate at optimizer step ``step`` when ``frac`` of the training time is spent:
    a linear warm-up over ``warmup`` steps, ``lr`` held, then a linear decay to ``min_lr`` over the
    last ``decay_frac`` of the time; ``min_lr`` from ``frac`` >= 1 on. A run stopped by its clock
    therefore ends decayed, whatever the speed of the machine."""
    lr, low = float(cfg["lr"]), float(cfg["min_lr"])
    decay_frac = float(cfg.get("decay_frac", 0.25))
    if frac >= 1.0:
        return low
    rate = lr
    decay_start = 1.0 - decay_frac
    if frac > decay_start:
        rate = lr + (low - lr) * (frac - decay_start) / max(1e-9, decay_frac)
    warmup = int(cfg.get("warmup", 0))
    if step < warmup:
        rate = min(rate, lr * (step + 1) / warmup)
    return rate


class Prefetcher:
    """Batches drawn (and weighted by token class) by a thread while the device computes; the live
    source is used by this thread alone from its start."""

    def __init__(self, draw: Callable[[], Batch], pin: bool, depth: int = 3) -> None:
        self.draw = draw
        self.pin = pin
        self.q: "queue.Queue[Any]" = queue.Queue(maxsize=depth)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stop.is_set():
                batch = self.draw()
                if self.pin:
                    batch = tuple(t.pin_memory() for t in batch)  # type: ignore[assignment]
                while not self.stop.is_set():
                    try:
                        self.q.put(batch, timeout=0.5)
                        break
                    except queue.Full:
                        continue
        except BaseException as exc:  # noqa: BLE001 - handed to the training loop, which raises it
            self.q.put(exc)

    def get(self) -> Batch:
        item = self.q.get()
        if isinstance(item, BaseException):
            raise RuntimeError(f"drawing a batch failed: {item!r}") from item
        return item

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=30)


def load_init(model: Decoder, path: Path) -> str:
    """Weights to start from: a checkpoint (``training.train``'s, ``import_onnx``'s, or one
    ``unpack`` wrote) or a lease's output folder (its bf16 parts). Its configuration must be the
    model's."""
    if path.is_dir():
        arrays, manifest = read_parts(path)
        if ModelConfig.from_dict(manifest["model_config"]) != model.cfg:
            raise SystemExit(f"--init {path}: its model configuration differs from the config's")
        load_named(model, {k: torch.from_numpy(v) for k, v in arrays.items()})
        return f"the bf16 weights of the lease {path} (step {manifest.get('step')})"
    ckpt = torch.load(path, map_location="cpu")
    if ModelConfig.from_dict(ckpt["model_config"]) != model.cfg:
        raise SystemExit(f"--init {path}: its model configuration differs from the config's")
    model.load_state_dict(ckpt["model"])
    return f"the checkpoint {path}"


def load_named(model: Decoder, tensors: dict[str, torch.Tensor]) -> None:
    """Sets every parameter of ``model`` from ``tensors`` (named as ``named_parameters`` names them:
    a tied output projection is the embedding), failing on any missing, extra or misshapen one."""
    params = dict(model.named_parameters())
    missing, extra = sorted(set(params) - set(tensors)), sorted(set(tensors) - set(params))
    if missing or extra:
        raise ValueError(f"weights do not fit the model: missing {missing}, unexpected {extra}")
    with torch.no_grad():
        for name, p in params.items():
            if tuple(tensors[name].shape) != tuple(p.shape):
                raise ValueError(f"{name}: shape {tuple(tensors[name].shape)}, the model has {tuple(p.shape)}")
            p.copy_(tensors[name].to(p.dtype))


def sha256_file(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def bf16_rounded(model: Decoder) -> Decoder:
    """A copy whose weights went through bf16, as the parts carry them."""
    twin = copy.deepcopy(model)
    with torch.no_grad():
        for p in twin.parameters():
            p.copy_(p.to(torch.bfloat16).to(p.dtype))
    return twin


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m training.lease.run", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path, help="where the parts, manifest.json go ($OUT on the device machine)")
    ap.add_argument("--minutes", type=float, default=8.0, help="the whole run's budget from its start (default 8)")
    ap.add_argument("--deadline", type=float, default=None, help="instead of --minutes: the Unix time by which to be done")
    ap.add_argument("--tokenizer", type=Path, default=ROOT / "public" / "models" / "ndb-cpu-6m")
    ap.add_argument("--recipe", type=Path, default=None, help="default: the config's data.recipes[0]")
    ap.add_argument("--seed", type=int, default=None, help="the data's seed (default: the config's data.seed, else the recipe's)")
    ap.add_argument("--workers", type=int, default=None, help="data workers (default: the config's lease.workers, else cores - 2)")
    ap.add_argument("--worker-python", default=None, help="the interpreter of the data workers (default: this one; Python >= 3.12)")
    ap.add_argument("--init", type=Path, default=None, help="start from these weights: a checkpoint or a lease's output folder")
    ap.add_argument("--ahead", type=Path, default=None,
                    help="shards built ahead (training/ahead.py) to train on beside the live workers "
                         "(default: runs/lease-carry/shards when lease.sh --pack --shards put them there)")
    ap.add_argument("--threads", type=int, default=None, help="CPU threads for torch on a machine without CUDA (default 2)")
    ap.add_argument("--part-mib", type=float, default=None, help="the size of a part (default: the config's lease.part_mib, 15)")
    args = ap.parse_args(argv)

    deadline = args.deadline if args.deadline is not None else STARTED + 60 * args.minutes
    config = json.loads(args.config.read_text())
    tcfg, lcfg, dcfg = config["train"], config.get("lease", {}), config.get("data", {})
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)

    # -- what can be known before anything starts: the model fits the way back ------------------
    tok = NdbTokenizer.load(args.tokenizer)
    mcfg = ModelConfig.from_dict({**config["model"], "vocab_size": tok.vocab_size})
    torch.manual_seed(int(tcfg.get("seed", 1234)))
    model = Decoder(mcfg)
    n_params = model.num_parameters()
    part_bytes = int(float(args.part_mib if args.part_mib is not None else lcfg.get("part_mib", 15)) * MIB)
    max_parts = int(lcfg.get("max_parts", MAX_FILES - 3))  # beside the manifest, the log and one file in flight
    weight_bytes = 2 * n_params
    if plan_parts(weight_bytes, part_bytes) > max_parts or weight_bytes > MAX_TOTAL_BYTES - 2 * MIB:
        log(f"error: {n_params:,} parameters are {weight_bytes / MIB:.1f} MiB in bf16: more than {max_parts} parts of "
            f"{part_bytes / MIB:g} MiB or than the 64 MiB that come back")
        return 2
    log(f"model: {n_params:,} parameters ({mcfg.n_layers} x {mcfg.dim}, {mcfg.n_heads} heads, {mcfg.n_kv_heads} kv), "
        f"{weight_bytes / MIB:.1f} MiB in bf16 = {plan_parts(weight_bytes, part_bytes)} part(s) of <= {part_bytes / MIB:g} MiB")
    init_note = load_init(model, args.init) if args.init is not None else None
    if init_note:
        log(f"starting from {init_note}")

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
        log(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}, Python {platform.python_version()}")
    else:
        torch.set_num_threads(args.threads or max(1, min(2, os.cpu_count() or 1)))
        keep_freed_memory()
        log(f"device: CPU ({torch.get_num_threads()} threads), torch {torch.__version__}, Python {platform.python_version()}")
    precision = pick_precision(device, str(tcfg.get("precision", "auto")))
    model.to(device)

    # -- data ------------------------------------------------------------------------------------
    from training.data.live_source import LiveSource

    recipes = [str(r) for r in dcfg.get("recipes", [])] if isinstance(dcfg, dict) else []
    recipe_path = args.recipe if args.recipe is not None else (ROOT / recipes[0] if recipes else None)
    recipe = Recipe.load(recipe_path) if recipe_path is not None else Recipe()
    seed = args.seed if args.seed is not None else dcfg.get("seed") if isinstance(dcfg, dict) else None
    if seed is not None:
        recipe = dataclasses.replace(recipe, seed=int(seed))
    # fields of the recipe the lease draws otherwise (e.g. trace_reuse: more trajectories per trace)
    overrides = dcfg.get("recipe", {}) if isinstance(dcfg, dict) else {}
    if overrides:
        recipe = Recipe.from_dict({**recipe.to_dict(), **overrides})
    workers = args.workers or int(lcfg.get("workers", 0) or 0) or max(1, (os.cpu_count() or 2) - 2)
    log(f"data: the recipe {recipe_path or '(defaults)'} on seed {recipe.seed}, window {recipe.window}, "
        f"{recipe.per_program} x {recipe.trace_reuse} trajectories a trace, {workers} worker(s) "
        f"under {args.worker_python or sys.executable}, a program given up after {recipe.hard_timeout:g} s")
    # data that never comes must end the run while there is time to say so, not at the call's limit
    wait = max(60.0, deadline - time.time() - float(tcfg.get("reserve_s", 40)))
    source = LiveSource(args.tokenizer, recipe, workers=workers, worker_python=args.worker_python, log=log,
                        buffer_tokens=int(lcfg.get("buffer_tokens", 200_000_000)), wait_timeout=wait)
    ahead_dir = args.ahead if args.ahead is not None else (ROOT / "runs" / "lease-carry" / "shards")
    if ahead_dir.is_dir():
        from training.ahead import done_chunks, read_chunk

        chunks = done_chunks(ahead_dir)
        t0 = time.time()
        for c in chunks:
            source.carry(read_chunk(Path(c["dir"]), "train"))
        log(f"carried: {len(chunks)} chunk(s) built ahead in {ahead_dir} (seeds {', '.join(str(c['seed']) for c in chunks) or 'none'}): "
            f"{source.carried_tokens:,} train tokens, decompressed in {time.time() - t0:.1f} s")
    elif args.ahead is not None:
        raise SystemExit(f"--ahead {args.ahead}: no such folder")
    table = class_weights(tcfg.get("class_weights"))
    log("loss weights: " + ", ".join(f"{n} {v:g}" for n, v in zip(CLASSES, table)))

    # -- optimizer and compilation ---------------------------------------------------------------
    betas = (0.9, 0.95)
    fused = False
    if device == "cuda":
        try:
            opt = torch.optim.AdamW(param_groups(model, tcfg["weight_decay"]), lr=tcfg["lr"], betas=betas, fused=True)
            fused = True
        except (TypeError, RuntimeError) as exc:
            log(f"fused AdamW unavailable ({exc}); the plain one")
            opt = torch.optim.AdamW(param_groups(model, tcfg["weight_decay"]), lr=tcfg["lr"], betas=betas)
    else:
        opt = torch.optim.AdamW(param_groups(model, tcfg["weight_decay"]), lr=tcfg["lr"], betas=betas)
    forward: torch.nn.Module = model
    compiled = "off"
    if tcfg.get("compile", True):
        if hasattr(torch, "compile"):
            forward = torch.compile(model)  # compiles at the first step, which is guarded below
            compiled = "pending"
        else:
            compiled = f"unavailable in torch {torch.__version__}"
    log(f"precision {precision}" + (f" (this CPU {'has' if 'avx512_bf16' in Path('/proc/cpuinfo').read_text() else 'lacks'} bf16)" if device == "cpu" else "")
        + f", AdamW {'fused' if fused else 'plain'}, torch.compile {compiled}")

    val_set = validation_set(source, tcfg)
    log(f"validation: {len(val_set)} batches of {tcfg['batch_size']} x {tcfg['seq_len']} from {len(source.docs['val']):,} held-out tokens")

    bs, seq, accum = int(tcfg["batch_size"]), int(tcfg["seq_len"]), int(tcfg.get("grad_accum", 1))
    prefetch = Prefetcher(lambda: weigh_batch(source.batch(bs, seq, split="train"), table), pin=device == "cuda")
    entries: list[dict[str, Any]] = []
    reserve = float(tcfg.get("reserve_s", 40))
    train_start = time.time()
    train_end = deadline - reserve
    if train_end - train_start < 10:
        log(f"error: {train_end - train_start:.0f} s left to train once set up (deadline in {deadline - train_start:.0f} s, reserve {reserve:g} s)")
        prefetch.close()
        source.close()
        return 2
    log(f"training for {train_end - train_start:.0f} s: lr {tcfg['lr']:g} after {tcfg.get('warmup', 0)} warm-up steps, "
        f"decaying to {tcfg['min_lr']:g} over the last {float(tcfg.get('decay_frac', 0.25)):.0%} of the time")

    def snapshot(step: int, tokens: int, final: bool, extra: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        meta = {
            "final": final, "step": step, "tokens": tokens, "fresh_tokens": source.produced_tokens,
            "model_config": mcfg.to_dict(), "parameters": n_params, "config": config, "recipe": recipe.to_dict(),
            "tokenizer": {"dir": str(args.tokenizer), "tokenizer_json_sha256": sha256_file(args.tokenizer / "tokenizer.json")},
            "init": init_note, "precision": precision, "compile": compiled, "fused_adamw": fused,
            "device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu", "torch": torch.__version__,
            "python": platform.python_version(), "worker_python": args.worker_python or sys.executable,
            "wall_s": round(time.time() - STARTED, 1), "log": entries, **(extra or {}),
        }
        return write_parts(out, list(model.named_parameters()), meta, part_bytes=part_bytes, max_parts=max_parts)

    step, tokens, last_snap = 0, 0, time.time()
    tokens_per_step = bs * seq * accum
    running = torch.zeros((), device=device)
    t_log, tok_log = time.time(), 0
    log_every, eval_every = int(tcfg.get("log_every", 50)), int(tcfg.get("eval_every", 500))
    snap_every = float(tcfg.get("snapshot_every_s", 120))
    lr = 0.0
    try:
        while True:
            now = time.time()
            frac = (now - train_start) / (train_end - train_start)
            if frac >= 1.0:
                break
            lr = lr_at_fraction(step, frac, tcfg)
            for group in opt.param_groups:
                group["lr"] = lr
            batches = [prefetch.get() for _ in range(accum)]
            for attempt in range(2):
                try:
                    total = torch.zeros((), device=device)
                    for x, y, w in batches:
                        x, y, w = (t.to(device, non_blocking=True) for t in (x, y, w))
                        with autocast(device, precision):
                            logits = forward(x)
                        loss = masked_loss(logits, y, w) / accum
                        loss.backward()
                        total += loss.detach()
                    break
                except Exception as exc:  # noqa: BLE001 - only the first, compiled step may fail over
                    if compiled != "pending" or attempt:
                        raise
                    log(f"torch.compile failed at the first step ({type(exc).__name__}: {str(exc)[:300]}); training eager")
                    opt.zero_grad(set_to_none=True)
                    forward, compiled = model, f"failed ({type(exc).__name__}), eager"
            if compiled == "pending":
                compiled = "on"
                log(f"first step done (torch.compile on) after {time.time() - train_start:.1f} s")
            torch.nn.utils.clip_grad_norm_(model.parameters(), tcfg["grad_clip"])
            opt.step()
            opt.zero_grad(set_to_none=True)
            running += total
            step += 1
            tokens += tokens_per_step
            tok_log += tokens_per_step
            if step % log_every == 0:
                now = time.time()
                entry: dict[str, Any] = {"step": step, "loss": round(float(running.item()) / log_every, 5), "lr": lr,
                                         "tok_s": round(tok_log / max(1e-9, now - t_log)), "tokens": tokens,
                                         "fresh_tokens": source.produced_tokens, "time": round(now - train_start, 1),
                                         "precision": precision, "programs": source.stats.unique, "hung": source.stream.killed}
                if step % eval_every == 0:
                    entry.update(evaluate(model, val_set, device, precision, table))
                entries.append(entry)
                print(json.dumps(entry), file=sys.stderr, flush=True)
                running.zero_()
                t_log, tok_log = time.time(), 0
            if time.time() - last_snap >= snap_every:
                snapshot(step, tokens, final=False)
                last_snap = time.time()
                log(f"snapshot at step {step} in {out}")
    finally:
        prefetch.close()

    if device == "cuda":
        torch.cuda.synchronize()
    final: dict[str, Any] = {"step": step, "tokens": tokens, "fresh_tokens": source.produced_tokens, "lr": lr,
                             "time": round(time.time() - train_start, 1), "precision": precision}
    final.update(evaluate(model, val_set, device, precision, table))
    rounded = evaluate(bf16_rounded(model), val_set, device, precision, table)
    final["val_loss_bf16_weights"] = rounded["val_loss"]
    entries.append(final)
    print(json.dumps(final), file=sys.stderr, flush=True)
    data = source.stats.report({"fresh_train_tokens": source.produced_tokens, "carried_train_tokens": source.carried_tokens,
                                "hung_programs": source.stream.killed})
    source.close()
    manifest = snapshot(step, tokens, final=True, extra={"data_stats": data, "val_loss": final["val_loss"],
                                                         "val_loss_bf16_weights": final["val_loss_bf16_weights"]})
    fresh = source.produced_tokens + source.carried_tokens
    use = (f"each fresh token trained on {tokens / max(1, fresh):.1f} times on average" if tokens > fresh else
           f"the workers and the carried shards held {fresh / max(1, tokens):.1f} times what was trained")
    log(f"done: {step} steps, {tokens:,} tokens trained ({fresh:,} fresh: {source.carried_tokens:,} carried, built ahead, and "
        f"{source.produced_tokens:,} made live from {data['programs']['unique']:,} programs: "
        f"{use}), val loss {final['val_loss']:.4f} ({final['val_loss_bf16_weights']:.4f} "
        f"with the weights in bf16), lr at the end {lr:.3g}, torch.compile {compiled}")
    log(f"wrote {len(manifest['parts'])} part(s), {manifest['bytes'] / MIB:.1f} MiB, and {MANIFEST} to {out}")
    problems = check_out_dir(out)
    for p in problems:
        log(f"warning: {p}")
    return 0


if __name__ == "__main__":
    try:
        code = main()
    except PartsError as exc:
        log(f"error: {exc}")
        code = 2
    raise SystemExit(code)
