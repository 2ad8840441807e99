"""The model's tokenizer: byte-level BPE trained on generated trajectories (pure Python + numpy).

Layout of the vocabulary: ids 0–28 are the format tokens (docs/format.md §1, in that order), 29 is
``<|endoftext|>`` (bos, eos and pad: it separates documents), 30–285 the 256 bytes (GPT-2's
byte-to-unicode map), then one id per learned merge. The format tokens and ``<|endoftext|>`` are
*added tokens*: split out before anything else, so each is always one id; an escaped ``<||`` in a
payload is ordinary text.

Pre-tokenization is a ``Split`` with the regex ``PRETOKENIZE_PATTERN`` (explicit ASCII classes only,
so that Python's ``re`` and JavaScript's ``u`` regexes cut identically), then ``ByteLevel`` without
its own regex: identifiers (letters and ``_``) with an optional leading space, single digits with
an optional leading space, runs of ASCII punctuation, runs of non-ASCII text, newlines, and runs of
spaces (the last space of a run before a word goes with the word, as in GPT-2).

Saved as ``tokenizer.json`` (Hugging Face format) and ``tokenizer_config.json`` (with
``ndb_special_ids``), which transformers.js 4 loads with ``AutoTokenizer.from_pretrained``;
``NdbTokenizer`` encodes and decodes exactly as it does (tested in training/tests/test_tokenizer.py
through training/tokenizer_ids.mjs).

Training one on traced programs is a command of its own (``training/train_tokenizer.py``), so that
this module imports nothing of the dataset builder, which imports it.
"""

from __future__ import annotations

import collections
import heapq
import json
import re
import sys
import time
from pathlib import Path
from typing import Iterable, Optional

from .format import FORMAT_TOKENS

ENDOFTEXT = "<|endoftext|>"
SPECIAL_TOKENS: tuple[str, ...] = (*FORMAT_TOKENS, ENDOFTEXT)
N_SPECIAL = len(SPECIAL_TOKENS)
DEFAULT_VOCAB_SIZE = 2048
DEFAULT_MAX_LENGTH = 2048

_PUNCT = r"[\x00-\x08\x0e-\x1f\x21-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]"
PRETOKENIZE_PATTERN = (
    r" ?[A-Za-z_]+"
    r"| ?[0-9]"
    rf"| ?{_PUNCT}+"
    r"| ?[^\x00-\x7f]+"
    r"|[\n\r]+"
    r"|[\t\x0b\x0c ]+(?![^\t-\r ])"
    r"|[\t\x0b\x0c ]+"
)
_PRETOKENIZE = re.compile(PRETOKENIZE_PATTERN)
_SPECIAL_SPLIT = re.compile("(" + "|".join(re.escape(t) for t in sorted(SPECIAL_TOKENS, key=len, reverse=True)) + ")")


def bytes_to_unicode() -> dict[int, str]:
    """GPT-2's map from bytes to printable characters (what ByteLevel uses)."""
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}


BYTE_TO_CHAR = bytes_to_unicode()
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}


def split_special(text: str) -> list[str]:
    """Splits out the added tokens (leftmost, longest first: transformers.js's DictionarySplitter)."""
    return [p for p in _SPECIAL_SPLIT.split(text) if p]


def pretokenize(text: str) -> list[str]:
    """The Split step (matches and the gaps between them, in order), before the byte mapping. Every
    character is matched by one of the pattern's alternatives, none of which matches the empty
    string, so there are no gaps and the matches are the whole split (``split_with_gaps`` is the
    Split written out; test_live_workers.py checks that both cut alike)."""
    return _PRETOKENIZE.findall(text)


