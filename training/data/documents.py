"""A rendered trajectory as token documents: tokenized, cut to the token cap, and cut again at the
training window as the app's sessions cut a prompt that outgrows the trained context.

A document is what the shards hold between two ``<|endoftext|>``; training windows start at one.
"""

from __future__ import annotations

from typing import Any, Callable

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


def trajectory_documents(encode: Callable[[str], list[int]], traj: Any, rec: dict[str, Any], max_tokens: int,
                         window: int) -> tuple[list[list[int]], int, int, list[int], int, bool]:
    """``tokenize_trajectory`` and then, when the trajectory outgrows ``window``, ``window_documents``
    (the very ids of both), with each piece tokenized once: ``encode`` is the tokenizer's, or one
    that remembers what a program's trajectories share (their context, the first states, the steps
    two trajectories both take). What it returns must never be changed in place.
    Returns (documents, trajectory tokens, context tokens, tokens of each state, steps kept, truncated)."""
    ctx = encode(traj.context)
    first = encode(traj.first)
    end = encode(TRACE_END)
    ids = ctx + first
    states = [len(first)]
    pieces: list[list[int]] = []
    truncated = False
    for step in traj.steps:
        a = encode(step.action_text)
        s = encode(step.state_text)
        if len(ids) + len(a) + len(s) + len(end) > max_tokens:
            truncated = True
            break
        pieces.append(a + s)
        ids += pieces[-1]
        states.append(len(s))
    kept = len(pieces)
    ids += end
    if len(ids) > max_tokens:  # the context and the first state alone are too long
        ids = ids[:max_tokens]
        truncated = True
    if not window or len(ids) <= window:
        return [ids], len(ids), len(ctx), states, kept, truncated
    # window_documents, from the pieces above
    lines = source_lines(rec["source"])
    docs: list[list[int]] = []
    doc = ctx + first
    fresh = True
    last = traj.start
    for step, piece in zip(traj.steps, pieces):
        if not fresh and len(doc) + len(piece) + len(end) > window:
            docs.append(doc + end)
            doc = ctx + encode(render_state(lines, state_at(rec, last)))
        doc += piece
        fresh = False
        last = step.position
    docs.append(doc + end)
    return docs, len(ids), len(ctx), states, kept, truncated


def remembering(tok: NdbTokenizer) -> Callable[[str], list[int]]:
    """The tokenizer's ``encode`` remembering each text it was given (for one program's
    trajectories: its source context, tokenized once however many trajectories it gives)."""
    seen: dict[str, list[int]] = {}

    def encode(text: str) -> list[int]:
        ids = seen.get(text)
        if ids is None:
            ids = seen[text] = tok.encode(text)
        return ids

    return encode
