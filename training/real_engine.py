"""The real engine's tracer, imported from its one copy in ``src/realEngine/tracer.py``.

The app loads that file into Pyodide; the training pipeline imports it through this module, so that
ground truth in the browser and training data come from the same code.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TRACER_PATH = Path(__file__).resolve().parents[1] / "src" / "realEngine" / "tracer.py"


def _load_tracer():  # noqa: ANN202 - a module object
    name = "ndb_tracer"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TRACER_PATH)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the tracer from {TRACER_PATH}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    spec.loader.exec_module(module)
    return module


tracer = _load_tracer()
