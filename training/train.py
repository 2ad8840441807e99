"""Trains the neural debugger: `python3 -m training.train --config training/configs/tiny.json --data DIR --out DIR`.

bf16 autocast, AdamW (weight decay on linear matrices only), linear warmup to the config's `lr` then
cosine decay to `min_lr` over the config's `steps`, counted from the run's own step 0; `--init`
starts a run (a new phase) from earlier weights, `--resume` goes on with an interrupted one. Loss logged
to `OUT/log.jsonl` and plotted to `OUT/loss.svg`. Under `torchrun` it trains with DDP (one process a
device); the same code runs on torch 1.13 (CPU) and torch 2.x (CUDA).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.distributed as dist

from training.data.token_classes import CLASSES, class_weights, target_classes
from training.data.token_source import ShardSource, TokenSource
from training.model import Decoder, ModelConfig
from training.plot import plot_losses


def keep_freed_memory() -> bool:
    """Tells glibc's malloc to keep freed blocks instead of giving them back to the kernel at once.

    On the CPU each step allocates and frees the same large activation and gradient buffers; by
    default glibc maps and unmaps them with mmap/munmap every step, and the kernel zeroes the pages
    again each time. Measured on this project's 2-core machine (3.4 M model, batch 16 x 512):
    about 4,500 tokens/s by default against about 11,600 with these limits raised (the training
    log of ndb-cpu-6m says how). Returns whether the limits were set (glibc only)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    m_trim_threshold, m_top_pad, m_mmap_threshold = -1, -2, -3
    big = 1 << 30
    return all(libc.mallopt(option, value) == 1 for option, value in ((m_mmap_threshold, big), (m_trim_threshold, big), (m_top_pad, 1 << 28)))


def lr_at(step: int, cfg: dict[str, Any]) -> float:
    """Linear warm-up to `lr`, then a cosine to `min_lr` at `steps`; or, with `"schedule": "wsd"`,
    `lr` held until the last `decay_steps` and a linear decay to `min_lr` over those. A wsd run can
    end whenever the machine's time does: resume it with `--steps` = its step + `decay_steps`."""
    if step < cfg["warmup"]:
        return cfg["lr"] * (step + 1) / cfg["warmup"]
    if cfg.get("schedule", "cosine") == "wsd":
        decay_start = max(cfg["warmup"], cfg["steps"] - int(cfg["decay_steps"]))
        if step < decay_start:
            return cfg["lr"]
        progress = min(1.0, (step - decay_start) / max(1, cfg["steps"] - decay_start))
        return cfg["lr"] + (cfg["min_lr"] - cfg["lr"]) * progress
    progress = min(1.0, (step - cfg["warmup"]) / max(1, cfg["steps"] - cfg["warmup"]))
    return cfg["min_lr"] + 0.5 * (cfg["lr"] - cfg["min_lr"]) * (1 + math.cos(math.pi * progress))


def out_of_time(started: float, max_minutes: float, distributed: bool, device: str) -> bool:
    """Whether to stop now; under DDP every rank stops at the same step (rank 0's clock decides)."""
    late = torch.tensor([1.0 if (time.time() - started) / 60 > max_minutes else 0.0], device=device)
    if distributed:
        dist.broadcast(late, src=0)
    return bool(late.item())


def load_config(path: str | Path) -> dict[str, Any]:
    with open(path) as handle:
        return json.load(handle)


def save_checkpoint(path: Path, model: Decoder, opt: torch.optim.Optimizer, step: int, config: dict[str, Any]) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(
        {"model": model.state_dict(), "optim": opt.state_dict(), "step": step, "config": config,
         "model_config": model.cfg.to_dict()},
        tmp,
    )
    os.replace(tmp, path)  # never leave a half-written checkpoint behind


def load_model(path: str | Path, device: str = "cpu") -> Decoder:
    ckpt = torch.load(path, map_location=device)
    model = Decoder(ModelConfig.from_dict(ckpt["model_config"]))
    model.load_state_dict(ckpt["model"])
    return model


Batch = tuple[torch.Tensor, torch.Tensor, torch.Tensor]


