"""What each token of a training window is for, so that the loss can weigh the task above the rest.

About 90 % of an unweighted loss went on the source code (75 % of the tokens of phase 13's windows
are the numbered source, which the app always gives the model) and on the first state (also given),
while the states the model exists to predict got under 10 %. ``token_classes`` labels every token of
a token stream by the part of the text format (docs/format.md) it belongs to, and ``class_weights``
turns a config's per-class weights into the weight of each target:

- ``context``: the numbered source after ``<|trace_context_start|>`` (and anything before the first
  document of a window, which the trainer never starts in the middle of unless a shard is tiny);
- ``first``: the first state of a document, written in full from the real engine in the app;
- ``event``: a predicted state's event token (or exit token), ``line``: its line number and the
  ``<|src_sep|>`` that ends it, ``locals``: the JSON object of locals, ``value``: a return value,
  an exception or an exit message with its ``<|value_sep|>``/``<|raise_sep|>``, ``end``: the
  terminator the model writes to end a state (``<|action_sep|>`` or ``<|trace_end|>``);
- ``forced``: what the model never chooses: the action and its payload (the user's), the
  ``<|frame_sep|>`` the prompt ends with, the source line's text and the ``<|arg_sep|>`` that the
  constrained decoder writes itself (src/neuralEngine/constrainedDecoding.ts), ``<|endoftext|>``.

Vectorised over a whole batch with numpy (a GPU step's 64 windows of 1,024 tokens take ~10 ms).
The special tokens have fixed ids: ``SPECIAL_TOKENS`` in order (training/tokenizer.py).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from .. import format as F
from ..tokenizer import ENDOFTEXT, SPECIAL_TOKENS

CLASSES: tuple[str, ...] = ("context", "first", "event", "line", "locals", "value", "end", "forced")
CLASS_ID = {name: i for i, name in enumerate(CLASSES)}
# The weights a config without "class_weights" trains with: every token alike, as before issue 32.
UNIFORM: dict[str, float] = {name: 1.0 for name in CLASSES}

_ID = {tok: i for i, tok in enumerate(SPECIAL_TOKENS)}
_EVENTS = (F.CALL_SEP, F.LINE_SEP, F.RETURN_SEP, F.EXCEPTION_SEP, F.INV_CALL_SEP, F.INV_LINE_SEP, F.INV_RETURN_SEP,
           F.INV_EXCEPTION_SEP, F.EXIT_NORMAL, F.EXIT_EXCEPTION, F.EXIT_BUDGET, F.EXIT_ERROR, F.INV_EXIT_ENTRY)

# Region markers: a token belongs to the region of the last marker at or before it.
_R_NONE, _R_CONTEXT, _R_FRAME, _R_EVENT, _R_SRC, _R_ARG, _R_VALUE, _R_ACTION, _R_END, _R_EOT = range(10)
_MARKER = np.zeros(len(SPECIAL_TOKENS), dtype=np.int8)
_MARKER[_ID[F.TRACE_CONTEXT_START]] = _R_CONTEXT
_MARKER[_ID[F.FRAME_SEP]] = _R_FRAME
for _tok in _EVENTS:
    _MARKER[_ID[_tok]] = _R_EVENT
_MARKER[_ID[F.SRC_SEP]] = _R_SRC
_MARKER[_ID[F.ARG_SEP]] = _R_ARG
_MARKER[_ID[F.VALUE_SEP]] = _R_VALUE
_MARKER[_ID[F.RAISE_SEP]] = _R_VALUE
_MARKER[_ID[F.ACTION_SEP]] = _R_ACTION
_MARKER[_ID[F.TRACE_END]] = _R_END
_MARKER[_ID[ENDOFTEXT]] = _R_EOT

# The class of a token inside a region (the marker token itself is handled apart), for a state after
# an action; the first state of a document maps every state region to "first".
_REGION_CLASS = np.array([
    CLASS_ID["context"],  # none: before any document in the window
    CLASS_ID["context"],
    CLASS_ID["forced"],   # frame_sep: nothing follows it but an event token
    CLASS_ID["line"],     # after the event token: the line number's digits
    CLASS_ID["forced"],   # SRC: written by the decoder
    CLASS_ID["locals"],
    CLASS_ID["value"],
    CLASS_ID["forced"],   # the action's token and payload: the user's
    CLASS_ID["forced"],
    CLASS_ID["forced"],
], dtype=np.int8)
_MARKER_CLASS = np.array([
    CLASS_ID["context"],  # (not a marker)
    CLASS_ID["context"],  # <|trace_context_start|>
    CLASS_ID["forced"],   # <|frame_sep|>: the prompt ends with it
    CLASS_ID["event"],
    CLASS_ID["line"],     # <|src_sep|> ends the line number: the model's choice
    CLASS_ID["forced"],   # <|arg_sep|>: written with SRC by the decoder
    CLASS_ID["value"],
    CLASS_ID["end"],      # <|action_sep|> ends the state before it
    CLASS_ID["end"],      # <|trace_end|>
    CLASS_ID["forced"],   # <|endoftext|>
], dtype=np.int8)
_STATE_REGIONS = np.array([r in (_R_FRAME, _R_EVENT, _R_SRC, _R_ARG, _R_VALUE) for r in range(10)])


def token_classes(ids: np.ndarray) -> np.ndarray:
    """The class (an index into ``CLASSES``) of every token of ``ids`` ([..., n] integers); each row
    is read from its start, as a window the trainer cut at a document's start."""
    ids = np.asarray(ids)
    flat = ids.reshape(-1, ids.shape[-1]) if ids.ndim > 1 else ids[None, :]
    rows, n = flat.shape
    special = flat < len(SPECIAL_TOKENS)
    marker = np.where(special, _MARKER[np.where(special, flat, 0)], _R_NONE)
    is_marker = marker != _R_NONE
    pos = np.broadcast_to(np.arange(n), (rows, n))
    last = np.maximum.accumulate(np.where(is_marker, pos, -1), axis=1)
    region = np.where(last >= 0, np.take_along_axis(marker, np.maximum(last, 0), axis=1), _R_NONE)
    classes = np.where(is_marker, _MARKER_CLASS[marker], _REGION_CLASS[region])
    # The first state of each document: from its first <|frame_sep|> through the terminator after it.
    is_ctx = marker == _R_CONTEXT
    frames = np.cumsum(marker == _R_FRAME, axis=1)
    ctx_at = np.maximum.accumulate(np.where(is_ctx, pos, -1), axis=1)
    frames_at_ctx = np.where(ctx_at >= 0, np.take_along_axis(frames, np.maximum(ctx_at, 0), axis=1), 0)
    since = frames - frames_at_ctx
    actions = np.cumsum(marker == _R_ACTION, axis=1) + np.cumsum(marker == _R_END, axis=1)
    actions_at_ctx = np.where(ctx_at >= 0, np.take_along_axis(actions, np.maximum(ctx_at, 0), axis=1), 0)
    in_first = (ctx_at >= 0) & (since == 1) & (actions - actions_at_ctx == 0)
    first_state = in_first & _STATE_REGIONS[region] | in_first & (marker == _R_FRAME)
    # the terminator right after the first state belongs to it too
    first_end = (ctx_at >= 0) & (since == 1) & is_marker & ((marker == _R_ACTION) | (marker == _R_END)) & \
        (actions - actions_at_ctx == 1)
    classes = np.where(first_state | first_end, CLASS_ID["first"], classes)
    return classes.reshape(ids.shape).astype(np.int8)


def class_weights(weights: Mapping[str, float] | None) -> np.ndarray:
    """The weight of each class, from a config's ``"class_weights"`` (missing classes weigh 1)."""
    table = dict(UNIFORM)
    for name, value in (weights or {}).items():
        if name not in CLASS_ID:
            raise ValueError(f"class_weights: unknown class {name!r} (the classes: {', '.join(CLASSES)})")
        if not 0.0 <= float(value):
            raise ValueError(f"class_weights: {name} must not be negative")
        table[name] = float(value)
    return np.array([table[name] for name in CLASSES], dtype=np.float32)


def target_classes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The classes of the targets ``y`` of a batch (``y`` is ``x`` shifted by one)."""
    row = np.concatenate([x[:, :1], y], axis=1)
    return token_classes(row)[:, 1:]
