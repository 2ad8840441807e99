"""Where a model's weights come from: the chain of training configs (each config's ``parent`` is
the config whose weights it started from, ``null`` for a run from scratch), the recipes of the
data they read, and the code's commit. ``training.export --config FILE`` writes it into the model's
``config.json`` as ``ndb_provenance``; ``training/configs/shipped/`` is the shipped model's chain.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "training" / "configs"


class ProvenanceError(ValueError):
    pass


def repo_path(path: str | Path) -> str:
    """A config's path as the configs name their parents: relative to the repository's root."""
    p = Path(path)
    p = p.resolve() if p.is_absolute() else (Path.cwd() / p).resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        raise ProvenanceError(f"{path} is not a file of this repository (a config's parent is named from its root)") from None


def read_config(path: str) -> dict[str, Any]:
    file = ROOT / path
    if not file.is_file():
        raise ProvenanceError(f"{path}: no such config")
    return json.loads(file.read_text())


def config_chain(config: str | Path) -> list[str]:
    """The configs whose weights led to ``config``'s, the run from scratch first and ``config``
    last; a missing parent, a config that names none (no ``parent`` key) or a cycle is an error."""
    chain: list[str] = []
    path: str | None = repo_path(config)
    while path is not None:
        if path in chain:
            raise ProvenanceError(f"the parents of {chain[0]} go round in a cycle: {' -> '.join([*chain, path])}")
        cfg = read_config(path)
        if "parent" not in cfg:
            raise ProvenanceError(f'{path} names no "parent" (null for a run from scratch)')
        parent = cfg["parent"]
        if parent is not None and not isinstance(parent, str):
            raise ProvenanceError(f'{path}: "parent" must be a config\'s path or null, not {parent!r}')
        chain.append(path)
        path = parent
    return chain[::-1]


def chain_recipes(chain: list[str]) -> list[str]:
    """The recipes the chain's configs read, each once, in the order the chain first read it."""
    recipes: list[str] = []
    for path in chain:
        data = read_config(path).get("data", {})
        for recipe in data.get("recipes", []) if isinstance(data, dict) else []:
            if recipe not in recipes:
                recipes.append(recipe)
    return recipes


def git_commit() -> tuple[str | None, bool]:
    """HEAD's commit and whether the working tree differs from it (None outside a git checkout)."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None, False
    return head, status.strip() != ""


def provenance(config: str | Path) -> dict[str, Any]:
    """``ndb_provenance`` for weights that ``config`` finished: its chain, their recipes, the commit."""
    chain = config_chain(config)
    commit, dirty = git_commit()
    return {"configs": chain, "recipes": chain_recipes(chain), "git_commit": commit, "git_dirty": dirty}
