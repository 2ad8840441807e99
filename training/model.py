"""A Llama-style decoder in plain PyTorch: RMSNorm, rotary positions, SwiGLU, no biases.

Runs on torch 1.13 (CPU, Debian; no scaled_dot_product_attention) and torch 2.x (CUDA). The
forward pass takes and returns the key/value cache as explicit tensors so that the same module
exports to the ONNX layout transformers.js expects (``past_key_values.{i}.key|value`` in,
``present.{i}.key|value`` out).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class ModelConfig:
    vocab_size: int = 4096
    dim: int = 256
    n_layers: int = 4
    n_heads: int = 4
    n_kv_heads: int = 4
    hidden_dim: int = 688
    max_seq_len: int = 1024
    rope_theta: float = 10000.0
    norm_eps: float = 1e-5
    tie_embeddings: bool = True

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ModelConfig":
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = x.float()
        normed = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps)
        return normed.type_as(x) * self.weight


def rope_tables(cfg: ModelConfig, positions: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """cos/sin of shape [batch, seq, head_dim] for the given absolute positions [batch, seq]."""
    half = cfg.head_dim // 2
    inv_freq = 1.0 / (cfg.rope_theta ** (torch.arange(0, half, dtype=torch.float32, device=positions.device) / half))
    angles = positions.float().unsqueeze(-1) * inv_freq  # [b, s, half]
    angles = torch.cat([angles, angles], dim=-1)
    return angles.cos(), angles.sin()


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    half = x.shape[-1] // 2
    return torch.cat([-x[..., half:], x[..., :half]], dim=-1)


def apply_rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    # x: [b, heads, s, hd]; cos/sin: [b, s, hd] (the Hugging Face Llama convention)
    cos = cos.unsqueeze(1).to(x.dtype)
    sin = sin.unsqueeze(1).to(x.dtype)
    return x * cos + rotate_half(x) * sin


class Attention(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        hd = cfg.head_dim
        self.q_proj = nn.Linear(cfg.dim, cfg.n_heads * hd, bias=False)
        self.k_proj = nn.Linear(cfg.dim, cfg.n_kv_heads * hd, bias=False)
        self.v_proj = nn.Linear(cfg.dim, cfg.n_kv_heads * hd, bias=False)
        self.o_proj = nn.Linear(cfg.n_heads * hd, cfg.dim, bias=False)
        self.use_sdpa = hasattr(F, "scaled_dot_product_attention")

    def forward(
        self,
        x: torch.Tensor,
        cos: torch.Tensor,
        sin: torch.Tensor,
        mask: torch.Tensor | None,
        past_k: torch.Tensor | None,
        past_v: torch.Tensor | None,
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        b, s, _ = x.shape
        cfg = self.cfg
        hd = cfg.head_dim
        q = self.q_proj(x).view(b, s, cfg.n_heads, hd).transpose(1, 2)
        k = self.k_proj(x).view(b, s, cfg.n_kv_heads, hd).transpose(1, 2)
        v = self.v_proj(x).view(b, s, cfg.n_kv_heads, hd).transpose(1, 2)
        q = apply_rope(q, cos, sin)
        k = apply_rope(k, cos, sin)
        if past_k is not None and past_v is not None:
            k = torch.cat([past_k.to(k.dtype), k], dim=2)
            v = torch.cat([past_v.to(v.dtype), v], dim=2)
        present_k, present_v = k, v
        if cfg.n_kv_heads != cfg.n_heads:
            # expand + reshape rather than repeat_interleave: the latter exports to ONNX with
            # the tracing-time sequence length baked in.
            rep = cfg.n_heads // cfg.n_kv_heads
            k = k[:, :, None].expand(b, cfg.n_kv_heads, rep, k.shape[2], hd).reshape(b, cfg.n_heads, -1, hd)
            v = v[:, :, None].expand(b, cfg.n_kv_heads, rep, v.shape[2], hd).reshape(b, cfg.n_heads, -1, hd)
        if mask is None and self.use_sdpa:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd)
            if mask is None:
                mask = causal_mask(s, s, x.device)
            scores = scores.float() + mask
            out = torch.matmul(torch.softmax(scores, dim=-1).to(v.dtype), v)
        out = out.transpose(1, 2).reshape(b, s, cfg.n_heads * hd)
        return self.o_proj(out), present_k, present_v


class FeedForward(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(cfg.dim, cfg.hidden_dim, bias=False)
        self.up_proj = nn.Linear(cfg.dim, cfg.hidden_dim, bias=False)
        self.down_proj = nn.Linear(cfg.hidden_dim, cfg.dim, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.self_attn = Attention(cfg)
        self.post_attention_layernorm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.mlp = FeedForward(cfg)

    def forward(self, x, cos, sin, mask, past_k, past_v):  # type: ignore[no-untyped-def]
        h, pk, pv = self.self_attn(self.input_layernorm(x), cos, sin, mask, past_k, past_v)
        x = x + h
        x = x + self.mlp(self.post_attention_layernorm(x))
        return x, pk, pv


def causal_mask(q_len: int, k_len: int, device: torch.device) -> torch.Tensor:
    """Additive mask [q, k]: query i (at absolute position k_len - q_len + i) sees keys <= it."""
    offset = k_len - q_len
    q_pos = torch.arange(q_len, device=device).unsqueeze(1) + offset
    k_pos = torch.arange(k_len, device=device).unsqueeze(0)
    return torch.where(k_pos <= q_pos, torch.tensor(0.0, device=device), torch.tensor(float("-inf"), device=device))


class Decoder(nn.Module):
    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed_tokens = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.layers = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.norm = RMSNorm(cfg.dim, cfg.norm_eps)
        self.lm_head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)
        if cfg.tie_embeddings:
            self.lm_head.weight = self.embed_tokens.weight
        self.apply(self._init)
        for name, p in self.named_parameters():
            if name.endswith("o_proj.weight") or name.endswith("down_proj.weight"):
                nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * cfg.n_layers))

    @staticmethod
    def _init(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        """Training forward: logits [b, s, vocab] for tokens [b, s] (causal, no cache)."""
        b, s = tokens.shape
        positions = torch.arange(s, device=tokens.device).unsqueeze(0).expand(b, s)
        cos, sin = rope_tables(self.cfg, positions)
        x = self.embed_tokens(tokens)
        for layer in self.layers:
            x, _, _ = layer(x, cos, sin, None, None, None)
        return self.lm_head(self.norm(x))

    def forward_cached(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        position_ids: torch.Tensor,
        past: list[tuple[torch.Tensor, torch.Tensor]],
    ) -> tuple[torch.Tensor, list[tuple[torch.Tensor, torch.Tensor]]]:
        """Inference forward with an explicit KV cache (the exported graph)."""
        b, s = input_ids.shape
        past_len = past[0][0].shape[2]
        k_len = past_len + s
        cos, sin = rope_tables(self.cfg, position_ids)
        mask = causal_mask(s, k_len, input_ids.device).unsqueeze(0).unsqueeze(0)
        pad = (1.0 - attention_mask[:, None, None, :k_len].float()) * -1e9
        mask = mask + pad
        x = self.embed_tokens(input_ids)
        presents: list[tuple[torch.Tensor, torch.Tensor]] = []
        for layer, (pk, pv) in zip(self.layers, past):
            x, nk, nv = layer(x, cos, sin, mask, pk, pv)
            presents.append((nk, nv))
        return self.lm_head(self.norm(x)), presents
