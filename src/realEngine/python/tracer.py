"""The one tracer of ndb.

It runs a user's program under ``sys.settrace`` and records every call, line, return and exception
event of the user's own code (calls into library code are not recorded, like debugpy's justMyCode).
The app loads this file into Pyodide (browser worker and Node CLI); the training pipeline imports it.
Ground truth and training data therefore come from the same code.

``record(source, call)`` returns a JSON-ready dict; see ``docs/trace.md`` for its fields.
What-if debugging re-runs the program with ``edits`` (assignments made in the live frame at a given
event), ``conditions`` (breakpoint conditions, evaluated in the frame at each line event of their
line) and ``watch`` (expressions evaluated in the frame at every event).
"""

from __future__ import annotations

import builtins
import dis
import io
import json
import opcode
import reprlib
import sys
import time
import types
from itertools import islice
from operator import is_
from typing import Any

import ndb_sandbox  # src/realEngine/python/sandbox.py, installed beside this file

USER_FILENAME = "main.py"
# A breakpoint's place across the files of a project: file index * FILE_LINES + line (the main
# file is index 0, so its keys are its line numbers). core/location.ts uses the same number.
FILE_LINES = 1_000_000
GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR
DEFAULT_MAX_EVENTS = 10_000
DEFAULT_MAX_REPR = 1_000
MAX_STDOUT = 100_000
# A code's qualified name longer than this is left out (the faces show its name).
MAX_QUALNAME = 1_000
TRUNCATION_MARK = "\u2026"


# A run's answer must arrive within its time limit and a second (processHost.ts ends the engine
# from outside then: a call Python cannot interrupt). Writing the answer takes time in proportion
# to the events recorded, so a run with many stops early enough to send them in that second.
ANSWER_SECONDS_PER_EVENT = 40e-6
ANSWER_MARGIN_S = 0.5


class StopProgram(BaseException):
    """Raised from the trace function to end a runaway program (a BaseException so that a user's
    ``except Exception`` cannot swallow it)."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class EditFailed(Exception):
    pass


class InputNotAvailable(RuntimeError):
    pass


class _Quitter:
    """``exit()`` and ``quit()`` while a program runs: SystemExit, as site's own raise it, without
    first closing ``sys.stdin``, which site's do and which every later run in this interpreter
    shares (a re-run to evaluate at a stop would read a closed input)."""

    def __init__(self, original: Any) -> None:
        self.text = str(original)

    def __repr__(self) -> str:
        return self.text

    def __call__(self, code: object = None) -> None:
        raise SystemExit(code)


def _no_input(prompt: object = "") -> str:
    raise InputNotAvailable(
        "input() is not available in ndb without input: give the program its input "
        "(MCP start_session's `stdin`, the app's Input field), or pass values as arguments of the call"
    )


def _reading_input(stdin: io.StringIO, ran_out: Any = None) -> Any:
    """input() over the text a run was given (``stdin``, one line per call), echoed as a terminal
    shows it: the prompt, then the line read. Past the last line it raises EOFError, as Python
    does at the end of its input; ``ran_out(prompt)`` is told the first time (the app then asks
    the user for the line and runs the program again with it)."""

    def read_input(prompt: object = "") -> str:
        out = sys.stdout
        if prompt != "":
            out.write(str(prompt))
        line = stdin.readline()
        if line == "":
            if ran_out is not None:
                ran_out(prompt)
            raise EOFError("EOF when reading a line")
        text = line[:-1] if line.endswith("\n") else line
        out.write(text + "\n")
        return text

    return read_input


# A generator (or coroutine) suspended at a yield (or an await) reports a return event whose
# frame stands at this instruction; a real return stands at RETURN_VALUE.
_YIELD_VALUE = opcode.opmap.get("YIELD_VALUE", -1)


class _Capture:
    """Stands in for sys.stdout while the program runs; keeps at most MAX_STDOUT characters."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False
        # Everything written, kept or not: a cut output says how long it really was.
        self.total = 0

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        self.total += len(text)
        room = MAX_STDOUT - self.size
        if room <= 0:
            self.truncated = True
            return len(text)
        piece = text[:room]
        if len(piece) < len(text):
            self.truncated = True
        self.parts.append(piece)
        self.size += len(piece)
        return len(text)

    def flush(self) -> None:
        pass

    def getvalue(self) -> str:
        return "".join(self.parts)


def _strip_addresses(text: str) -> str:
    # Reprs such as "<function f at 0x7f...>" would make traces depend on memory layout.
    return _replace_addresses(text, "")


def _replace_addresses(text: str, address: str) -> str:
    """``text`` with each `` at 0x<hex digits>`` written ``address`` (a bare `` at 0x`` is kept)."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        j = text.find(" at 0x", i)
        if j < 0:
            out.append(text[i:])
            break
        k = j + 6
        while k < n and text[k] in "0123456789abcdefABCDEF":
            k += 1
        out.append(text[i:j])
        out.append(address if k > j + 6 else " at 0x")
        i = k
    return "".join(out)


# How deep the attribute form nests before it writes `Name(...)`.
OBJECT_DEPTH = 4


# The modules whose classes are the program's own: the main file's (``__main__``), and for a program
# of several files its other modules (``_user_modules``).
MAIN_MODULES = frozenset({"__main__"})


def _is_user_object(value: Any, modules: frozenset[str] = MAIN_MODULES) -> bool:
    """An instance of a class the user's program defined (its module is one of the program's own
    files: ``__main__``, or another module handed in with the project)."""
    cls = type(value)
    return getattr(cls, "__module__", None) in modules and not isinstance(value, (type, BaseException))


def _object_fields(value: Any) -> list[tuple[str, Any]]:
    """The instance's attributes as ``vars()`` and ``__slots__`` hold them; no property or
    ``__getattr__`` runs, so showing an object never runs the user's code."""
    fields: list[tuple[str, Any]] = []
    try:
        fields.extend(vars(value).items())
    except TypeError:
        pass
    seen = {name for name, _ in fields}
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in seen or name in ("__dict__", "__weakref__"):
                continue
            try:
                fields.append((name, object.__getattribute__(value, name)))
                seen.add(name)
            except AttributeError:
                pass
    return fields


def _user_line(exc: BaseException) -> int | None:
    """The line of the program's main file where ``exc`` was raised (its innermost frame there)."""
    line = None
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == USER_FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


_SIZED = (str, bytes, bytearray, list, tuple, dict, set, frozenset)


def _cut_size(value: Any, text: str) -> int | None:
    """len() of a value whose repr was cut at the cap (or, for a container of more than 1,000
    items, shortened by reprlib), for the builtin types whose len() runs no user code; None
    otherwise. The UI says how long such a value really is."""
    if type(value) not in _SIZED:
        return None
    shortened = not isinstance(value, (str, bytes, bytearray)) and len(value) > 1000
    return len(value) if shortened or text.endswith(TRUNCATION_MARK) else None


# Frames the tracer may use past the program's recursion limit, so that the innermost frames of
# a runaway recursion keep their values: the tracer runs on top of the program's deepest frame.
TRACER_HEADROOM = 100


def _raise_recursion_limit() -> int | None:
    """Gives the tracer TRACER_HEADROOM frames past the program's recursion limit; returns the
    limit to put back, or None past it (while a RecursionError is being raised), where Python
    would refuse to put it back before the program runs on."""
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(limit)  # raises RecursionError at or past the limit
    except RecursionError:
        return None
    sys.setrecursionlimit(limit + TRACER_HEADROOM)
    return limit


