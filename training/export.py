"""Exports a checkpoint to the Hugging Face layout that transformers.js loads:

    OUT/config.json, generation_config.json, tokenizer.json, tokenizer_config.json,
    OUT/onnx/model.onnx (fp32, with a KV cache)

`python3 -m training.export --checkpoint RUN/checkpoint.pt --tokenizer TOKDIR --config CONFIG --out public/models/NAME`
(CONFIG: the training config that made the checkpoint; config.json's ``ndb_provenance`` names it,
its parents and their recipes, and the code's commit: training/provenance.py).
Quantized variants are made from the fp32 file by `training.quantize`.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

import torch
from torch import nn

from training.model import Decoder, ModelConfig
from training.provenance import provenance
from training.train import load_model

OPSET = 17


class CachedForward(nn.Module):
    """The graph transformers.js runs: (input_ids, attention_mask, position_ids, past…) → (logits, present…)."""

    def __init__(self, model: Decoder) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, position_ids, *past_flat):  # type: ignore[no-untyped-def]
        past = [(past_flat[2 * i], past_flat[2 * i + 1]) for i in range(len(past_flat) // 2)]
        logits, presents = self.model.forward_cached(input_ids, attention_mask, position_ids, past)
        flat: list[torch.Tensor] = []
        for k, v in presents:
            flat.extend([k, v])
        return (logits, *flat)


def hf_config(cfg: ModelConfig, special: dict[str, int], trained_context: int | None = None,
              origin: dict[str, Any] | None = None) -> dict[str, Any]:
    """config.json; ours beside the Hugging Face keys: ``ndb_trained_context``, the training sequence
    length (positions past it were never trained: the app's sessions keep their prompts within it),
    and ``ndb_provenance`` (training/provenance.py), where the weights come from."""
    extra: dict[str, Any] = {"ndb_trained_context": trained_context} if trained_context else {}
    if origin is not None:
        extra["ndb_provenance"] = origin
    return {
        "model_type": "llama",
        "architectures": ["LlamaForCausalLM"],
        "vocab_size": cfg.vocab_size,
        "hidden_size": cfg.dim,
        "intermediate_size": cfg.hidden_dim,
        "num_hidden_layers": cfg.n_layers,
        "num_attention_heads": cfg.n_heads,
        "num_key_value_heads": cfg.n_kv_heads,
        "head_dim": cfg.head_dim,
        "max_position_embeddings": cfg.max_seq_len,
        "rms_norm_eps": cfg.norm_eps,
        "rope_theta": cfg.rope_theta,
        "hidden_act": "silu",
        "tie_word_embeddings": cfg.tie_embeddings,
        "bos_token_id": special.get("bos", 0),
        "eos_token_id": special.get("eos", 0),
        "pad_token_id": special.get("pad", special.get("eos", 0)),
        "torch_dtype": "float32",
        "use_cache": True,
        **extra,
    }


def export_onnx(model: Decoder, path: Path) -> None:
    model.eval()
    cfg = model.cfg
    wrapper = CachedForward(model)
    batch, new, past_len = 1, 3, 2
    input_ids = torch.randint(0, cfg.vocab_size, (batch, new))
    attention_mask = torch.ones(batch, past_len + new, dtype=torch.int64)
    position_ids = torch.arange(past_len, past_len + new).unsqueeze(0)
    past = []
    input_names = ["input_ids", "attention_mask", "position_ids"]
    output_names = ["logits"]
    dynamic_axes: dict[str, dict[int, str]] = {
        "input_ids": {0: "batch_size", 1: "sequence_length"},
        "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
        "position_ids": {0: "batch_size", 1: "sequence_length"},
        "logits": {0: "batch_size", 1: "sequence_length"},
    }
    for i in range(cfg.n_layers):
        for kind in ("key", "value"):
            past.append(torch.randn(batch, cfg.n_kv_heads, past_len, cfg.head_dim))
            name_in, name_out = f"past_key_values.{i}.{kind}", f"present.{i}.{kind}"
            input_names.append(name_in)
            output_names.append(name_out)
            dynamic_axes[name_in] = {0: "batch_size", 2: "past_sequence_length"}
            dynamic_axes[name_out] = {0: "batch_size", 2: "total_sequence_length"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(
            wrapper,
            (input_ids, attention_mask, position_ids, *past),
            str(path),
            input_names=input_names,
            output_names=output_names,
            dynamic_axes=dynamic_axes,
            opset_version=OPSET,
            do_constant_folding=True,
        )


def export(checkpoint: Path, tokenizer_dir: Path, out: Path, max_new_tokens: int = 512, config: Path | None = None) -> None:
    """``config``: the training config that made ``checkpoint`` (its chain of parents is written
    into config.json); without it the model says nothing of where it comes from."""
    origin = provenance(config) if config is not None else None  # a bad chain fails before any file is written
    model = load_model(checkpoint)
    tok_cfg = json.loads((tokenizer_dir / "tokenizer_config.json").read_text())
    special = tok_cfg.get("ndb_special_ids", {})
    out.mkdir(parents=True, exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json"):
        shutil.copy(tokenizer_dir / name, out / name)
    trained = torch.load(checkpoint, map_location="cpu").get("config", {}).get("train", {}).get("seq_len")
    (out / "config.json").write_text(json.dumps(hf_config(model.cfg, special, trained, origin), indent=2))
    generation = {"do_sample": False, "max_new_tokens": max_new_tokens, "eos_token_id": special.get("eos", 0)}
    (out / "generation_config.json").write_text(json.dumps(generation, indent=2))
    export_onnx(model, out / "onnx" / "model.onnx")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--checkpoint", required=True, type=Path)
    parser.add_argument("--tokenizer", required=True, type=Path, help="folder with tokenizer.json and tokenizer_config.json")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--config", type=Path, default=None,
                        help="the training config that made the checkpoint: config.json names it, its parents and their recipes")
    args = parser.parse_args(argv)
    export(args.checkpoint, args.tokenizer, args.out, config=args.config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
