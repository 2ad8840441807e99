"""The whole model pipeline on a tiny scale (CI, about a minute): generate and trace programs,
build a dataset, train the `tiny` config, export, quantize, then load the model in Node through the
app's TypeScript path and predict, evaluate and pose CruxEval items."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import onnx
import pytest

from training import build_dataset, export, make_eval_set, quantize, train
from training.data.token_source import ShardSource

ROOT = Path(__file__).resolve().parents[2]
CRUXEVAL = ROOT.parent / "shared" / "cruxeval" / "dev.jsonl"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node for Pyodide and the CLI")


def ndb(*args: str) -> str:
    done = subprocess.run(["node", "bin/ndb.mjs", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_generate_train_export_and_evaluate(tmp_path: Path) -> None:
    data = tmp_path / "data"
    build_dataset.main(["--tokens", "60000", "--out", str(data), "--workers", "1", "--vocab-size", "400", "--quiet"])
    stats = json.loads((data / "stats.json").read_text())
    assert stats["tokens"]["train"] > 0 and stats["tokens"]["val"] > 0
    run = tmp_path / "run"
    config = train.load_config(ROOT / "training/configs/tiny.json")
    ckpt = train.train(config, ShardSource(data), run)
    model_dir = tmp_path / "models" / "tiny"
    export.export(ckpt, data / "tokenizer", model_dir)
    quantize.main([str(model_dir)])
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx", "onnx/model_int8.onnx", "onnx/model_q4.onnx"):
        assert (model_dir / name).exists(), name
    assert json.loads((model_dir / "config.json").read_text())["ndb_trained_context"] == config["train"]["seq_len"]
    q4 = onnx.load(str(model_dir / "onnx" / "model_q4.onnx"))
    writes = {n.output[0]: n.op_type for n in q4.graph.node}
    assert writes["logits"] == "MatMul" and "MatMulNBits" in writes.values()  # the output projection stays fp32

    states = json.loads(ndb("debug", "examples/01_loop_sum.py", "--call", "total([3, 1])", "--actions", "step_into,step_over", "--engine", "both", "--model", str(model_dir), "--json"))["states"]
    assert len(states) == 3
    assert all({"real", "neural", "match"} <= set(s) for s in states)
    assert states[1]["real"]["event"] == "line"

    evalset = tmp_path / "eval.jsonl"
    make_eval_set.main(["--n", "3", "--out", str(evalset)])
    report = json.loads(ndb("eval", "trajectories", str(evalset), "--model", str(model_dir), "--dtype", "int8", "--json").splitlines()[-1])
    assert report["n"] > 0
    # an exactly right state has its event right (every state has one); the actions' counts add up
    assert report["fields"]["event"]["n"] == report["n"] and report["exact_match"] <= report["fields"]["event"]["accuracy"]
    assert sum(a["n"] for a in report["per_action"].values()) == report["n"]
    # the constrained decoder writes only states, even for a model trained 30 steps
    assert report["decoder"] == "constrained" and report["unparseable"] == 0
    assert set(report["fields"]) >= {"event", "line"}
    assert report["after_edit"]["n"] == 0

    what_if = tmp_path / "what_if.jsonl"
    make_eval_set.main(["--n", "3", "--what-if", "--out", str(what_if)])
    items = [json.loads(line) for line in what_if.read_text().splitlines()]
    assert items and all(sum(a.startswith("set:") for a in item["actions"]) == 1 for item in items)
    report = json.loads(ndb("eval", "trajectories", str(what_if), "--model", str(model_dir), "--dtype", "int8", "--json").splitlines()[-1])
    assert 0 < report["after_edit"]["n"] < report["n"] and report["edits_refused"] == 0  # set: items are given, not predicted

    if not CRUXEVAL.exists():
        # ../shared beside the repository holds the benchmark; a machine without it says so
        if os.environ.get("NDB_NO_SHARED") == "1":
            pytest.skip(f"NDB_NO_SHARED=1: {CRUXEVAL} is not on this machine")
        raise AssertionError(f"{CRUXEVAL} is missing: put ../shared beside the repository (or set NDB_NO_SHARED=1 where it cannot be)")
    last = json.loads(ndb("eval", "cruxeval", str(CRUXEVAL), "--task", "input", "--limit", "2", "--model", str(model_dir), "--json").splitlines()[-1])
    assert last["task"] == "input" and last["n"] == 2 and last["action"] == "inv_step_call"
