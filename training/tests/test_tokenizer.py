"""The byte-level BPE tokenizer: format tokens as single ids, round trips, and the same ids as
transformers.js (through training/tokenizer_ids.mjs)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from training import format as fmt
from training.data.trajectories import trajectory_texts
from training.tokenizer import ENDOFTEXT, NdbTokenizer, count_chunks, pretokenize, train_bpe
from training.train_tokenizer import FIXTURE_RECORDINGS, read_recordings

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = sorted((ROOT / "fixtures/format/expected").glob("*.txt"))

TRICKY = [
    "",
    " ",
    "x",
    "hello world",
    "   leading and trailing   ",
    "tabs\tand\t\ttabs \t x",
    "line\r\nwindows\rold mac\n\n\nblank lines\n",
    "\x0b\x0cvertical tab and form feed\x0c",
    "digits 0123456789 -3.5e10 1_000_000 0x1F 12,345",
    "unicode: é ü ß ñ 中文 日本語 한국어 Ελληνικά кириллица",
    "emoji 😀👍🏽 flags 🇫🇷 zwj 👩‍💻",
    "combining e\u0301 and n\u0303, nbsp\u00a0here, bom\ufeff, nel\x85, ls\u2028ps\u2029",
    "controls \x00\x01\x1b\x7f end",
    "escapes <||frame_sep|> <||trace_end|> <|| <| |> <<|frame_sep|>> <|frame_sep|",
    "<|frame_sep|><|frame_sep|><|action_sep|><|step_into|><|endoftext|>x<|endoftext|>",
    '{"xs":"[1, 2, 3, 4]","s":"0","..":".."}',
    "'it''s' \"quoted\" `back` \\\\ backslash \\n not a newline",
    "def f(x):\n    return x  # comment\n\n        deep   indent",
    "a" * 300 + " " + "1" * 50 + " " * 40 + "\u2026",
    "mixed_snake_Case camelCase ALLCAPS _private __dunder__",
]


@pytest.fixture(scope="module")
def recordings() -> list[dict]:
    return read_recordings([FIXTURE_RECORDINGS])


@pytest.fixture(scope="module")
def tok_dir(tmp_path_factory: pytest.TempPathFactory, recordings: list[dict]) -> Path:
    texts = list(trajectory_texts(recordings, 600, seed=3))
    texts += [p.read_text(encoding="utf-8") for p in EXPECTED]
    tok = train_bpe(count_chunks(texts), vocab_size=1024)
    out = tmp_path_factory.mktemp("tok")
    tok.save(out)
    return out


@pytest.fixture(scope="module")
def tok(tok_dir: Path) -> NdbTokenizer:
    return NdbTokenizer.load(tok_dir)


def test_format_tokens_are_single_ids_in_order(tok: NdbTokenizer, tok_dir: Path) -> None:
    for i, t in enumerate(fmt.FORMAT_TOKENS):
        assert tok.encode(t) == [i]
    assert len(fmt.FORMAT_TOKENS) == 29
    assert tok.encode(ENDOFTEXT) == [29]
    cfg = json.loads((tok_dir / "tokenizer_config.json").read_text())
    assert cfg["ndb_special_ids"] == {"bos": 29, "eos": 29, "pad": 29}
    assert cfg["bos_token"] == cfg["eos_token"] == cfg["pad_token"] == ENDOFTEXT
    assert cfg["clean_up_tokenization_spaces"] is False
    data = json.loads((tok_dir / "tokenizer.json").read_text())
    assert [t["id"] for t in data["added_tokens"]] == list(range(30))
    vocab = data["model"]["vocab"]
    assert sorted(vocab.values()) == list(range(len(vocab))) and len(vocab) == 1024
    # a trajectory: every format token in it is one id, and the escaped form is not a token
    text = EXPECTED[0].read_text(encoding="utf-8")
    ids = tok.encode(text)
    assert ids.count(fmt.FORMAT_TOKENS.index(fmt.FRAME_SEP)) == text.count(fmt.FRAME_SEP)
    escaped = tok.encode('x = "<||frame_sep|>"')
    assert all(i >= 30 for i in escaped)


def test_round_trip_and_merges_compress(tok: NdbTokenizer, recordings: list[dict]) -> None:
    for s in TRICKY + [p.read_text(encoding="utf-8") for p in EXPECTED]:
        assert tok.decode(tok.encode(s)) == s
    rng = random.Random(5)
    alphabet = "ab _-<|>{}\"'\n\t 0123456789é中😀\u2026"
    for _ in range(300):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert tok.decode(tok.encode(s)) == s
    text = next(trajectory_texts(recordings, 1, seed=11))
    ids = tok.encode(text)
    assert len(ids) < len(text.encode("utf-8")) / 2.5  # the merges do compress trajectories
    assert tok.decode(ids, skip_special_tokens=True) == "".join(p for p in fmt_split(text))


def fmt_split(text: str) -> list[str]:
    out = text
    for t in (*fmt.FORMAT_TOKENS, ENDOFTEXT):
        out = out.replace(t, "")
    return [out]


def test_pretokenizer_pieces() -> None:
    assert pretokenize("    s = 10\n") == ["   ", " s", " =", " 1", "0", "\n"]
    assert pretokenize('{"xs":"[1, 2]"}') == ['{"', "xs", '":"[', "1", ",", " 2", ']"}']
    assert pretokenize("max_len é…") == ["max_len", " é…"]
    assert "".join(pretokenize(TRICKY[-1])) == TRICKY[-1]


def test_trainer_merges_the_most_frequent_pair_first() -> None:
    tok = train_bpe({"abab": 10, "cd": 3, "xy": 1}, vocab_size=30 + 256 + 10)
    assert tok.merges[0] == ("a", "b")
    assert tok.merges[1] == ("ab", "ab")
    assert ("c", "d") in tok.merges and ("x", "y") not in tok.merges  # min frequency 2
    assert tok.encode("abab cd") == [tok.vocab["abab"], tok.vocab["Ġ"], tok.vocab["cd"]]
    with pytest.raises(ValueError):
        train_bpe({"ab": 3}, vocab_size=100)


def _node_ids(tok_dir: Path, texts: list[str]) -> dict:
    if shutil.which("node") is None or not (ROOT / "node_modules/@huggingface/transformers").exists():
        pytest.skip("node or @huggingface/transformers is not installed")
    proc = subprocess.run(
        ["node", str(ROOT / "training/tokenizer_ids.mjs"), str(tok_dir)],
        input=json.dumps(texts), capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_python_and_transformers_js_give_the_same_ids(tok: NdbTokenizer, tok_dir: Path, recordings: list[dict]) -> None:
    texts = [p.read_text(encoding="utf-8") for p in EXPECTED] + TRICKY
    texts += list(trajectory_texts(recordings, 40, seed=99))
    got = _node_ids(tok_dir, texts)
    for text, ids, decoded in zip(texts, got["ids"], got["decoded"]):
        assert tok.encode(text) == ids, text[:200]
        assert decoded == text
    assert len(got["ids"]) == len(texts)


def test_cli_trains_and_encodes(tmp_path: Path) -> None:
    out = tmp_path / "tok"
    proc = subprocess.run(
        [sys.executable, "-m", "training.train_tokenizer", "train", "--out", str(out), "--vocab-size", "600", "--samples", "200",
         "--programs", "0"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    tok = NdbTokenizer.load(out)
    assert tok.vocab_size == 600
    enc = subprocess.run(
        [sys.executable, "-m", "training.train_tokenizer", "encode", "--tokenizer", str(out)],
        input="<|frame_sep|>x = 1", capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert json.loads(enc.stdout) == tok.encode("<|frame_sep|>x = 1")
