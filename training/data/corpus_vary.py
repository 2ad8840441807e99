"""Varying a corpus call's inputs: the same code on many inputs. Literal arguments grow, shrink,
change and become empty or one-item edge cases; scripts get their module-level calls varied."""

from __future__ import annotations

import ast
import random
from typing import Any

from .corpus_checks import MAX_CALL_CHARS, is_literal
from .values import rand_word


def _vary_value(rng: random.Random, value: Any, depth: int = 0) -> Any:
    if isinstance(value, bool):
        return not value if rng.random() < 0.5 else value
    if isinstance(value, int):
        r = rng.random()
        if abs(value) <= 3 or r < 0.3:
            return value + rng.randint(-2, 3)
        if r < 0.6:
            return max(0, value + rng.randint(-abs(value) // 2, abs(value) // 2)) if value >= 0 else value + rng.randint(-3, 3)
        return rng.choice([0, 1, value // 2, value + 1, value - 1])
    if isinstance(value, float):
        return round(value * rng.uniform(0.5, 1.5) + rng.choice([0.0, 0.5, -1.0]), 2)
    if isinstance(value, str):
        return _vary_str(rng, value)
    if isinstance(value, (list, tuple)):
        items = list(value)
        r = rng.random()
        if r < 0.08:
            items = []
        elif r < 0.16 and items:
            items = [rng.choice(items)]
        elif r < 0.4 and len(items) > 1:
            items = items[: rng.randint(1, len(items) - 1)] if rng.random() < 0.5 else rng.sample(items, len(items) - 1)
        elif r < 0.65 and items and depth < 2:
            for _ in range(rng.randint(1, 3)):
                items.insert(rng.randint(0, len(items)), _vary_value(rng, rng.choice(items), depth + 1))
        elif r < 0.8:
            rng.shuffle(items)
        elif items and depth < 2:
            i = rng.randrange(len(items))
            items[i] = _vary_value(rng, items[i], depth + 1)
        return type(value)(items) if isinstance(value, tuple) else items
    if isinstance(value, dict) and value and depth < 2:
        out = dict(value)
        k = rng.choice(list(out))
        out[k] = _vary_value(rng, out[k], depth + 1)
        return out
    return value


def _vary_str(rng: random.Random, s: str) -> str:
    r = rng.random()
    if r < 0.06:
        return ""
    if r < 0.12 and s:
        return s[rng.randrange(len(s))]
    if r < 0.35 and len(s) > 1:
        i = rng.randint(1, len(s) - 1)
        return s[:i] if rng.random() < 0.5 else s[i:]
    if r < 0.6 and s:
        alphabet = sorted(set(s))
        extra = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
        i = rng.randint(0, len(s))
        return s[:i] + extra + s[i:]
    if r < 0.75 and s:
        chars = list(s)
        rng.shuffle(chars)
        return "".join(chars)
    if s.isalpha() or " " in s:
        words = s.split(" ")
        words[rng.randrange(len(words))] = rand_word(rng) if not s.isupper() else rand_word(rng).upper()
        return " ".join(words)
    return s


def vary_call(rng: random.Random, call: str) -> str:
    """The call with some of its literal arguments changed (the same text when none is literal)."""
    try:
        expr = ast.parse(call, mode="eval").body
    except SyntaxError:
        return call

    class Vary(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            for i, arg in enumerate(node.args):
                if is_literal(arg) and rng.random() < 0.7:
                    node.args[i] = _as_node(_vary_value(rng, ast.literal_eval(arg)), arg)
            for kw in node.keywords:
                if is_literal(kw.value) and rng.random() < 0.5:
                    kw.value = _as_node(_vary_value(rng, ast.literal_eval(kw.value)), kw.value)
            return node

    varied = Vary().visit(expr)
    text = ast.unparse(varied)
    return text if len(text) <= MAX_CALL_CHARS * 2 else call


def _as_node(value: Any, like: ast.expr) -> ast.expr:
    try:
        return ast.parse(repr(value), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return like


def vary_script(rng: random.Random, source: str) -> str:
    """A script with literal arguments of its module-level calls varied (definitions unchanged)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    lines = source.split("\n")
    # only the examples after the last definition: a varied constant of the library (a sentinel,
    # a table) would break the code rather than give it another input
    defs = [i for i, n in enumerate(tree.body) if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))]
    for node in tree.body[defs[-1] + 1 if defs else 0:]:
        if isinstance(node, (ast.Expr, ast.Assign)) and any(isinstance(n, ast.Call) for n in ast.walk(node)):
            if node.lineno == node.end_lineno and rng.random() < 0.6:
                lines[node.lineno - 1] = vary_call(rng, lines[node.lineno - 1]) if isinstance(node, ast.Expr) else _vary_assign(rng, node)
    return "\n".join(lines)


def _vary_assign(rng: random.Random, node: ast.Assign) -> str:
    targets = " = ".join(ast.unparse(t) for t in node.targets)
    return f"{targets} = {vary_call(rng, ast.unparse(node.value))}"
