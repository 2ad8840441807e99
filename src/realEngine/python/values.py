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


def first_argument(arguments: str) -> str | None:
    """The first argument of a call's argument list as written (``[1, 2], 3`` → ``[1, 2]``; a
    keyword argument's value if there is no positional one), or None when there is none."""
    try:
        call = ast.parse(f"f({arguments})", mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(call, ast.Call):
        return None
    first = call.args[0] if call.args else call.keywords[0].value if call.keywords else None
    if first is None or isinstance(first, ast.Starred):
        return None
    return ast.unparse(first)


# What a watch expression may call when it is evaluated on predicted locals: pure functions only.
_SAFE_BUILTINS = {
    name: getattr(__builtins__, name) if not isinstance(__builtins__, dict) else __builtins__[name]
    for name in (
        "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "float", "frozenset", "int",
        "isinstance", "len", "list", "max", "min", "range", "repr", "reversed", "round", "set",
        "sorted", "str", "sum", "tuple", "zip", "True", "False", "None",
    )
}


def evaluate_on_locals(expr: str, locals_json: str) -> str:
    """Evaluates ``expr`` on locals given as reprs (a model's prediction), when the expression only
    reads locals (and a few pure builtins) and those locals are literals.

    Returns JSON: ``{"value": repr}``, ``{"error": message}`` when it raised, or
    ``{"unknown": reason}`` when the predicted locals do not determine it."""
    import json

    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as exc:
        return json.dumps({"error": f"SyntaxError: {exc.msg}"})
    predicted: dict[str, str] = json.loads(locals_json)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    if any(isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(tree)):
        return json.dumps({"unknown": "the expression does more than read locals"})
    values: dict[str, Any] = {}
    for name in sorted(names):
        if name in predicted:
            try:
                values[name] = _literal(predicted[name])
            except Exception:
                return json.dumps({"unknown": f"{name} is not a literal value"})
        elif name not in _SAFE_BUILTINS:
            return json.dumps({"unknown": f"{name} is not a predicted local"})
    if any(isinstance(n, ast.Attribute) and n.attr.startswith("_") for n in ast.walk(tree)):
        return json.dumps({"unknown": "the expression reads private attributes"})
    try:
        value = eval(compile(tree, "<watch>", "eval"), {"__builtins__": _SAFE_BUILTINS}, values)
    except Exception as exc:
        return json.dumps({"error": f"{type(exc).__name__}: {exc}"})
    return json.dumps({"value": repr(value)})


def call_arguments_json(values_json: str) -> str | None:
    """``call_arguments`` of a JSON list of reprs (how the engine process passes a list)."""
    import json

    return call_arguments(json.loads(values_json))