def cpu_has_bf16() -> bool:
    """Whether this CPU computes bf16 in hardware (AVX-512 BF16 or AMX). Without it, bf16 autocast
    is emulated: 15-30x slower than fp32 on an AMD EPYC of these machines (AVX2 and FMA only)."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


def pick_precision(device: str, wanted: str = "auto") -> str:
    """"bf16" or "fp32": the config's ``"precision"``, or, with "auto", bf16 on CUDA and on CPUs with
    bf16 in hardware, fp32 elsewhere."""
    if wanted not in ("auto", "bf16", "fp32"):
        raise SystemExit(f'train.precision must be "auto", "bf16" or "fp32", not {wanted!r}')
    if wanted != "auto":
        return wanted
    return "bf16" if device.startswith("cuda") or cpu_has_bf16() else "fp32"


def weigh_batch(batch: Batch, table: "np.ndarray | None") -> Batch:
    """Multiplies a batch's weights by the weight of each target's class (token_classes.py)."""
    if table is None:
        return batch
    x, y, w = batch
    classes = target_classes(x.numpy(), y.numpy())
    return x, y, w * torch.from_numpy(table[classes])


def validation_set(source: TokenSource, cfg: dict[str, Any]) -> list[Batch]:
    """Validation batches drawn once, so that every point of the val-loss curve is measured on the
    same windows (redrawn batches made the curve move by ±0.3 from noise alone)."""
    n = max(1, int(cfg.get("val_batches", 16)))
    fill = getattr(source, "fill", None)
    if fill is not None:  # a live source: wait for enough held-out programs, not the first one or two
        fill("val", min(n * cfg["batch_size"] * cfg["seq_len"], 200_000))
    return [source.batch(cfg["batch_size"], cfg["seq_len"], split="val") for _ in range(n)]


@torch.no_grad()
def evaluate(model: torch.nn.Module, batches: list[Batch], device: str, precision: str = "bf16",
             table: "np.ndarray | None" = None) -> dict[str, float]:
    """The validation loss as trained (``val_loss``, weighted by the class table) and the mean loss
    of each token class (``val_CLASS``), measured on the same fixed batches every time."""
    model.eval()
    weighted, sums, counts = [], np.zeros(len(CLASSES)), np.zeros(len(CLASSES))
    for batch in batches:
        x, y, w = batch
        classes = torch.from_numpy(target_classes(x.numpy(), y.numpy()).astype(np.int64))
        xd, yd, wd = (t.to(device) for t in weigh_batch(batch, table))
        with autocast(device, precision):
            logits = model(xd)
        weighted.append(masked_loss(logits, yd, wd).item())
        per_token = torch.nn.functional.cross_entropy(logits.float().view(-1, logits.shape[-1]), yd.view(-1), reduction="none").cpu()
        mask = w.view(-1) > 0  # padding stays out
        flat = classes.view(-1)
        for k in range(len(CLASSES)):
            sel = mask & (flat == k)
            sums[k] += float(per_token[sel].sum())
            counts[k] += int(sel.sum())
    model.train()
    out = {"val_loss": sum(weighted) / len(weighted)}
    for k, name in enumerate(CLASSES):
        if counts[k]:
            out[f"val_{name}"] = sums[k] / counts[k]
    return out


def masked_loss(logits: torch.Tensor, targets: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    loss = torch.nn.functional.cross_entropy(logits.float().view(-1, logits.shape[-1]), targets.view(-1), reduction="none")
    w = weights.view(-1).float()
    return (loss * w).sum() / w.sum().clamp(min=1.0)


def autocast(device: str, precision: str = "bf16") -> Any:
    kind = "cuda" if device.startswith("cuda") else "cpu"
    return torch.autocast(kind, dtype=torch.bfloat16, enabled=precision == "bf16")


def progress_line(step: int, total: int, loss: float, tok_s: float) -> str:
    width = 30
    done = int(width * step / max(1, total))
    return f"\r[{'#' * done}{'.' * (width - done)}] step {step}/{total} loss {loss:.4f} {tok_s:,.0f} tok/s"


def param_groups(model: torch.nn.Module, weight_decay: float) -> list[dict[str, Any]]:
    """Weight decay on the matrices of the linear layers only: decaying norm gains pulls them
    towards zero, and decaying the (tied) embedding shrinks rare tokens' vectors."""
    decay, no_decay, seen = [], [], set()
    for name, p in model.named_parameters():
        if id(p) in seen:
            continue
        seen.add(id(p))
        is_matrix = p.dim() == 2 and "embed_tokens" not in name and "lm_head" not in name
        (decay if is_matrix else no_decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]


