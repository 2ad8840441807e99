"""The token classes that weigh the loss (training/data/token_classes.py): every part of a real
rendered trajectory lands in the class the format says, and a class weight of 0 takes a token out."""

from pathlib import Path

import numpy as np
import pytest

from training.data.token_classes import CLASSES, class_weights, target_classes, token_classes
from training.tokenizer import NdbTokenizer

ROOT = Path(__file__).resolve().parents[2]
TEXT = (
    "<|trace_context_start|>1 def f(x):\n2     return x + 1\n3 f(2)\n"
    '<|frame_sep|><|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>{"x":"2"}'
    "<|action_sep|><|step_into|>"
    '<|frame_sep|><|line_sep|>2<|src_sep|>return x + 1<|arg_sep|>{"..":".."}'
    "<|action_sep|><|breakpoint|>3"
    "<|frame_sep|><|return_sep|>2<|src_sep|>return x + 1<|value_sep|>3<|trace_end|><|endoftext|>"
)


@pytest.fixture(scope="module")
def tok() -> NdbTokenizer:
    return NdbTokenizer.load(ROOT / "public/models/ndb-cpu-6m")


def labelled(tok: NdbTokenizer, text: str) -> list[tuple[str, str]]:
    ids = tok.encode(text)
    return [(tok.decode([i]), CLASSES[c]) for i, c in zip(ids, token_classes(np.array(ids)))]


def test_each_part_of_a_trajectory_has_its_class(tok: NdbTokenizer) -> None:
    pairs = labelled(tok, TEXT)
    by_class: dict[str, str] = {}
    for piece, cls in pairs:
        by_class[cls] = by_class.get(cls, "") + piece
    assert by_class["context"].startswith("<|trace_context_start|>1 def f(x):") and by_class["context"].endswith("3 f(2)\n")
    assert by_class["first"] == '<|frame_sep|><|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>{"x":"2"}<|action_sep|>'
    assert by_class["event"] == "<|line_sep|><|return_sep|>"
    assert by_class["line"] == "2<|src_sep|>2<|src_sep|>"
    assert by_class["locals"] == '{"..":".."}'
    assert by_class["value"] == "<|value_sep|>3"
    assert by_class["end"] == "<|action_sep|><|trace_end|>"
    # the user's actions, the prompt's frame_sep, the source line the decoder writes, end of text
    assert by_class["forced"] == ("<|step_into|><|frame_sep|>return x + 1<|arg_sep|><|breakpoint|>3"
                                  "<|frame_sep|>return x + 1<|endoftext|>")


def test_rows_are_read_from_their_start_and_documents_restart(tok: NdbTokenizer) -> None:
    ids = np.array(tok.encode(TEXT) * 2)
    classes = token_classes(np.stack([ids, ids]))
    half = len(ids) // 2
    assert (classes[:, :half] == classes[:, half:]).all()  # the second document is labelled afresh
    assert (classes[0] == classes[1]).all()


def test_targets_take_the_class_of_the_token_they_predict(tok: NdbTokenizer) -> None:
    ids = np.array([tok.encode(TEXT)])
    x, y = ids[:, :-1], ids[:, 1:]
    assert (target_classes(x, y) == token_classes(ids)[:, 1:]).all()


def test_class_weights_default_to_one_and_refuse_unknown_classes() -> None:
    table = class_weights({"context": 0.1, "forced": 0})
    assert table[CLASSES.index("context")] == pytest.approx(0.1)
    assert table[CLASSES.index("forced")] == 0
    assert table[CLASSES.index("locals")] == 1
    with pytest.raises(ValueError, match="unknown class 'source'"):
        class_weights({"source": 0.1})


def test_the_trainer_weighs_a_batch_by_class_and_picks_its_precision(tok: NdbTokenizer) -> None:
    import torch

    from training.train import cpu_has_bf16, pick_precision, weigh_batch

    ids = torch.tensor([tok.encode(TEXT)])
    x, y, w = ids[:, :-1], ids[:, 1:], torch.ones(1, ids.shape[1] - 1)
    table = class_weights({"context": 0.1, "forced": 0})
    _, _, weighted = weigh_batch((x, y, w), table)
    classes = target_classes(x.numpy(), y.numpy())[0]
    assert torch.allclose(weighted[0], torch.from_numpy(table[classes]))
    assert weigh_batch((x, y, w), None)[2] is w
    assert pick_precision("cuda:0") == "bf16"
    assert pick_precision("cpu") == ("bf16" if cpu_has_bf16() else "fp32")
    assert pick_precision("cpu", "fp32") == "fp32"
    with pytest.raises(SystemExit, match="precision"):
        pick_precision("cpu", "fp16")
