"""The real engine's tracer, imported from its one copy in ``src/realEngine/python/tracer.py``.

The app loads that file into Pyodide; the training pipeline imports it through this module, so that
ground truth in the browser and training data come from the same code.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parents[1] / "src" / "realEngine" / "python"
TRACER_PATH = ENGINE_DIR / "tracer.py"


def _load(name: str, path: Path):  # noqa: ANN202 - a module object
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {name} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


# The tracer imports its sandbox (sandbox.py) by the name the engine installs it under.
_load("ndb_sandbox", ENGINE_DIR / "sandbox.py")
tracer = _load("ndb_tracer", TRACER_PATH)
