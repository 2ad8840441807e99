"""Helpers the evaluation runs inside Pyodide: comparing Python values written as text."""

from __future__ import annotations

import ast
from typing import Any


def _literal(text: str) -> Any:
    return ast.literal_eval(text.strip())


def same_value(predicted: str, expected: str) -> bool:
    """True when two reprs denote equal Python values (literals), else when the texts are equal."""
    try:
        return bool(_literal(predicted) == _literal(expected))
    except Exception:
        return predicted.strip() == expected.strip()


def call_arguments(values: list[str]) -> str | None:
    """Joins predicted argument reprs into a call's argument list, or None if one is no literal."""
    try:
        for v in values:
            _literal(v)
    except Exception:
        return None
    return ", ".join(v.strip() for v in values)