def split_with_gaps(text: str) -> list[str]:
    """Hugging Face's ``Split`` with ``behavior: isolated`` as written: matches and the gaps
    between them, in order."""
    out: list[str] = []
    prev = 0
    for m in _PRETOKENIZE.finditer(text):
        if m.start() > prev:
            out.append(text[prev : m.start()])
        if m.end() > m.start():
            out.append(m.group())
        prev = m.end()
    if prev < len(text):
        out.append(text[prev:])
    return out


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf8(text: str) -> bytes:
    """UTF-8 as JavaScript's TextEncoder writes it (a lone surrogate becomes U+FFFD)."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def byte_level(chunk: str) -> str:
    return "".join(BYTE_TO_CHAR[b] for b in utf8(chunk))


# ----------------------------------------------------------------------------------------------
# Encoding and decoding


class NdbTokenizer:
    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, str]], special: Iterable[str] = SPECIAL_TOKENS,
                 model_max_length: int = DEFAULT_MAX_LENGTH) -> None:
        self.vocab = dict(vocab)
        self.merges = list(merges)
        self.special = list(special)
        self.model_max_length = model_max_length
        for tok in self.special:
            if tok not in self.vocab:
                raise ValueError(f"special token {tok} has no id")
        self.id_to_token = [""] * len(self.vocab)
        for tok, i in self.vocab.items():
            self.id_to_token[i] = tok
        self.ranks = {pair: i for i, pair in enumerate(self.merges)}
        self.special_ids = {self.vocab[t] for t in self.special}
        self._special_set = set(self.special)
        self._cache: dict[str, list[int]] = {}

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def eot_id(self) -> int:
        return self.vocab[ENDOFTEXT]

    def token_id(self, token: str) -> int:
        return self.vocab[token]

    def _bpe(self, word: str) -> list[str]:
        """Lowest rank first, leftmost on ties: the same merges as transformers.js's priority queue."""
        parts = list(word)
        ranks = self.ranks
        while len(parts) > 1:
            best = None
            best_i = -1
            for i in range(len(parts) - 1):
                r = ranks.get((parts[i], parts[i + 1]))
                if r is not None and (best is None or r < best):
                    best, best_i = r, i
            if best is None:
                break
            parts[best_i : best_i + 2] = [parts[best_i] + parts[best_i + 1]]
        return parts

    def _encode_chunk(self, chunk: str) -> list[int]:
        ids = self._cache.get(chunk)
        if ids is None:
            ids = [self.vocab[p] for p in self._bpe(byte_level(chunk))]
            if len(self._cache) > 200_000:
                self._cache.clear()
            self._cache[chunk] = ids
        return ids

    def encode(self, text: str) -> list[int]:
        out: list[int] = []
        cache = self._cache
        for piece in split_special(text):
            if piece in self._special_set:
                out.append(self.vocab[piece])
                continue
            for chunk in pretokenize(piece):
                ids = cache.get(chunk)
                out.extend(ids if ids is not None else self._encode_chunk(chunk))
        return out

    def tokens(self, ids: Iterable[int]) -> list[str]:
        return [self.id_to_token[i] for i in ids]

    def decode(self, ids: Iterable[int], skip_special_tokens: bool = False) -> str:
        out: list[str] = []
        buf: list[int] = []

        def flush() -> None:
            if buf:
                out.append(bytes(buf).decode("utf-8", errors="replace"))
                buf.clear()

        for i in ids:
            tok = self.id_to_token[i]
            if i in self.special_ids:
                flush()
                if not skip_special_tokens:
                    out.append(tok)
            else:
                buf.extend(CHAR_TO_BYTE[c] for c in tok)
        flush()
        return "".join(out)

    # -- files ---------------------------------------------------------------------------------

    def tokenizer_json(self) -> dict:
        return {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [
                {"id": self.vocab[t], "content": t, "single_word": False, "lstrip": False, "rstrip": False,
                 "normalized": False, "special": True}
                for t in self.special
            ],
            "normalizer": None,
            "pre_tokenizer": {
                "type": "Sequence",
                "pretokenizers": [
                    {"type": "Split", "pattern": {"Regex": PRETOKENIZE_PATTERN}, "behavior": "Isolated", "invert": False},
                    {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
                ],
            },
            "post_processor": None,
            "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
            "model": {
                "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                "vocab": self.vocab,
                "merges": [f"{a} {b}" for a, b in self.merges],
            },
        }  # fmt: skip

    def tokenizer_config(self) -> dict:
        eot = self.eot_id
        return {
            "tokenizer_class": "PreTrainedTokenizerFast",
            "bos_token": ENDOFTEXT,
            "eos_token": ENDOFTEXT,
            "pad_token": ENDOFTEXT,
            "unk_token": None,
            "add_bos_token": False,
            "add_eos_token": False,
            "clean_up_tokenization_spaces": False,
            "model_max_length": self.model_max_length,
            "additional_special_tokens": list(FORMAT_TOKENS),
            "ndb_special_ids": {"bos": eot, "eos": eot, "pad": eot},
        }

    def save(self, folder: Path) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tokenizer.json").write_text(json.dumps(self.tokenizer_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        (folder / "tokenizer_config.json").write_text(json.dumps(self.tokenizer_config(), indent=2), encoding="utf-8")

    @classmethod
    def load(cls, folder: Path) -> "NdbTokenizer":
        folder = Path(folder)
        data = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
        model = data["model"]
        merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in model["merges"]]
        special = [t["content"] for t in data["added_tokens"]]
        max_len = DEFAULT_MAX_LENGTH
        cfg_path = folder / "tokenizer_config.json"
        if cfg_path.exists():
            max_len = int(json.loads(cfg_path.read_text()).get("model_max_length", max_len))
        vocab = dict(model["vocab"])
        for t in data["added_tokens"]:
            vocab[t["content"]] = t["id"]
        return cls(vocab, merges, special, max_len)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------------------------
