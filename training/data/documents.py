"""A rendered trajectory as token documents: tokenized, cut to the token cap, and cut again at the
training window as the app's sessions cut a prompt that outgrows the trained context.

A document is what the shards hold between two ``<|endoftext|>``; training windows start at one.
"""

from __future__ import annotations

from typing import Any

from ..format import TRACE_END, render_state, source_lines, state_at
from ..tokenizer import NdbTokenizer


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
