"""The README's numbers of the shipped model come from one place, docs/numbers.json (issue 47):
its opening and its section on the model quote them, the model card's tables hold the same, no
other percentage appears there, and the sizes it gives are the files' own."""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
NUMBERS: dict[str, Any] = json.loads((ROOT / "docs" / "numbers.json").read_text())
README = (ROOT / "README.md").read_text()
CARD = (ROOT / NUMBERS["model"] / "MODEL_CARD.md").read_text()


def section(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i : text.index(end, i)]


OPENING = section(README, "# ndb", "## Run it")
MODEL = section(README, "## The shipped model and its training", "## Deploy")


def rounded(x: float, places: int = 0) -> str:
    """As the prose writes a figure: half up (58.5 → 59), not Python's half to even."""
    return str(Decimal(str(x)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


def one(pattern: str, text: str) -> tuple[str, ...]:
    found = re.findall(pattern, text, flags=re.S)
    assert len(found) == 1, f"{pattern!r} found {len(found)} times"
    return found[0] if isinstance(found[0], tuple) else (found[0],)


def figures() -> set[str]:
    """Every number of numbers.json as the README may write it (as is, or rounded to a whole)."""
    out: set[str] = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out.update({str(v), f"{v:.1f}", rounded(v)})

    walk(NUMBERS)
    return out


S, C, E = NUMBERS["next_state"], NUMBERS["confidence"], NUMBERS["earlier"]


def test_the_opening_quotes_the_shipped_model() -> None:
    params, exact, line, corpus = one(
        r"model is small \(([\d.]+) M parameters\), predicts ([\d.]+) % of the states of hand-written teaching programs\s+"
        r"exactly \(event and line ([\d.]+) %\) and ([\d.]+) % of held-out real code",
        OPENING,
    )
    assert params == rounded(NUMBERS["parameters"]["value"] / 1e6, 1)
    assert (exact, line, corpus) == (str(S["teaching"]["exact"]), str(S["teaching"]["event_line"]), str(S["corpus"]["exact"]))
    (sure,) = one(r"of the\s+teaching states it calls sure, (\d+) % are right", OPENING)
    assert sure == rounded(C["teaching"]["sure_right"])


def test_the_model_section_quotes_the_same_numbers() -> None:
    got = one(
        r"Next state exactly right: \*\*([\d.]+) %\*\* \(event and line ([\d.]+) %\) on hand-written teaching\s+programs, "
        r"\*\*([\d.]+) %\*\* \(([\d.]+) %\) on the gallery, \*\*([\d.]+) %\*\* \(([\d.]+) %\) on held-out files of real code\s+"
        r"\(phase 13, shipped before the leases: ([\d.]+), ([\d.]+) and ([\d.]+) %\)",
        MODEL,
    )
    want = [S[s][k] for s in ("teaching", "gallery", "corpus") for k in ("exact", "event_line")]
    want += [E["phase13"][f"{s}_exact"] for s in ("teaching", "gallery", "corpus")]
    assert list(got) == [str(w) for w in want]
    crux = one(
        r"CruxEval-O \*\*([\d.]+) %\*\* pass@1 \(breakpoint posing\), CruxEval-I \*\*([\d.]+) %\*\*\s+"
        r"\(lease 3: ([\d.]+) and ([\d.]+) %; phase 13: ([\d.]+) and ([\d.]+) %\)",
        MODEL,
    )
    cx = NUMBERS["cruxeval"]
    assert list(crux) == [str(x) for x in (cx["output"]["pass_at_1"], cx["input"]["pass_at_1"], E["lease3"]["cruxeval_output"],
                                           E["lease3"]["cruxeval_input"], E["phase13"]["cruxeval_output"], E["phase13"]["cruxeval_input"])]
    real = one(r"on 200 calls of held-out real functions, output\s+([\d.]+) % and input ([\d.]+) %", MODEL)
    assert list(real) == [str(NUMBERS["real_functions"][t]["pass_at_1"]) for t in ("output", "input")]
    conf = one(r"at least 0\.8, (\d+) %\s+are right, of those it gives 0\.5–0\.8, (\d+) % \(expected calibration error ([\d.]+)\)", MODEL)
    assert list(conf) == [rounded(C["teaching"]["sure_right"]), rounded(C["teaching"]["likely_right"]), str(C["teaching"]["ece"])]
    tokens = one(r"on ([\d.]+) and ([\d.]+) billion tokens of live traces", MODEL)
    assert list(tokens) == [rounded(NUMBERS["training"][k] / 1e9, 1) for k in ("lease1_tokens", "lease3_tokens")]
    (fine,) = one(r"fine-tuned on the CPU on ([\d.]+) M tokens", MODEL)
    assert fine == rounded(NUMBERS["training"]["phase18_tokens"] / 1e6, 1)


def test_no_other_percentage_in_the_opening_or_the_model_section() -> None:
    known = figures()
    for name, text in (("opening", OPENING), ("model section", MODEL)):
        for figure in re.findall(r"(\d+(?:\.\d+)?) %", text):
            assert figure in known, f"the README's {name} says {figure} %, which docs/numbers.json does not hold"


def test_the_sizes_are_the_files_own() -> None:
    params, int8, q4 = one(r"`ndb-cpu-6m` \(([\d.]+) M parameters, 8 layers; int8 ([\d.]+) MB for WASM, q4 ([\d.]+) MB for WebGPU\)", MODEL)
    assert params == rounded(NUMBERS["parameters"]["value"] / 1e6, 1)
    onnx = ROOT / NUMBERS["model"] / "onnx"
    assert int8 == rounded((onnx / "model_int8.onnx").stat().st_size / 1e6, 1)
    assert q4 == rounded((onnx / "model_q4.onnx").stat().st_size / 1e6, 1)


def test_the_model_cards_tables_hold_the_same_numbers() -> None:
    labels = {"teaching": "hand-written teaching programs", "gallery": "the app's gallery", "corpus": "held-out files of the corpus of real code"}
    for key, label in labels.items():
        row = next(line for line in CARD.splitlines() if line.startswith(f"| {label}"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        s = S[key]
        assert cells[1] == f"{s['states']:,}", key
        for cell, field in zip(cells[2:6], ("exact", "event_line", "locals", "value")):
            assert re.match(rf"(\*\*)?{re.escape(str(s[field]))} %", cell), (key, field, cell)
        assert cells[6] == str(s["unparseable"]), key
    conf_labels = {"teaching": "teaching programs", "gallery": "gallery", "corpus": "held-out real code"}
    for key, label in conf_labels.items():
        row = next(line for line in CARD.splitlines() if line.startswith(f"| {label} |"))
        c = C[key]
        for figure in (c["ece"], c["sure_share"], c["sure_right"], c["likely_share"], c["likely_right"]):
            assert re.search(rf"(?<![\d.]){re.escape(str(figure))}(?![\d])", row), (key, figure, row)
    for task in ("output", "input"):
        cx = NUMBERS["cruxeval"][task]
        row = next(line for line in CARD.splitlines() if line.startswith(f"| {task} |"))
        assert f"**{cx['pass_at_1']} %** ({cx['passed']})" in row, (task, row)