# Training


def count_chunks(texts: Iterable[str]) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for text in texts:
        for piece in split_special(text):
            if piece in SPECIAL_TOKENS:
                continue
            counts.update(pretokenize(piece))
    return counts


def train_bpe(chunk_counts: dict[str, int], vocab_size: int = DEFAULT_VOCAB_SIZE, min_frequency: int = 2,
              model_max_length: int = DEFAULT_MAX_LENGTH, progress: bool = False) -> NdbTokenizer:
    """Byte-level BPE: repeatedly merges the most frequent adjacent pair (ties: the pair of lowest
    ids), counting pairs inside pre-tokenized chunks only."""
    if vocab_size < N_SPECIAL + 256:
        raise ValueError(f"vocab size must be at least {N_SPECIAL + 256}")
    vocab: dict[str, int] = {t: i for i, t in enumerate(SPECIAL_TOKENS)}
    symbols: list[str] = []  # symbol index -> string; vocab id = N_SPECIAL + index for bytes
    for b in range(256):
        vocab[BYTE_TO_CHAR[b]] = len(vocab)
        symbols.append(BYTE_TO_CHAR[b])
    sym_of = {s: i for i, s in enumerate(symbols)}
    words: list[list[int]] = []
    freqs: list[int] = []
    for chunk, f in chunk_counts.items():
        w = [sym_of[BYTE_TO_CHAR[b]] for b in utf8(chunk)]
        if len(w) > 1:
            words.append(w)
            freqs.append(int(f))
    pair_counts: collections.defaultdict = collections.defaultdict(int)
    where: collections.defaultdict = collections.defaultdict(set)
    for wi, w in enumerate(words):
        f = freqs[wi]
        for a, b in zip(w, w[1:]):
            pair_counts[(a, b)] += f
            where[(a, b)].add(wi)
    heap = [(-c, p) for p, c in pair_counts.items()]
    heapq.heapify(heap)
    merges: list[tuple[str, str]] = []
    started = time.time()
    while len(vocab) < vocab_size and heap:
        negc, pair = heapq.heappop(heap)
        count = pair_counts.get(pair, 0)
        if count != -negc:
            if count > 0:
                heapq.heappush(heap, (-count, pair))
            continue
        if count < min_frequency:
            break
        a, b = pair
        merged = symbols[a] + symbols[b]
        if merged in sym_of:
            new = sym_of[merged]
        else:
            new = len(symbols)
            symbols.append(merged)
            sym_of[merged] = new
        merges.append((symbols[a], symbols[b]))
        if merged not in vocab:
            vocab[merged] = len(vocab)
        changed: set = set()
        for wi in where.pop(pair, ()):
            w = words[wi]
            f = freqs[wi]
            if len(w) < 2:
                continue
            out: list[int] = []
            i = 0
            hit = False
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    out.append(new)
                    i += 2
                    hit = True
                else:
                    out.append(w[i])
                    i += 1
            if not hit:
                continue
            for p in zip(w, w[1:]):
                pair_counts[p] -= f
                changed.add(p)
            for p in zip(out, out[1:]):
                pair_counts[p] += f
                where[p].add(wi)
                changed.add(p)
            words[wi] = out
        pair_counts.pop(pair, None)
        for p in changed:
            c = pair_counts.get(p, 0)
            if c > 0:
                heapq.heappush(heap, (-c, p))
            elif p in pair_counts:
                del pair_counts[p]
        if progress and len(merges) % 250 == 0:
            sys.stderr.write(f"\rmerges {len(merges)} vocab {len(vocab)}/{vocab_size} ({time.time() - started:.0f}s)")
    if progress:
        sys.stderr.write("\n")
    return NdbTokenizer(vocab, merges, SPECIAL_TOKENS, model_max_length)
