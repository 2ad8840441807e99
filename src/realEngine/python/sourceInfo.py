"""Facts about a program that a debugger front end needs before running it: the lines that hold
code (so that a breakpoint can be verified) and whether an expression parses (conditions)."""

from __future__ import annotations

import json
import types


def executable_lines(source: str) -> str:
    """JSON: ``{"lines": [...]}``, the lines of every code object in the module, nested ones
    included; or ``{"error": message, "line": n}`` when the source does not compile."""
    try:
        code = compile(source, "main.py", "exec")
    except SyntaxError as exc:
        return json.dumps({"error": f"SyntaxError: {exc.msg}", "line": exc.lineno or 1})
    except (ValueError, OverflowError) as exc:  # e.g. a null byte in the source
        return json.dumps({"error": f"{type(exc).__name__}: {exc}", "line": 1})
    lines: set[int] = set()
    stack = [code]
    while stack:
        current = stack.pop()
        lines.update(ln for _, _, ln in current.co_lines() if ln is not None and ln > 0)
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return json.dumps({"lines": sorted(lines)})


def expression_error(expr: str) -> str | None:
    """The SyntaxError message when ``expr`` is not a Python expression, else None."""
    try:
        compile(expr.strip(), "<expression>", "eval")
    except SyntaxError as exc:
        return f"SyntaxError: {exc.msg}"
    except (ValueError, OverflowError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None