class _Reprer:
    def __init__(self, max_repr: int, user_modules: frozenset[str] = MAIN_MODULES) -> None:
        self.max_repr = max_repr
        self.user_modules = user_modules
        # How object.__repr__ begins for an instance of one of them (`<pricing.Order object at …>`).
        self.user_marks = tuple(f"<{name}." for name in sorted(user_modules))
        short = reprlib.Repr()
        short.maxlevel = 4
        short.maxlist = short.maxtuple = short.maxset = short.maxfrozenset = 50
        short.maxdict = 30
        short.maxdeque = short.maxarray = 50
        short.maxstring = max_repr
        short.maxlong = max_repr
        short.maxother = max_repr
        self.short = short

    def __call__(self, value: Any) -> str:
        try:
            text = self._builtin(value)
            if any(mark in text for mark in self.user_marks):
                # An instance of a user class without a __repr__ of its own, here or inside a
                # container: show its attributes, as a learner (and the model) must see them change.
                text = self._shown(value, 0, set())
        except RecursionError:
            text = "<repr failed: RecursionError>"
        except Exception as exc:  # a user's __repr__ may raise anything
            # e.g. a __repr__ that reads attributes __init__ has not set yet
            text = self._object_form(value, 0, set()) if _is_user_object(value, self.user_modules) else f"<repr failed: {type(exc).__name__}>"
        if not isinstance(text, str):
            text = "<repr failed: not a str>"
        text = _strip_addresses(text)
        if len(text) > self.max_repr:
            text = text[: self.max_repr] + TRUNCATION_MARK
        return text

    def _builtin(self, value: Any) -> str:
        if isinstance(value, (str, bytes, bytearray)) and len(value) > self.max_repr:
            return repr(value[: self.max_repr])
        if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > 1000:
            return self.short.repr(value)
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 10_000:
            return f"<int with about {int(value.bit_length() * 0.30103) + 1} digits>"
        return repr(value)

    def _shown(self, value: Any, depth: int, active: set[int]) -> str:
        """``repr`` with user objects in the attribute form, walking the builtin containers that
        hold them; ``active`` holds the containers being written, so a cycle writes ``...``."""
        kind = type(value)
        if kind in (list, tuple, dict, set, frozenset):
            if id(value) in active:
                return {list: "[...]", dict: "{...}", tuple: "(...)"}.get(kind, "...")
            if len(value) > 1000:
                return self._builtin(value)
            active.add(id(value))
            try:
                return self._container(value, depth, active)
            finally:
                active.discard(id(value))
        if _is_user_object(value, self.user_modules) and kind.__repr__ is object.__repr__:
            return self._object_form(value, depth, active)
        try:
            return self._builtin(value)
        except RecursionError:
            raise
        except Exception:
            if _is_user_object(value, self.user_modules):
                return self._object_form(value, depth, active)
            raise

    def _container(self, value: Any, depth: int, active: set[int]) -> str:
        budget = self.max_repr
        parts: list[str] = []
        size = 0

        def add(text: str) -> bool:
            nonlocal size
            parts.append(text)
            size += len(text) + 2
            return size <= budget  # past the cap the text is cut anyway: stop walking

        kind = type(value)
        if kind is dict:
            for k, v in value.items():
                if not add(f"{self._shown(k, depth, active)}: {self._shown(v, depth, active)}"):
                    break
            return "{" + ", ".join(parts) + "}"
        for item in value:
            if not add(self._shown(item, depth, active)):
                break
        body = ", ".join(parts)
        if kind is list:
            return f"[{body}]"
        if kind is tuple:
            return f"({body},)" if len(value) == 1 else f"({body})"
        if not value:
            return "set()" if kind is set else "frozenset()"
        return "{" + body + "}" if kind is set else "frozenset({" + body + "})"

    def _object_form(self, value: Any, depth: int, active: set[int]) -> str:
        name = type(value).__name__
        if id(value) in active:
            return f"{name}(...)"
        if depth >= OBJECT_DEPTH:
            return f"{name}(...)"
        active.add(id(value))
        try:
            parts: list[str] = []
            size = 0
            for attr, attr_value in _object_fields(value):
                text = f"{attr}={self._shown(attr_value, depth + 1, active)}"
                parts.append(text)
                size += len(text) + 2
                if size > self.max_repr:
                    break
            return f"{name}({', '.join(parts)})"
        finally:
            active.discard(id(value))


# Values that are not shown as objects of their own: immutable builtins, where "same object" is an
# accident of CPython's caching and not what a lesson on aliasing is about; and definitions.
_NOT_OBJECTS = (type(None), bool, int, float, complex, str, bytes, tuple, frozenset, range, types.ModuleType,
                types.FunctionType, types.BuiltinFunctionType, types.MethodType)
MAX_GLOBALS = 40


def _is_definition(value: Any) -> bool:
    # type() and issubclass(…, type) read no attribute of the value: no user code runs here.
    kind = type(value)
    return kind in (types.ModuleType, types.FunctionType, types.BuiltinFunctionType) or issubclass(kind, type)


def _closure_info(code: types.CodeType) -> dict[str, Any]:
    """A function's variables that live in an enclosing function (``nonlocal``, or read from it),
    and that function's name, for the code table of a recording made with ``objects``."""
    if not code.co_freevars:
        return {}
    qualname = getattr(code, "co_qualname", code.co_name)
    outer = qualname.rsplit(".<locals>.", 1)[0].rsplit(".", 1)[-1] if ".<locals>." in qualname else ""
    return {"free": list(code.co_freevars), "enclosing": outer}


def _global_names(code: types.CodeType) -> frozenset[str]:
    """The module variables a code object reads or writes (``LOAD_GLOBAL``, ``STORE_GLOBAL``)."""
    try:
        return frozenset(
            str(i.argval) for i in dis.get_instructions(code) if i.opname in ("LOAD_GLOBAL", "STORE_GLOBAL", "DELETE_GLOBAL")
        )
    except Exception:
        return frozenset(code.co_names)


def _shown_global_names(code: types.CodeType) -> frozenset[str]:
    """The module variables shown beside a function's locals: those it reads or writes, and those a
    local of the same name hides (inside ``reset()`` with a local ``score = 0`` the global ``score``
    is still there, unchanged, and a pupil should see it)."""
    return _global_names(code) | frozenset(code.co_varnames) | frozenset(code.co_cellvars)


# The heap graph of a recording made with `objects` (docs/trace.md, `heap`): how far one event's
# walk from its names goes, and how long an inline value's text may be there.
MAX_HEAP_NODES = 60
MAX_HEAP_ITEMS = 30
MAX_HEAP_TEXT = 200
MAX_HEAP_BASES = 4
# How many items of a tuple (a frozenset) and the tuples inside it are looked at to tell whether it
# holds an object (a list, an instance): such a tuple is a box of the heap, others stay inline.
TUPLE_LOOK = 100
# Values a heap cell writes inline although the tracer would number them: what a class's body
# defines besides its data (a class attribute `tricks = []` is a box; a `staticmethod` is not).
_HEAP_INLINE = (staticmethod, classmethod, property, types.MemberDescriptorType, types.GetSetDescriptorType,
                types.WrapperDescriptorType, types.MethodDescriptorType, types.MethodWrapperType,
                types.ClassMethodDescriptorType)
# The builtin containers whose items a heap box shows, subclasses included (read through the base
# type's own methods, so that a subclass's __iter__ or items() never runs).
_HEAP_CONTAINERS = ((list, "list"), (dict, "dict"), (set, "set"), (frozenset, "frozenset"), (tuple, "tuple"))


def _elide_addresses(text: str) -> str:
    """Python's repr with its addresses written ``0x…``: ``<__main__.Pet object at 0x…>`` as a
    learner sees it printed, and the same in every run."""
    return _replace_addresses(text, " at 0x…")


def _heap_name(name: Any) -> str:
    """An attribute's name in a box, cut as an inline value is (a name can be any text)."""
    text = name if isinstance(name, str) else repr(name)
    return text[:MAX_HEAP_TEXT] + TRUNCATION_MARK if len(text) > MAX_HEAP_TEXT else text


