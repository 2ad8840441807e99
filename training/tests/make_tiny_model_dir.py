"""For TypeScript tests: a complete tiny model folder (random weights, a small tokenizer trained on
the fixture recordings) and PyTorch's logits for a prompt.

    python3 -m training.tests.make_tiny_model_dir OUT_DIR

Writes OUT_DIR/model (the Hugging Face layout) and OUT_DIR/expected.json
({"prompt", "ids", "logits_last"}: the ids Python's tokenizer gives, PyTorch's last-position logits).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from training import train_tokenizer
from training.tokenizer import NdbTokenizer
from training.export import export
from training.model import Decoder, ModelConfig
from training.train import save_checkpoint

PROMPT = '<|trace_context_start|>1 def f(xs):\n2     return len(xs)\n<|frame_sep|><|call_sep|>1<|src_sep|>def f(xs):<|arg_sep|>{"xs":"[1, 2]"}<|action_sep|><|step_into|><|frame_sep|>'


def main() -> None:
    out = Path(sys.argv[1])
    tok_dir = out / "tokenizer"
    train_tokenizer.main(["train", "--out", str(tok_dir), "--vocab-size", "400", "--samples", "300"])
    tokenizer = NdbTokenizer.load(tok_dir)
    torch.manual_seed(3)
    cfg = ModelConfig(vocab_size=tokenizer.vocab_size, dim=64, n_layers=2, n_heads=4, n_kv_heads=2, hidden_dim=128, max_seq_len=512)
    model = Decoder(cfg).eval()
    ckpt = out / "checkpoint.pt"
    save_checkpoint(ckpt, model, torch.optim.AdamW(model.parameters()), 0, {})
    export(ckpt, tok_dir, out / "model")
    ids = tokenizer.encode(PROMPT)
    with torch.no_grad():
        logits = model(torch.tensor([ids]))[0, -1].tolist()
    (out / "expected.json").write_text(json.dumps({"prompt": PROMPT, "ids": ids, "logits_last": logits}))


if __name__ == "__main__":
    main()