def train(
    config: dict[str, Any],
    source: TokenSource,
    out: Path,
    resume: bool = False,
    max_minutes: float | None = None,
    threads: int | None = None,
    init: Path | None = None,
) -> Path:
    distributed = "WORLD_SIZE" in os.environ and int(os.environ["WORLD_SIZE"]) > 1
    rank = 0
    if distributed:
        dist.init_process_group("nccl" if torch.cuda.is_available() else "gloo")
        rank = dist.get_rank()
    device = f"cuda:{int(os.environ.get('LOCAL_RANK', 0))}" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda"):
        torch.cuda.set_device(device)
        torch.backends.cuda.matmul.allow_tf32 = True
    else:
        torch.set_num_threads(threads or max(1, min(2, os.cpu_count() or 1)))
        keep_freed_memory()
    tcfg = config["train"]
    mcfg = ModelConfig.from_dict({**config["model"], "vocab_size": source.vocab_size})
    torch.manual_seed(1234 + rank)
    model = Decoder(mcfg).to(device)
    opt = torch.optim.AdamW(param_groups(model, tcfg["weight_decay"]), lr=tcfg["lr"], betas=(0.9, 0.95))
    out.mkdir(parents=True, exist_ok=True)
    ckpt_path = out / "checkpoint.pt"
    step = 0
    if init is not None and not (resume and ckpt_path.exists()):
        start = torch.load(init, map_location=device)
        if ModelConfig.from_dict(start["model_config"]) != mcfg:
            raise SystemExit(f"--init {init}: its model configuration differs from the config's")
        model.load_state_dict(start["model"])
        if rank == 0:
            print(f"starting from the weights of {init} (a new schedule from step 0)", file=sys.stderr)
    if resume and ckpt_path.exists():
        ckpt = torch.load(ckpt_path, map_location=device)
        model.load_state_dict(ckpt["model"])
        opt.load_state_dict(ckpt["optim"])
        step = ckpt["step"]
        if rank == 0:
            print(f"resumed from step {step}", file=sys.stderr)
    wrapped: torch.nn.Module = model
    if distributed:
        wrapped = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device] if device.startswith("cuda") else None)
    precision = pick_precision(device, str(tcfg.get("precision", "auto")))
    table = class_weights(tcfg["class_weights"]) if "class_weights" in tcfg else None
    if rank == 0:
        print(f"model: {model.num_parameters():,} parameters on {device}, {precision}"
              + (f" (this CPU {'has' if cpu_has_bf16() else 'lacks'} bf16 in hardware)" if device == "cpu" else ""), file=sys.stderr)
        if table is not None:
            print("loss weights: " + ", ".join(f"{n} {v:g}" for n, v in zip(CLASSES, table)), file=sys.stderr)
    log = open(out / "log.jsonl", "a")
    val_set = validation_set(source, tcfg) if rank == 0 else []
    started = time.time()
    world = dist.get_world_size() if distributed else 1
    tokens_per_step = tcfg["batch_size"] * tcfg["seq_len"] * tcfg["grad_accum"] * world
    tokens_seen = 0
    t_last = time.time()
    while step < tcfg["steps"]:
        for group in opt.param_groups:
            group["lr"] = lr_at(step, tcfg)
        total = 0.0
        for _ in range(tcfg["grad_accum"]):
            batch = weigh_batch(source.batch(tcfg["batch_size"], tcfg["seq_len"], split="train"), table)
            x, y, w = (t.to(device, non_blocking=True) for t in batch)
            with autocast(device, precision):
                logits = wrapped(x)
            loss = masked_loss(logits, y, w) / tcfg["grad_accum"]
            loss.backward()
            total += loss.item()
            tokens_seen += x.numel()
        torch.nn.utils.clip_grad_norm_(model.parameters(), tcfg["grad_clip"])
        opt.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        if rank == 0:
            now = time.time()
            tok_s = tokens_seen / max(1e-9, now - t_last)
            if step % tcfg["log_every"] == 0 or step == tcfg["steps"]:
                entry: dict[str, Any] = {"step": step, "loss": total, "lr": lr_at(step - 1, tcfg), "tok_s": tok_s, "time": now - started,
                                          "tokens": step * tokens_per_step, "precision": precision}
                if step % tcfg["eval_every"] == 0 or step == tcfg["steps"]:
                    entry.update(evaluate(model, val_set, device, precision, table))
                log.write(json.dumps(entry) + "\n")
                log.flush()
                tokens_seen, t_last = 0, now
            sys.stderr.write(progress_line(step, tcfg["steps"], total, tok_s))
            if step % tcfg["ckpt_every"] == 0 or step == tcfg["steps"]:
                save_checkpoint(ckpt_path, model, opt, step, config)
        if max_minutes is not None and out_of_time(started, max_minutes, distributed, device):
            if rank == 0:
                save_checkpoint(ckpt_path, model, opt, step, config)
                print(f"\nstopping after {max_minutes} minutes at step {step}; resume with --resume", file=sys.stderr)
            break

    if rank == 0:
        sys.stderr.write("\n")
        log.close()
        plot_losses(out / "log.jsonl", out / "loss.svg")
    if distributed:
        dist.destroy_process_group()
    return ckpt_path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--config", required=True)
    parser.add_argument("--data", help="a folder of token shards (training.build_dataset)")
    parser.add_argument("--live", metavar="TOKENIZER_DIR",
                        help="instead of --data: draw trajectories on the fly from worker processes (Python >= 3.12)")
    parser.add_argument("--recipe", type=Path, default=None,
                        help="with --live: the recipe to draw (training/recipes/); default: the one the config's "
                             "\"data\" names, if it names one, else the recipe defaults")
    parser.add_argument("--out", required=True)
    parser.add_argument("--resume", action="store_true", help="go on from OUT/checkpoint.pt (weights, optimizer, step)")
    parser.add_argument("--init", type=Path, default=None,
                        help="start from these weights (a checkpoint, or training.import_onnx's output) with a new "
                             "optimizer and the config's schedule from step 0")
    parser.add_argument("--max-minutes", type=float, default=None, help="stop (and checkpoint) after this long")
    parser.add_argument("--steps", type=int, default=None, help="override the config's step count")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads (default: up to 2)")
    args = parser.parse_args(argv)
    config = load_config(args.config)
    if args.steps is not None:
        config["train"]["steps"] = args.steps
    data = config.get("data", {})  # the recipes of the datasets a phase was trained on: reported, drawn by --live
    recipes = [str(r) for r in data.get("recipes", [])] if isinstance(data, dict) else []
    if recipes and int(os.environ.get("RANK", 0)) == 0:
        print(f"data of this config: {', '.join(recipes)}", file=sys.stderr)
    if args.live:
        from training.data.live_source import LiveSourceError, live_source_from_args
        from training.data.recipe import ROOT, Recipe

        if args.recipe is None and len(recipes) > 1:
            parser.error(f"the config names {len(recipes)} recipes: pick the one --live draws with --recipe")
        path = args.recipe if args.recipe is not None else (ROOT / recipes[0] if recipes else None)
        try:
            recipe = Recipe.load(path) if path is not None else None
            if int(os.environ.get("RANK", 0)) == 0:
                print(f"--live draws the recipe {path or '(defaults)'}", file=sys.stderr)
            source: TokenSource = live_source_from_args(args.live, recipe)
        except (LiveSourceError, RuntimeError, ValueError, OSError) as exc:  # RuntimeError: a missing corpus too
            parser.error(str(exc))
    elif args.data:
        # Each DDP rank draws its own batches.
        source = ShardSource(Path(args.data), seed=int(os.environ.get("RANK", "0")))
    else:
        parser.error("give --data DIR (a built dataset) or --live TOKENIZER_DIR")
    train(config, source, Path(args.out), resume=args.resume, max_minutes=args.max_minutes, threads=args.threads, init=args.init)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