def _same_items(a: tuple[Any, ...] | list[Any], b: tuple[Any, ...] | list[Any]) -> bool:
    """The same objects in the same order (identity only: no ``__eq__`` of the program runs; the
    boxes' fingerprints keep their objects alive, so an id is never another object's)."""
    return len(a) == len(b) and all(map(is_, a, b))


# The first MAX_HEAP_ITEMS items of a list or a tuple (read through the base type's own slicing).
_HEAP_HEAD = slice(0, MAX_HEAP_ITEMS)
# The types whose inline text in a box is the value's alone: immutable, and written by a repr that
# runs none of the program's code (by id: comparing classes could run a metaclass's __eq__).
_PLAIN_KINDS = frozenset(map(id, (str, bytes, int, float, complex, bool, type(None))))
# How many inline cells the walk keeps for values met again, and how long a kept str or bytes may
# be (a kept cell keeps its value alive).
MAX_HEAP_CELLS = 4096
MAX_KEPT_TEXT = 1000
# The share of a run's time limit the heap walk may take, all events together (docs/trace.md,
# `heap_stopped`): past it the walk stops, and the run goes on without the heap.
HEAP_TIME_SHARE = 0.25


class _Objects:
    """Object identity for the real engine's views (the model's format does not carry it): each
    object a shown name refers to gets a small number, the first seen first, so two names with one
    number are one object; beside a function's own locals the module's variables it reads or
    writes, or that are one object with one of its locals (a list passed in); and the heap graph
    reachable from those names (``heap``), sent as the boxes that changed since they were last sent.

    ``heap_seconds``: how long the heap walk may take, all events together (None: no bound); past
    it the next event says ``heap_stopped`` and no later one walks the heap."""

    def __init__(self, reprer: Any, heap_seconds: float | None = None, heap: bool = True) -> None:
        self.repr = reprer
        self.user_modules: frozenset[str] = getattr(reprer, "user_modules", MAIN_MODULES)
        self.numbers: dict[int, int] = {}
        self.alive: list[Any] = []  # keeps id() values from being reused while the run lasts
        self.uses: dict[types.CodeType, frozenset[str]] = {}
        # object number -> the box as last sent (an event's `heap` holds only boxes that differ)
        self.sent: dict[int, dict[str, Any]] = {}
        # object number -> (what its box was made of, the box, its children as (number, object)):
        # a box whose class, size and objects are the same ones is not made again
        self.made: dict[int, tuple[tuple[Any, ...], dict[str, Any], list[tuple[int, Any]]]] = {}
        # id of an inline value of a _PLAIN_KINDS type -> (the value, its cell): its text is made
        # once (the value kept alive, so that its id is never another object's)
        self.cells: dict[int, tuple[Any, dict[str, str]]] = {}
        self.default_reprs: dict[type, str] = {}
        self.plans: dict[type, tuple[Any, ...]] = {}
        self.heap_seconds = heap_seconds
        # Only the app draws the heap: the other faces' runs number the objects and leave the walk out.
        self.heap = heap
        self.heap_spent = 0.0
        self.heap_stopped = False

    def _number(self, value: Any) -> int:
        key = id(value)
        n = self.numbers.get(key)
        if n is None:
            n = len(self.numbers) + 1
            self.numbers[key] = n
            self.alive.append(value)
        return n

    def number(self, value: Any) -> int | None:
        kind = type(value)
        if kind in _NOT_OBJECTS or issubclass(kind, type):
            # A tuple (a frozenset) of values stays a value; one that holds a list or an instance
            # is shown as the object it is (never CPython's constant cache, which holds no lists).
            if (kind is not tuple and kind is not frozenset) or not self._holds_objects(value, [TUPLE_LOOK]):
                return None
        return self._number(value)

    def _holds_objects(self, value: Any, budget: list[int]) -> bool:
        for item in (tuple.__iter__(value) if type(value) is tuple else frozenset.__iter__(value)):
            budget[0] -= 1
            if budget[0] < 0:
                return False
            kind = type(item)
            if kind is tuple or kind is frozenset:
                if self._holds_objects(item, budget):
                    return True
            elif kind not in _NOT_OBJECTS and not issubclass(kind, type):
                return True
        return False

    def _ids(self, names: dict[str, str], namespace: Any, objects: set[int] | None = None,
             roots: list[Any] | None = None) -> dict[str, int]:
        out: dict[str, int] = {}
        for name in names:
            try:
                value = namespace[name]
            except Exception:  # a name a frame no longer has (a FrameLocalsProxy edge)
                continue
            n = self.number(value)
            if n is not None:
                out[name] = n
                if objects is not None:
                    objects.add(id(value))
                if roots is not None:
                    roots.append(value)
        return out

    def annotate(self, record: dict[str, Any], frame: types.FrameType) -> None:
        """Adds ``ids`` (local name → object number) and, in a function's frame, ``globals`` (the
        module's variables it uses, hides with a local or shares an object with, as reprs) with
        ``global_ids``; then the heap graph of those objects (``heap``, ``heap_cut``), until the
        walk has taken its share of the run's time (``heap_stopped``)."""
        roots: list[Any] = []
        try:
            f_locals = frame.f_locals
            local_objects: set[int] = set()
            ids = self._ids(record["locals"], f_locals, local_objects, roots)
            if ids:
                record["ids"] = ids
            g = frame.f_globals
            if g is not f_locals and frame.f_code.co_name != "<module>":
                code = frame.f_code
                uses = self.uses.get(code)
                if uses is None:
                    uses = self.uses[code] = _shown_global_names(code)
                shown: dict[str, str] = {}
                # Only what this function touches is written out: a repr of every module variable at
                # every event would cost a program with large globals most of its time budget.
                for name, value in list(g.items()):
                    if len(shown) >= MAX_GLOBALS:
                        break
                    if name not in uses and id(value) not in local_objects:
                        continue
                    if name.startswith("__") and name.endswith("__") or _is_definition(value):
                        continue
                    shown[name] = self.repr(value)
                if shown:
                    record["globals"] = shown
                    global_ids = self._ids(shown, g, None, roots)
                    if global_ids:
                        record["global_ids"] = global_ids
        except RecursionError:
            # deep in a recursion: the event keeps its locals, without identities
            record.pop("ids", None)
            return
        if not self.heap or self.heap_stopped:
            return
        if self.heap_seconds is not None and self.heap_spent > self.heap_seconds:
            # Drawing the heap further would cost the run its time limit: the views say where it
            # stopped (the events from here on have no boxes), and the run goes on.
            self.heap_stopped = True
            record["heap_stopped"] = True
            self.made.clear()  # what the walk kept for its next event: there is none
            self.cells.clear()
            self.sent.clear()
            return
        started = time.monotonic()
        try:
            self._heap(record, roots)
        except Exception:  # RecursionError included: the event shows no boxes, never stale ones
            record.pop("heap", None)
            record["heap_cut"] = []
        self.heap_spent += time.monotonic() - started

    # -- the heap graph -------------------------------------------------------------------------

    def _heap(self, record: dict[str, Any], roots: list[Any]) -> None:
        """The boxes reachable from the event's numbered names, breadth first (the names in their
        order, then each box's items in theirs), at most MAX_HEAP_NODES of them. ``heap`` gets the
        boxes that differ from the last ones sent; ``heap_cut``, when the walk stopped at the cap,
        the numbers of those it reached (the view shows only them)."""
        numbers = self.numbers
        plans = self.plans
        sent = self.sent
        queue: list[tuple[int, Any]] = []
        queued: set[int] = set()
        for value in roots:
            n = numbers[id(value)]
            if n not in queued:
                queued.add(n)
                queue.append((n, value))
        changed: list[dict[str, Any]] = []
        head = 0
        while head < len(queue) and head < MAX_HEAP_NODES:
            n, value = queue[head]
            head += 1
            kind = type(value)
            plan = plans.get(kind)
            if plan is None:
                plan = plans[kind] = self._plan(kind)
            box, children = plan[0](value, n, plan)
            before = sent.get(n)
            if before is not box and before != box:
                changed.append(box)
            for c, child in children:
                if c not in queued:
                    queued.add(c)
                    queue.append((c, child))
        if changed:
            record["heap"] = changed
        if head < len(queue):
            record["heap_cut"] = [n for n, _ in queue[:head]]
        for box in changed:
            sent[box["id"]] = box

    def _cell(self, value: Any, children: list[tuple[int, Any]]) -> dict[str, Any]:
        """An item as a heap box holds it: ``{"ref": n}`` for an object (a box of its own), else
        ``{"v": repr}`` inline (numbers, strings, None, tuples of values, functions, classes)."""
        kept = self.cells.get(id(value))
        if kept is not None:  # the value it was made for, alive: no other object has its id
            return kept[1]
        kind = type(value)
        n = None if issubclass(kind, _HEAP_INLINE) else self.number(value)
        if n is None:
            text = self.repr(value)
            if len(text) > MAX_HEAP_TEXT:
                text = text[:MAX_HEAP_TEXT] + TRUNCATION_MARK
            cell = {"v": text}
            if id(kind) in _PLAIN_KINDS and self._keeps(value, kind, text):
                if len(self.cells) >= MAX_HEAP_CELLS:
                    self.cells.clear()
                self.cells[id(value)] = (value, cell)
            return cell
        children.append((n, value))
        return {"ref": n}

    @staticmethod
    def _keeps(value: Any, kind: type, text: str) -> bool:
        """Whether an inline value's cell may be kept: a str or bytes short enough to keep alive,
        an int whose text no limit on int digits (at least 640, sys.set_int_max_str_digits) could
        refuse, any float, complex, bool or None."""
        if kind is str or kind is bytes:
            return len(value) <= MAX_KEPT_TEXT
        if kind is int:
            return len(text) < 600 and not text.startswith("<")
        return True

    def _plan(self, kind: type) -> tuple[Any, ...]:
        """How a box of objects of class ``kind`` is made, found once per class."""
        if issubclass(kind, type):
            return (self._class_box,)
        for base, name in _HEAP_CONTAINERS:
            if issubclass(kind, base):
                return (self._container_box, base, name)
        user_class = getattr(kind, "__module__", None) in self.user_modules and not issubclass(kind, BaseException)
        slotted = any("__slots__" in type.__dict__["__dict__"].__get__(k, type) for k in kind.__mro__[:-1])
        return (self._instance_box, user_class, slotted)

    def _container_box(self, value: Any, n: int, plan: tuple[Any, ...]) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
        base, name = plan[1], plan[2]
        kind = type(value)
        size = base.__len__(value)
        keys: tuple[Any, ...] | list[Any] = ()
        if base is dict:
            keys = tuple(islice(dict.__iter__(value), MAX_HEAP_ITEMS))
            items: tuple[Any, ...] | list[Any] = tuple(islice(dict.values(value), MAX_HEAP_ITEMS))
        elif base is list or base is tuple:
            items = base.__getitem__(value, _HEAP_HEAD)
        else:
            items = tuple(islice(base.__iter__(value), MAX_HEAP_ITEMS))
        made = self.made.get(n)
        if made is not None:
            was = made[0]
            if was[0] is kind and was[1] == size and _same_items(was[2], items) and _same_items(was[3], keys):
                return made[1], made[2]
        children: list[tuple[int, Any]] = []
        box: dict[str, Any] = {"id": n, "kind": name, "type": kind.__name__}
        cell = self._cell
        if base is dict:
            box["items"] = [[cell(k, children), cell(v, children)] for k, v in zip(keys, items)]
        else:
            box["items"] = [cell(item, children) for item in items]
        if size > len(items):
            box["more"] = size - len(items)
        self.made[n] = ((kind, size, items, keys), box, children)
        return box, children

    def _own_repr(self, value: Any) -> str:
        """Python's own repr of an instance: the program's ``__repr__`` where its class has one,
        else ``<module.Name object at 0x…>`` (object.__repr__, which runs none of its code)."""
        kind = type(value)
        text: Any = None
        if kind.__repr__ is not object.__repr__:
            try:
                text = repr(value)
            except Exception:  # a __repr__ that reads what __init__ has not set yet
                text = None
        if not isinstance(text, str):
            # the same text for every instance of a class, once its address is elided
            text = self.default_reprs.get(kind)
            if text is None:
                text = self.default_reprs[kind] = _elide_addresses(object.__repr__(value))
            return text
        text = _elide_addresses(text)
        if len(text) > self.repr.max_repr:
            text = text[: self.repr.max_repr] + TRUNCATION_MARK
        return text

    def _instance_box(self, value: Any, n: int, plan: tuple[Any, ...]) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
        kind = type(value)
        if plan[2]:  # __slots__ somewhere in its classes
            fields = _object_fields(value)
            count = len(fields)
            names = tuple(name for name, _ in fields[:MAX_HEAP_ITEMS])
            values = tuple(v for _, v in fields[:MAX_HEAP_ITEMS])
        else:
            # vars(), as _object_fields reads it, without building its list at every event
            try:
                attrs = vars(value)
                if type(attrs) is dict:  # a dict's own iteration: none of the program's code runs
                    count = len(attrs)
                    if count <= MAX_HEAP_ITEMS:
                        names = tuple(attrs)
                        values = tuple(attrs.values())
                    else:
                        names = tuple(islice(attrs, MAX_HEAP_ITEMS))
                        values = tuple(islice(attrs.values(), MAX_HEAP_ITEMS))
                else:
                    count = len(attrs)
                    names = tuple(attrs)[:MAX_HEAP_ITEMS]
                    values = tuple(attrs.values())[:MAX_HEAP_ITEMS]
            except TypeError:
                count, names, values = 0, (), ()
        if kind.__repr__ is object.__repr__:
            text = self.default_reprs.get(kind) or self._own_repr(value)
        else:
            text = self._own_repr(value)
        made = self.made.get(n)
        if made is not None:
            was = made[0]
            # inline _same_items: this is the walk's busiest test (a linked list: every node, every event)
            if (was[0] is kind and was[1] == count and made[1]["repr"] == text and len(was[2]) == len(names)
                    and len(was[3]) == len(values) and all(map(is_, was[2], names)) and all(map(is_, was[3], values))):
                return made[1], made[2]
        children: list[tuple[int, Any]] = []
        box: dict[str, Any] = {"id": n, "kind": "instance", "type": kind.__name__, "repr": text,
                               "items": [[_heap_name(name), self._cell(v, children)] for name, v in zip(names, values)]}
        if count > len(names):
            box["more"] = count - len(names)
        if plan[1]:  # one of the program's classes
            c = box["cls"] = self._number(kind)
            children.append((c, kind))
        self.made[n] = ((kind, count, names, values), box, children)
        return box, children

    def _class_box(self, cls: type, n: int, plan: tuple[Any, ...] = ()) -> tuple[dict[str, Any], list[tuple[int, Any]]]:
        """A class of the program: what its body defines (not dunder names), functions inline, and
        the program's classes it derives from."""
        try:
            namespace = type.__dict__["__dict__"].__get__(cls, type)
            entries = [(k, v) for k, v in namespace.items() if not (isinstance(k, str) and k.startswith("__") and k.endswith("__"))]
        except Exception:
            entries = []
        shown = entries[:MAX_HEAP_ITEMS]
        bases = tuple(b for b in cls.__bases__ if getattr(b, "__module__", None) in self.user_modules)[:MAX_HEAP_BASES]
        parts = tuple(x for entry in shown for x in entry)
        made = self.made.get(n)
        if made is not None:
            was = made[0]
            if was[0] == len(entries) and _same_items(was[1], bases) and _same_items(was[2], parts):
                return made[1], made[2]
        children: list[tuple[int, Any]] = []
        box: dict[str, Any] = {"id": n, "kind": "class", "type": cls.__name__,
                               "items": [[_heap_name(name), self._cell(v, children)] for name, v in shown]}
        if len(entries) > len(shown):
            box["more"] = len(entries) - len(shown)
        if bases:
            box["bases"] = [self._number(b) for b in bases]
            children.extend(zip(box["bases"], bases))
        self.made[n] = ((len(entries), bases, parts), box, children)
        return box, children


