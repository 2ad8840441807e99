"""Every training config says where its weights start (``parent``: an existing config, or null)
and what it read (``data.recipes``, or for the phases before recipes ``data.built_with``); no chain
of parents goes round; ``training/configs/shipped/`` is the shipped model's chain in order; the
shipped model's ``config.json`` names that chain and its recipes; the exporter writes them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from training import export
from training.model import Decoder, ModelConfig
from training.provenance import ROOT, ProvenanceError, chain_recipes, config_chain, provenance
from training.train import save_checkpoint

CONFIGS = ROOT / "training" / "configs"
SHIPPED_MODEL = ROOT / "public" / "models" / "ndb-cpu-6m"
ALL = sorted(CONFIGS.rglob("*.json"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_there_are_configs_to_check() -> None:
    assert len(ALL) >= 30 and CONFIGS / "tiny.json" in ALL


@pytest.mark.parametrize("path", ALL, ids=rel)
def test_every_config_names_its_parent_and_its_data(path: Path) -> None:
    cfg = json.loads(path.read_text())
    assert "parent" in cfg, f"{rel(path)} has no parent (null for a run from scratch)"
    parent = cfg["parent"]
    if parent is not None:
        assert isinstance(parent, str) and (ROOT / parent).is_file(), f"{rel(path)}: its parent {parent!r} does not exist"
        assert parent != rel(path)
    data = cfg.get("data")
    assert isinstance(data, dict) and isinstance(data.get("recipes"), list), f"{rel(path)} names no data.recipes"
    for recipe in data["recipes"]:
        assert (ROOT / recipe).is_file(), f"{rel(path)}: no recipe {recipe}"
    if not data["recipes"]:
        # the phases before recipes say how their data was built; the others why they name none
        built = data.get("built_with", [])
        assert built or data.get("note"), f"{rel(path)}: no recipe, and neither built_with nor a note"
        for b in built:
            assert len(b["commit"]) >= 7 and b["command"].startswith("python3 -m training.build_dataset ")
    # the chain from it to a run from scratch ends (config_chain refuses a cycle)
    chain = config_chain(path)
    assert chain[-1] == rel(path) and json.loads((ROOT / chain[0]).read_text())["parent"] is None


def test_a_cycle_or_a_missing_parent_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import training.provenance as prov

    root = tmp_path
    (root / "c").mkdir()
    (root / "c" / "a.json").write_text(json.dumps({"parent": "c/b.json"}))
    (root / "c" / "b.json").write_text(json.dumps({"parent": "c/a.json"}))
    (root / "c" / "d.json").write_text(json.dumps({"parent": "c/gone.json"}))
    (root / "c" / "e.json").write_text(json.dumps({"model": {}}))
    monkeypatch.setattr(prov, "ROOT", root)
    with pytest.raises(ProvenanceError, match="cycle"):
        prov.config_chain(root / "c" / "a.json")
    with pytest.raises(ProvenanceError, match="no such config"):
        prov.config_chain(root / "c" / "d.json")
    with pytest.raises(ProvenanceError, match='names no "parent"'):
        prov.config_chain(root / "c" / "e.json")


def test_shipped_holds_the_shipped_chain_in_order() -> None:
    shipped = sorted((CONFIGS / "shipped").glob("*.json"))
    assert [p.name[:3] for p in shipped] == [f"{i:02d}-" for i in range(1, len(shipped) + 1)]
    chain = config_chain(shipped[-1])
    assert chain == [rel(p) for p in shipped]


def test_the_shipped_model_names_its_chain_and_recipes() -> None:
    origin = json.loads((SHIPPED_MODEL / "config.json").read_text())["ndb_provenance"]
    shipped = sorted((CONFIGS / "shipped").glob("*.json"))
    assert origin["configs"] == [rel(p) for p in shipped]
    assert origin["recipes"] == chain_recipes(origin["configs"])
    assert origin["recipes"] and all((ROOT / r).is_file() for r in origin["recipes"])
    assert len(origin["git_commit"]) == 40


def test_export_writes_the_provenance(tmp_path: Path) -> None:
    tiny = json.loads((CONFIGS / "tiny.json").read_text())
    vocab = len(json.loads((SHIPPED_MODEL / "tokenizer.json").read_text())["model"]["vocab"])
    model = Decoder(ModelConfig.from_dict({**tiny["model"], "vocab_size": vocab}))
    ckpt = tmp_path / "checkpoint.pt"
    save_checkpoint(ckpt, model, torch.optim.AdamW(model.parameters()), 0, tiny)
    out = tmp_path / "model"
    export.export(ckpt, SHIPPED_MODEL, out, config=CONFIGS / "cpu-phase12.json")
    written = json.loads((out / "config.json").read_text())["ndb_provenance"]
    assert written["configs"] == [
        *[rel(p) for p in sorted((CONFIGS / "shipped").glob("0[1-9]-*.json"))],
        "training/configs/cpu-phase11.json",
        "training/configs/cpu-phase12.json",
    ]
    assert written["recipes"][-3:] == ["training/recipes/data16m_s13.json", "training/recipes/data40m_s14.json", "training/recipes/data80m_s15.json"]
    again = provenance(CONFIGS / "cpu-phase12.json")
    assert (written["configs"], written["recipes"], written["git_commit"]) == (again["configs"], again["recipes"], again["git_commit"])
    assert len(written["git_commit"]) == 40 and isinstance(written["git_dirty"], bool)
    # without --config it says nothing of where the weights come from
    export.export(ckpt, SHIPPED_MODEL, tmp_path / "bare")
    assert "ndb_provenance" not in json.loads((tmp_path / "bare" / "config.json").read_text())