class Recorder:
    def __init__(
        self,
        max_events: int,
        max_repr: int,
        time_limit: float | None,
        edits: dict[int, list[tuple[str, str, types.CodeType]]] | None = None,
        conditions: dict[int, types.CodeType] | None = None,
        watch: list[types.CodeType] | None = None,
        objects: bool = False,
        user_files: dict[str, int] | None = None,
        user_modules: frozenset[str] | None = None,
        evaluate: tuple[int, int | None, types.CodeType] | None = None,
        heap: bool = False,
    ) -> None:
        # The program's own files (co_filename -> index in the recording's `files`): the main
        # file, and a project's other modules. Everything else (the standard library) is skipped.
        self.user_files = user_files or {USER_FILENAME: 0}
        self.edits = edits or {}
        self.conditions = conditions or {}
        self.watch = watch or []
        # One expression asked for at one stop: (event index, frame number or None, code).
        self.evaluate = evaluate
        self.max_events = max_events
        self.time_limit = time_limit
        self.repr = _Reprer(max_repr, user_modules or MAIN_MODULES)
        heap_seconds = None if time_limit is None else time_limit * HEAP_TIME_SHARE
        self.objects = _Objects(self.repr, heap_seconds, heap) if objects else None
        self.events: list[dict[str, Any]] = []
        self.frame_ids: dict[int, int] = {}
        self.frames_alive: list[types.FrameType] = []  # keeps id() values from being reused
        self.depth_of: dict[int, int] = {}
        self.codes: list[dict[str, Any]] = []
        self.code_ids: dict[int, int] = {}
        self.unwinding: set[int] = set()
        # Frames that had a call event: another call of one of them is a generator resumed.
        self.called: set[int] = set()
        self.stdout = _Capture()
        # warnings and logging's last-resort handler write to sys.stderr: kept apart from stdout
        self.stderr = _Capture()
        self.started = time.monotonic()
        # len() of the locals cut by the last _locals() call (see _cut_size).
        self.cut_sizes: dict[str, int] = {}
        # The tracer itself raised (a stop, or an error inside it), which makes CPython drop it.
        self.left_by_error = False

    def _frame_id(self, frame: types.FrameType) -> int:
        key = id(frame)
        fid = self.frame_ids.get(key)
        if fid is None:
            fid = len(self.frame_ids)
            self.frame_ids[key] = fid
            self.frames_alive.append(frame)
        return fid

    def _code_id(self, code: types.CodeType) -> int:
        key = id(code)
        cid = self.code_ids.get(key)
        if cid is None:
            cid = len(self.codes)
            self.code_ids[key] = cid
            lines = sorted({ln for _, _, ln in code.co_lines() if ln is not None and ln > 0})
            info = {
                "name": code.co_name,
                "firstline": code.co_firstlineno,
                "lines": lines,
                "generator": bool(code.co_flags & GENERATOR_FLAGS),
            }
            # The faces' stack views name a method as pdb users read it (`Frozen.rate`); the
            # events keep `co_name`, the name the model is trained on (docs/trace.md).
            qualname = getattr(code, "co_qualname", code.co_name)
            if isinstance(qualname, str) and qualname != code.co_name and len(qualname) <= MAX_QUALNAME:
                info["qualname"] = qualname
            index = self.user_files.get(code.co_filename, 0)
            if index:
                info["file"] = index
            if self.objects is not None:
                info.update(_closure_info(code))
            self.codes.append(info)
        return cid

    def _user_parent(self, frame: types.FrameType) -> types.FrameType | None:
        back = frame.f_back
        while back is not None and back.f_code.co_filename not in self.user_files:
            back = back.f_back
        return back

    def _locals(self, frame: types.FrameType) -> dict[str, str]:
        out: dict[str, str] = {}
        self.cut_sizes = {}
        for name, value in list(frame.f_locals.items()):
            if name.startswith("__") and name.endswith("__"):
                continue
            if isinstance(value, types.ModuleType):
                continue
            out[name] = self.repr(value)
            size = _cut_size(value, out[name])
            if size is not None:
                self.cut_sizes[name] = size
        return out

    def _safe_locals(self, frame: types.FrameType) -> dict[str, str]:
        try:
            return self._locals(frame)
        except RecursionError:
            # Deep in a recursion the tracer itself can run out of stack: keep the event, lose
            # only its values.
            self.cut_sizes = {}
            return {}

    def trace(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        try:
            if frame.f_code.co_filename not in self.user_files:
                return None
            if event not in ("call", "line", "return", "exception"):
                return self.trace
            if len(self.events) >= self.max_events:
                # Only where the recording shows a state that came back may a face say that the
                # program may not terminate (src/core/cutOff.ts): a finite loop is cut here too.
                raise StopProgram("budget", f"Stopped after {self.max_events} events (the event budget)")
            # Checked at every event (a clock read costs far less than recording one), so that a run
            # whose events are slow still stops at its limit.
            if self.time_limit is not None:
                self._check_time()
            limit = _raise_recursion_limit()
            try:
                self._record(frame, event, arg)
            finally:
                if limit is not None:
                    sys.setrecursionlimit(limit)
            return self.trace
        except BaseException:
            # CPython takes a tracer away when it raises: that is not a program removing it.
            self.left_by_error = True
            ndb_sandbox.tracer_raising()
            raise

    def _check_time(self) -> None:
        assert self.time_limit is not None
        elapsed = time.monotonic() - self.started
        if elapsed > self.time_limit:
            raise StopProgram("timeout", f"Stopped after {self.time_limit:g} s (the time limit)")
        if elapsed + len(self.events) * ANSWER_SECONDS_PER_EVENT > self.time_limit + ANSWER_MARGIN_S:
            raise StopProgram("timeout", f"Stopped after {elapsed:.1f} s, to send its {len(self.events):,} events "
                              f"within the time limit ({self.time_limit:g} s)")

    def sleep(self, real_sleep: Any) -> Any:
        """time.sleep for the program: a sleep past the time limit (which Python cannot interrupt)
        sleeps until the limit and stops the run there, with what it recorded."""

        def sleep(seconds: float) -> None:
            if isinstance(seconds, (str, bytes, bytearray)):
                real_sleep(seconds)  # the TypeError time.sleep gives
            seconds = float(seconds)
            if seconds < 0:
                raise ValueError("sleep length must be non-negative")
            if self.time_limit is not None:
                left = self.started + self.time_limit - time.monotonic()
                if seconds > left:
                    real_sleep(max(0.0, left))
                    # The run ends here: no events for the stop unwinding the program's frames.
                    self.left_by_error = True
                    ndb_sandbox.set_tracer(None)
                    raise StopProgram("timeout", f"Stopped after {self.time_limit:g} s (the time limit), in time.sleep({seconds:g})")
            real_sleep(seconds)

        return sleep

    def _record(self, frame: types.FrameType, event: str, arg: Any) -> None:
        fid = self._frame_id(frame)
        parent = self._user_parent(frame)
        resumed = False
        if event == "call":
            self.depth_of[fid] = 0 if parent is None else self.depth_of.get(self._frame_id(parent), -1) + 1
            self.unwinding.discard(fid)
            resumed = fid in self.called
            self.called.add(fid)
        back = frame.f_back
        record: dict[str, Any] = {
            "event": event,
            "line": frame.f_lineno,
            "function": frame.f_code.co_name,
            "depth": self.depth_of.get(fid, 0),
            "frame": fid,
            "parent": self._frame_id(back) if back is not None and back.f_code.co_filename in self.user_files else -1,
            "code": self._code_id(frame.f_code),
            "locals": self._safe_locals(frame),
            "out": self.stdout.size,
        }
        if self.stderr.size:
            record["err"] = self.stderr.size
        sizes = self.cut_sizes
        if resumed:
            record["resume"] = True
        if event == "line":
            self.unwinding.discard(fid)
            key = self.user_files.get(frame.f_code.co_filename, 0) * FILE_LINES + frame.f_lineno
            condition = self.conditions.get(key)
            if condition is not None:
                self._evaluate_condition(frame, condition, record)
        elif event == "exception":
            exc_type, exc, tb = arg
            record["value"] = self.repr(exc)
            record["exc_type"] = getattr(exc_type, "__name__", str(exc_type))
            record["exc_tb_none"] = tb is None
            # The StopIteration that ends a `yield from` (an `await`) is raised in the outer frame
            # without a traceback and caught by the `yield from` itself: the frame's next return
            # is an ordinary one, as bdb reports it (yieldFrom.test.ts), not an exception leaving.
            internal = exc_type is StopIteration and tb is None and frame.f_code.co_flags & GENERATOR_FLAGS
            if not internal:
                self.unwinding.add(fid)
        elif event == "return":
            if fid in self.unwinding:
                # settrace reports an exception leaving a frame as a return of None.
                record["value"] = self.events_last_exception(fid)
                record["raising"] = True
                self.unwinding.discard(fid)
            else:
                record["value"] = self.repr(arg)
                value_size = _cut_size(arg, record["value"])
                if value_size is not None:
                    record["value_size"] = value_size
                if _suspended(frame):
                    record["yield"] = True
        edits = self.edits.get(len(self.events))
        if edits:
            record["edits"] = [self._apply_edit(frame, *edit) for edit in edits]
            record["locals"] = self._safe_locals(frame)
            sizes = self.cut_sizes
        if sizes:
            record["sizes"] = sizes
        if self.watch:
            record["watch"] = [self._evaluate(frame, expr) for expr in self.watch]
        if self.objects is not None:
            self.objects.annotate(record, frame)
        if self.evaluate is not None and self.evaluate[0] == len(self.events):
            # Last, after the event's values were taken: what the expression changes is not in them.
            record["evaluated"] = self._evaluate_once(frame, self.evaluate[1], self.evaluate[2])
        self.events.append(record)

    def _apply_edit(self, frame: types.FrameType, name: str, text: str, expr: types.CodeType) -> dict[str, str]:
        # Called from the trace function, so nothing the expression calls is traced (as in pdb's
        # `!name = expr`). CPython 3.13+ writes f_locals through to the frame (PEP 667).
        if name not in frame.f_locals:
            raise StopProgram("edit_error", f"'{name}' is not a local of {frame.f_code.co_name}() here")
        try:
            value = eval(expr, frame.f_globals, frame.f_locals)
        except Exception as exc:
            raise StopProgram("edit_error", f"{name} = {text} raised {_describe(exc)}") from None
        frame.f_locals[name] = value
        if _LOCALS_TO_FAST is not None:
            # Before 3.13 f_locals is a snapshot that the next read refreshes from the frame: write it
            # through now, or the edit is lost (training traces under the device's 3.12; Pyodide is 3.14)
            _LOCALS_TO_FAST(_PY_OBJECT(frame), 0)
        return {"name": name, "expr": text, "value": self.repr(value)}

    def _evaluate(self, frame: types.FrameType, expr: types.CodeType) -> dict[str, str]:
        try:
            return {"value": self.repr(eval(expr, frame.f_globals, frame.f_locals))}
        except Exception as exc:
            return {"error": _describe(exc)}

    def _evaluate_once(self, frame: types.FrameType, target: int | None, expr: types.CodeType) -> dict[str, str]:
        """``evaluate``: the expression in the frame numbered ``target`` (the stop's own frame or
        one of its callers, live on the stack here), or in the stop's frame."""
        here: types.FrameType | None = frame
        if target is not None:
            while here is not None and self.frame_ids.get(id(here)) != target:
                here = here.f_back
        if here is None:
            return {"error": "that frame is not on the stack at this stop"}
        if expr.co_filename == "<single>":
            return self._run_statement(here, expr)
        try:
            return {"value": self.repr(eval(expr, here.f_globals, here.f_locals))}
        except (Exception, SystemExit) as exc:  # `sys.exit()` typed at a stop is an answer, not the program's end
            return {"error": _describe(exc)}

    def _run_statement(self, here: types.FrameType, code: types.CodeType) -> dict[str, str]:
        """pdb's `!statement`: run in the frame as typed at the prompt (an expression's value is
        shown as the interactive interpreter shows it); the answer is what it printed."""
        printed = io.StringIO()
        saved_out, saved_hook = sys.stdout, sys.displayhook

        def show(value: object) -> None:
            if value is not None:
                printed.write(self.repr(value) + "\n")

        sys.stdout, sys.displayhook = printed, show
        try:
            exec(code, here.f_globals, here.f_locals)
        except (Exception, SystemExit) as exc:
            return {"error": _describe(exc)}
        finally:
            sys.stdout, sys.displayhook = saved_out, saved_hook
        text = printed.getvalue()
        limit = self.repr.max_repr
        return {"value": text if len(text) <= limit else text[:limit] + "…"}

    def _evaluate_condition(self, frame: types.FrameType, condition: types.CodeType, record: dict[str, Any]) -> None:
        # bdb stops when a condition raises, whatever it raises (its `except:`): so does the
        # navigator, which reads `hit`. A SystemExit, GeneratorExit or CancelledError from the
        # condition is its error too, not the program's end; only the run's own stops (the budget,
        # the time limit's interrupt) go on.
        try:
            record["hit"] = bool(eval(condition, frame.f_globals, frame.f_locals))
        except (StopProgram, KeyboardInterrupt):
            raise
        except BaseException as exc:
            record["hit"] = True
            record["hit_error"] = _describe(exc)

    def events_last_exception(self, fid: int) -> str:
        for ev in reversed(self.events):
            if ev["frame"] == fid and ev["event"] == "exception":
                return ev["value"]
        return "None"


def _suspended(frame: types.FrameType) -> bool:
    """Whether a return event is a generator or coroutine suspended at a yield or an await (it
    is called again when resumed), not a return that ends it. Labelling only: bdb and the
    navigator stop at both alike."""
    code = frame.f_code
    if not code.co_flags & GENERATOR_FLAGS:
        return False
    try:
        return code.co_code[frame.f_lasti] == _YIELD_VALUE
    except (IndexError, ValueError):
        return False


# Python's own exit reads an int code as a C long long cast to an int (wrapping), and -1 past it.
_LONG_LONG = 2**63


def _exit_code(exc: SystemExit, recorder: Recorder) -> int:
    """The exit code of a program that raised SystemExit, as Python's own exit computes it: None
    is 0, an int is itself, anything else is written to stderr and is 1."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        number = int.__index__(code)  # a bool is 0 or 1; an int subclass's own methods do not run
        if not -_LONG_LONG <= number < _LONG_LONG:
            return -1
        return (number + 2**31) % 2**32 - 2**31
    # str() of a str is itself; any other object is written by the tracer's repr, which runs none
    # of the program's code for builtins and is capped
    text = str.__str__(code) if isinstance(code, str) else recorder.repr(code)
    recorder.stderr.write(text + "\n")
    return 1


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ModuleNotFoundError):
        return f"ModuleNotFoundError: {exc} (ndb runs Python's standard library only)"
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _run_module(code: types.CodeType, namespace: dict[str, Any]) -> None:
    exec(code, namespace)


def _run_call(code: types.CodeType, namespace: dict[str, Any]) -> Any:
    return eval(code, namespace)


def _compile_expression(text: str, what: str) -> types.CodeType:
    try:
        return compile(text.strip(), f"<{what}>", "eval")
    except SyntaxError as exc:
        raise EditFailed(f"The {what} `{text}` is not a Python expression: {exc.msg}") from None


def _compile_statement(text: str) -> types.CodeType:
    # the file name marks it: Recorder._evaluate_once runs it as a statement
    try:
        return compile(text.strip() + "\n", "<single>", "single")
    except SyntaxError as exc:
        raise EditFailed(f"`{text}` is not a Python statement: {exc.msg}") from None


def _compile_what_if(
    edits: list[dict[str, Any]] | None,
    conditions: dict[str, str] | None,
    watch: list[str] | None,
) -> tuple[dict[int, list[tuple[str, str, types.CodeType]]], dict[int, types.CodeType], list[types.CodeType]]:
    by_event: dict[int, list[tuple[str, str, types.CodeType]]] = {}
    for edit in edits or []:
        name = str(edit["name"])
        if not name.isidentifier():
            raise EditFailed(f"'{name}' is not a variable name")
        text = str(edit["expr"])
        by_event.setdefault(int(edit["at"]), []).append((name, text, _compile_expression(text, "expression")))
    compiled_conditions = {int(line): _compile_expression(text, "condition") for line, text in (conditions or {}).items()}
    compiled_watch = [_compile_expression(text, "watch expression") for text in (watch or [])]
    return by_event, compiled_conditions, compiled_watch


def _user_modules(project: dict[str, Any] | None) -> frozenset[str]:
    """The names of the modules whose classes are the program's own: ``__main__`` and, for a
    program of several files, each ``.py`` file's module as the import system names it from the
    program's folder (``pkg/order.py`` is ``pkg.order``, ``pkg/__init__.py`` is ``pkg``), the
    main file's too (another module may import it by its name)."""
    names = set(MAIN_MODULES)
    if project is None:
        return frozenset(names)
    for path in [str(project.get("main") or USER_FILENAME), *(str(f) for f in project.get("files") or [])]:
        if not path.endswith(".py"):
            continue
        parts = [p for p in path[:-3].split("/") if p not in ("", ".")]
        if parts and parts[-1] == "__init__":
            parts = parts[:-1]
        if parts:
            names.add(".".join(parts))
    return frozenset(names)


def _user_files(project: dict[str, Any] | None) -> dict[str, int]:
    """co_filename -> file index for the files whose frames are recorded: the main file (compiled
    as USER_FILENAME, and its copy in the project's folder should another module import it) and
    the project's other modules as the import system names them (their path under ``dir``)."""
    files = {USER_FILENAME: 0}
    if project is None:
        return files
    folder = str(project["dir"]).rstrip("/")
    files[f"{folder}/{project.get('main') or USER_FILENAME}"] = 0
    for index, name in enumerate(project.get("files") or [], start=1):
        files[f"{folder}/{name}"] = index
    return files


# CPython before 3.13 (the training tracer under the GPU machine's 3.12): what writes an edited
# f_locals through to the frame (PEP 667 does it from 3.13 on). Taken here, before any program runs
# and its sandbox hides ctypes; never in Pyodide, whose CPython is newer.
_LOCALS_TO_FAST: Any = None
_PY_OBJECT: Any = None
if sys.version_info < (3, 13) and sys.platform != "emscripten":
    try:
        import ctypes

        _LOCALS_TO_FAST = ctypes.pythonapi.PyFrame_LocalsToFast
        _LOCALS_TO_FAST.argtypes = (ctypes.py_object, ctypes.c_int)
        _LOCALS_TO_FAST.restype = None
        _PY_OBJECT = ctypes.py_object
    except (ImportError, AttributeError):
        _LOCALS_TO_FAST = None

CO_OPTIMIZED = 0x0001  # a function's code: its locals are exactly its variables (inspect.CO_OPTIMIZED)
# Names a module's code can use to make globals the bytecode does not name (`globals()["x"] = 1`,
# `exec`, `setattr` on the module): where any is named, the module's frame may hold any name.
_OPEN_NAMESPACE = frozenset({"globals", "vars", "exec", "eval", "setattr", "__dict__", "__import__", "locals"})


def _frame_names(code: types.CodeType, module_stores: set[str], is_module: bool) -> list[str] | None:
    """The names a frame of ``code`` can show as locals, known without running it: a function's
    variables, cells and free variables; a module's or class body's names stored by its code
    (and, for the module, by ``global`` statements anywhere); None where they cannot be known
    (``from m import *``, a module that names ``globals``/``exec``/...)."""
    names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
    if code.co_flags & CO_OPTIMIZED:
        return sorted(names)
    for ins in dis.get_instructions(code):
        if ins.opname in ("STORE_NAME", "DELETE_NAME"):
            names.add(ins.argval)
        elif ins.opname == "CALL_INTRINSIC_1" and "IMPORT_STAR" in str(ins.argrepr):
            return None
        elif ins.opname == "IMPORT_STAR":
            return None
    if is_module:
        if _OPEN_NAMESPACE & set(code.co_names):
            return None
        names |= module_stores
    return sorted(names)


def _program_shape(code: types.CodeType) -> dict[str, Any]:
    """What a stop of this program can be, known without running it: the lines that hold code, the
    lines a call event can be at (0 for the module, every code object's first line, and every line
    of a generator or coroutine, which is called again at each resume), and each code object's
    frame: its first line, its lines and the names its locals can have (``_frame_names``; the
    model's decoder writes no other name: docs/trace.md)."""
    lines: set[int] = set()
    calls: set[int] = {0}
    codes: list[types.CodeType] = []
    stack = [code]
    while stack:
        current = stack.pop()
        codes.append(current)
        own = {ln for _, _, ln in current.co_lines() if ln is not None and ln > 0}
        lines |= own
        calls.add(current.co_firstlineno)
        if current.co_flags & GENERATOR_FLAGS:
            calls |= own
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    # `global x` anywhere stores a module name
    module_stores = {ins.argval for c in codes for ins in dis.get_instructions(c) if ins.opname in ("STORE_GLOBAL", "DELETE_GLOBAL")}
    frames = []
    for c in codes:
        is_module = c is code
        own = sorted({ln for _, _, ln in c.co_lines() if ln is not None and ln > 0})
        frames.append({"first": 0 if is_module else c.co_firstlineno, "lines": own,
                       "names": _frame_names(c, module_stores, is_module)})
    return {"lines": sorted(lines), "calls": sorted(calls), "frames": frames}


def _input_wanted(result: dict[str, Any], recorder: Recorder, prompt: object) -> None:
    """The first input() past the end of the run's input: where (the index of the next event, the
    exception in the frame that called it) and with which prompt, for the app to ask the user."""
    if "input_wanted" not in result:
        result["input_wanted"] = {"at": len(recorder.events), "prompt": str(prompt)[:200]}


def record(
    source: str,
    call: str | None = None,
    *,
    max_events: int = DEFAULT_MAX_EVENTS,
    max_repr: int = DEFAULT_MAX_REPR,
    time_limit: float | None = 10.0,
    edits: list[dict[str, Any]] | None = None,
    conditions: dict[str, str] | None = None,
    watch: list[str] | None = None,
    stdin: str | None = None,
    objects: bool = False,
    project: dict[str, Any] | None = None,
    argv: list[str] | None = None,
    evaluate: dict[str, Any] | None = None,
    heap: bool = False,
) -> dict[str, Any]:
    """Run ``source`` (and then ``call``, an expression such as ``f([3, 1, 2])``, if given) under the
    tracer. Never raises for problems of the user's program: they end up in ``exit``.

    ``edits``: ``[{"at": i, "name": n, "expr": e}]`` assigns ``n = e`` in the frame of the i-th
    recorded event before recording it; ``conditions``: ``{line: expr}``; ``watch``: ``[expr]``.
    ``stdin``: the program's input, one line per ``input()`` call (echoed into stdout, EOFError past
    the end); None: ``input()`` is refused with a message (the CLI's and training's default).
    ``project``: ``{"dir": d, "main": name, "files": [relative paths of the other .py files]}``,
    a program of several files written under ``d`` (answers.py does that): their frames are
    recorded too, each code object naming its file's index in the recording's ``files``.
    ``argv``: the program's arguments (``sys.argv[1:]``; ``sys.argv[0]`` is the main file's name).
    ``objects``: each event also says which names refer to one object, and a function's events
    the module's variables (the app's views; training leaves it off), and the heap graph, until its
    walk has taken a quarter of ``time_limit`` (HEAP_TIME_SHARE, ``heap_stopped``).
    ``evaluate``: ``{"at": i, "expr": e, "frame": f}`` evaluates ``e`` once, at the i-th recorded
    event, in the frame numbered ``f`` there (the event's own frame or a caller's; absent: the
    event's), and writes the answer into that event's ``evaluated`` (a debugger's `p expr`); with
    ``"statement": true``, ``e`` is a statement run there and the answer is what it printed (pdb's
    ``!stmt``)."""
    result: dict[str, Any] = {
        "source": source,
        "call": call or "",
        "events": [],
        "codes": [],
        "stdout": "",
        "exit": {"status": "normal"},
    }
    try:
        code = compile(source, USER_FILENAME, "exec")
    except SyntaxError as exc:
        result["exit"] = {
            "status": "syntax_error",
            "message": f"SyntaxError: {exc.msg} (line {exc.lineno})",
            "line": exc.lineno or 1,
            "column": exc.offset or 1,
        }
        return result
    result["program"] = _program_shape(code)
    call_code = None
    if call and call.strip():
        try:
            call_code = compile(call.strip(), "<call>", "eval")
        except SyntaxError as exc:
            result["exit"] = {"status": "call_error", "message": f"The call is not an expression: {exc.msg}"}
            return result

    try:
        what_if = _compile_what_if(edits, conditions, watch)
        asked = None
        if evaluate is not None:
            frame_number = evaluate.get("frame")
            asked = (int(evaluate["at"]), None if frame_number is None else int(frame_number),
                     _compile_statement(str(evaluate["expr"])) if evaluate.get("statement")
                     else _compile_expression(str(evaluate["expr"]), "expression"))
    except EditFailed as exc:
        result["exit"] = {"status": "edit_error", "message": str(exc)}
        return result

    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    user_files = _user_files(project)
    if project is not None:
        result["files"] = [str(project.get("main") or USER_FILENAME), *(str(f) for f in project.get("files") or [])]
    recorder = Recorder(max_events, max_repr, time_limit, *what_if, objects=objects, user_files=user_files,
                        user_modules=_user_modules(project), evaluate=asked, heap=heap)
    saved_argv = sys.argv
    sys.argv = [result["files"][0] if project is not None else USER_FILENAME, *(str(a) for a in argv or [])]
    saved_stdout, saved_stderr, saved_stdin, saved_input = sys.stdout, sys.stderr, sys.stdin, builtins.input
    saved_quitters = {name: vars(builtins)[name] for name in ("exit", "quit") if name in vars(builtins)}
    for name, original in saved_quitters.items():
        setattr(builtins, name, _Quitter(original))
    saved_sleep = time.sleep
    time.sleep = recorder.sleep(saved_sleep)
    sys.stdout = recorder.stdout
    sys.stderr = recorder.stderr
    if stdin is None:
        builtins.input = _no_input
    else:
        reader = io.StringIO(stdin)
        sys.stdin = reader
        builtins.input = _reading_input(reader, lambda prompt: _input_wanted(result, recorder, prompt))
    tampered: list[str] = []
    ndb_sandbox.enter()  # from here on the program's own code runs
    try:
        if call_code is not None:
            try:
                _run_module(code, namespace)  # definitions run untraced
            except BaseException as exc:
                result["exit"] = {"status": "error", "message": f"The module raised before the call: {_describe(exc)}"}
                line = _user_line(exc)
                if line is not None:
                    result["exit"]["line"] = line  # e.g. a failed import: the editor marks it
                return result
            # What the module printed while it ran stays in the output: the call's events count
            # from there (`out`), as a terminal would show it.
        value: Any = None
        ndb_sandbox.set_tracer(recorder.trace)
        try:
            if call_code is None:
                _run_module(code, namespace)
            else:
                value = _run_call(call_code, namespace)
        finally:
            if sys.gettrace() != recorder.trace and not (sys.gettrace() is None and recorder.left_by_error):
                tampered.append("the tracer (sys.settrace)")
            ndb_sandbox.set_tracer(None)
        if call_code is not None:
            result["exit"]["value"] = recorder.repr(value)  # untraced: a user __repr__ may run
    except StopProgram as stop:
        result["exit"] = {"status": stop.status, "message": stop.message}
    except KeyboardInterrupt:
        result["exit"] = {"status": "timeout", "message": "Stopped: the program ran past the time limit"}
    except RecursionError as exc:
        result["exit"] = {"status": "exception", "message": _describe(exc), "exc_type": "RecursionError"}
    except SystemExit as exc:
        # sys.exit(), exit(), `raise SystemExit`: how a program ends on purpose, not a crash.
        result["exit"] = {"status": "normal", "exit_code": _exit_code(exc, recorder)}
    except BaseException as exc:
        result["exit"] = {"status": "exception", "message": _describe(exc), "exc_type": type(exc).__name__}
    finally:
        ndb_sandbox.set_tracer(None)
        tampered.extend(ndb_sandbox.intact())
        tampered.extend(_json_changed())
        ndb_sandbox.exit()
        sys.stdout = saved_stdout
        sys.stderr = saved_stderr
        sys.stdin = saved_stdin
        builtins.input = saved_input
        for name, original in saved_quitters.items():
            setattr(builtins, name, original)
        sys.argv = saved_argv
        time.sleep = saved_sleep
    if tampered:
        # Past Python's layer a program can rewrite what is recorded; where the tracer can tell,
        # the run says so instead of "normal".
        what = ", ".join(dict.fromkeys(tampered))
        ended = result["exit"].get("message") or result["exit"]["status"]
        result["exit"] = {"status": "error", "message": f"The program changed ndb's debugger ({what}): this recording cannot be trusted "
                          f"(the run says it ended: {ended})"}
    if call_code is not None and not recorder.events and result["exit"]["status"] == "exception":
        result["exit"]["message"] = "The call raised before any of your code ran: " + result["exit"]["message"]
    result["events"] = recorder.events
    result["codes"] = recorder.codes
    result["stdout"] = recorder.stdout.getvalue()
    if recorder.stdout.truncated:
        result["stdout_truncated"] = True
        result["stdout_total"] = recorder.stdout.total
    if recorder.stderr.size:
        result["stderr"] = recorder.stderr.getvalue()
    return result


# The JSON encoder as it was when the tracer loaded: a program that patches it (json.dumps, the
# module's default encoder, the C speed-up) would rewrite its own recording as it is written out.
_JSON_PARTS = (json, "dumps", json.dumps), (json, "_default_encoder", json._default_encoder), \
    (json.encoder, "c_make_encoder", json.encoder.c_make_encoder), \
    (json.encoder.JSONEncoder, "encode", json.encoder.JSONEncoder.encode), \
    (json.encoder.JSONEncoder, "iterencode", json.encoder.JSONEncoder.iterencode), \
    (json.encoder, "encode_basestring", json.encoder.encode_basestring)


def _json_changed() -> list[str]:
    return [f"json.{name}" for owner, name, original in _JSON_PARTS if getattr(owner, name, None) is not original]


def record_json(source: str, call: str | None = None, options_json: str = "{}") -> str:
    options = json.loads(options_json)
    return json.dumps(record(source, call, **options), ensure_ascii=False)
