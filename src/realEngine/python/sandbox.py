"""ndb's sandbox, Python's layer: what a debugged program may not reach from Python.

The program runs in CPython inside Pyodide, whose JavaScript side can reach the page, the app's
storage, the network or, under Node, the host. This layer closes the doors Python itself offers,
so that a program that tries one gets a clear ``PermissionError`` at the line that tried it:

- the modules that lead to JavaScript (``js``, ``pyodide_js``, ``pyodide.*``, ``_pyodide*``),
  to C (``ctypes``) or to ndb's own engine (``ndb_*``) are hidden from ``sys.modules`` while the
  program runs and cannot be imported (neither by ``import`` nor by ``importlib``);
- the audit events of host processes, sockets, URL requests and heap walks raise, and so do
  ``sys.settrace``/``sys.setprofile`` (``threading.settrace``/``setprofile`` too): a program that
  replaced ndb's tracer would hide its own lines from the recording;
- builtin and extension modules cannot be made afresh under a hidden name (``_imp.create_builtin``,
  ``BuiltinImporter.create_module``), and Pyodide's import finder for JavaScript modules is off
  ``sys.meta_path`` while the program runs;
- names are compared as plain ``str`` (a ``str`` subclass whose ``split`` lies is read as what it
  holds).

Python cannot lock itself (a determined program can walk objects back to what is hidden), so this
layer only names the refusal; the boundary is below it: the JavaScript realm the engine runs in
(``jsglobals`` is an empty namespace, and the worker or process deletes storage, network and
process APIs before any program runs) and, under Node, the operating system (the permission model:
no file writes, no child processes, no workers, no addons). See README.md#what-debugged-code-can-do.

The audit hook cannot be removed once added (PEP 578); it refuses only between ``enter`` and
``exit``, so the engine's own imports are untouched.
"""

from __future__ import annotations

import sys
from typing import Any

# Top-level names whose modules (and submodules) the program may not import or find.
HIDDEN_PACKAGES = (
    "js",
    "pyodide_js",
    "pyodide",
    "_pyodide",
    "_pyodide_core",
    "pyodide_http",
    "micropip",
    "ctypes",
    "_ctypes",
)
# ndb's own modules (the tracer and its helpers): a prefix, not a package.
HIDDEN_PREFIX = "ndb_"

# Audit events (docs.python.org/3/library/audit_events.html) refused while the program runs, with
# what a person would call them.
REFUSED_EVENTS = {
    "os.system": "running a host command (os.system)",
    "os.exec": "running a host program (os.exec*)",
    "os.posix_spawn": "starting a host process (os.posix_spawn)",
    "os.spawn": "starting a host process (os.spawn*)",
    "os.fork": "starting a host process (os.fork)",
    "os.forkpty": "starting a host process (os.forkpty)",
    "os.kill": "signalling a host process (os.kill)",
    "os.killpg": "signalling host processes (os.killpg)",
    "os.startfile": "opening a host file (os.startfile)",
    "subprocess.Popen": "starting a host process (subprocess)",
    "pty.spawn": "starting a host process (pty.spawn)",
    "socket.connect": "opening a network connection (socket)",
    "socket.bind": "opening a network socket (socket)",
    "socket.sendto": "sending over the network (socket)",
    "socket.sendmsg": "sending over the network (socket)",
    "socket.getaddrinfo": "looking up a network address (socket)",
    "socket.gethostbyname": "looking up a network address (socket)",
    "socket.gethostbyaddr": "looking up a network address (socket)",
    "urllib.Request": "a network request (urllib)",
    "http.client.connect": "a network connection (http.client)",
    "webbrowser.open": "opening a browser (webbrowser)",
    "ctypes.dlopen": "loading native code (ctypes)",
    "ctypes.dlsym": "loading native code (ctypes)",
    "ctypes.cdata": "reading raw memory (ctypes)",
    "gc.get_objects": "walking the interpreter's objects (gc.get_objects)",
    "gc.get_referrers": "walking the interpreter's objects (gc.get_referrers)",
    "gc.get_referents": "walking the interpreter's objects (gc.get_referents)",
    "sys.remote_exec": "running code in another process (sys.remote_exec)",
    "sys.settrace": "replacing the debugger's tracer (sys.settrace)",
    "sys.setprofile": "replacing the debugger's tracer (sys.setprofile)",
    "sys.monitoring.register_callback": "replacing the debugger's tracer (sys.monitoring)",
}


class SandboxError(PermissionError):
    """What a debugged program gets when it reaches past ndb's sandbox."""


def refusal(what: str) -> SandboxError:
    return SandboxError(
        f"{what} is not available in ndb's sandbox: a debugged program runs inside Python only "
        "(no host commands or files, no network, no JavaScript, no access to the app)"
    )


def plain(name: object) -> str:
    """What a name holds, as an exact ``str``: a subclass's own methods (``split``, ``__eq__``,
    ``startswith``) are never asked."""
    if type(name) is str:
        return name
    if isinstance(name, str):
        return str.__str__(name)  # an exact copy of the characters
    return ""


def is_hidden(name: object) -> bool:
    top = str.split(plain(name), ".", 1)[0]
    return top in HIDDEN_PACKAGES or str.startswith(top, HIDDEN_PREFIX)


class _HiddenFinder:
    """First on ``sys.meta_path`` while a program runs: ``importlib.import_module`` finds modules
    without the ``import`` audit event that the ``import`` statement raises."""

    @staticmethod
    def find_spec(name: object, path: object = None, target: object = None) -> None:
        if is_hidden(name):
            raise refusal(f"importing {plain(name)}")
        return None


class _Guard:
    """The hook's state. One instance, made by ``install``; ``enter``/``exit`` bracket a run."""

    def __init__(self) -> None:
        self.depth = 0
        self.hidden: dict[str, Any] = {}
        # Finders taken off sys.meta_path while a program runs (Pyodide's finder of JavaScript
        # modules), with where they were.
        self.finders: list[tuple[int, Any]] = []
        self.tracer_call = False
        self.reset_allowed = False

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.depth == 0:
            return
        if event == "import":
            name = plain(args[0]) if args else ""
            if is_hidden(name):
                raise refusal(f"importing {name}")
            return
        if self.tracer_call and event in ("sys.settrace", "sys.setprofile"):
            return  # ndb's own tracer, set and taken away by the tracer itself
        if self.reset_allowed and event == "sys.settrace":
            self.reset_allowed = False  # CPython taking away a tracer that raised (once)
            return
        what = REFUSED_EVENTS.get(event)
        if what is not None:
            raise refusal(what)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > 1:
            return
        modules = sys.modules
        for name in [n for n in modules if is_hidden(n)]:
            self.hidden[name] = modules.pop(name)
        self.finders = [(i, f) for i, f in enumerate(sys.meta_path) if _leads_to_javascript(f)]
        for _, finder in self.finders:
            sys.meta_path.remove(finder)
        sys.meta_path.insert(0, _HiddenFinder)

    def exit(self) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth > 0:
            return
        self.reset_allowed = False
        while _HiddenFinder in sys.meta_path:
            sys.meta_path.remove(_HiddenFinder)
        for index, finder in self.finders:
            if finder not in sys.meta_path:
                sys.meta_path.insert(index, finder)
        self.finders = []
        modules = sys.modules
        # Whatever the program left under a hidden name is dropped; the engine's own come back.
        for name in [n for n in modules if is_hidden(n)]:
            del modules[name]
        modules.update(self.hidden)
        self.hidden.clear()


def _leads_to_javascript(finder: object) -> bool:
    """Pyodide's finder of JavaScript modules (it holds them in ``jsproxies``)."""
    try:
        return "jsproxies" in getattr(finder, "__dict__", {})
    except Exception:
        return False


def _refusing_creator(create: Any, what: str) -> Any:
    """``_imp``'s module creators, refusing hidden names while a program runs: a builtin module
    such as ``_pyodide_core`` is otherwise made again from its spec, past ``sys.modules``."""

    def guarded(spec: Any, *rest: Any) -> Any:
        if _guard is not None and _guard.depth > 0 and is_hidden(getattr(spec, "name", "")):
            raise refusal(f"{what} {plain(getattr(spec, 'name', ''))}")
        return create(spec, *rest)

    return guarded


def _refusing(what: str) -> Any:
    def refused(*args: Any, **kwargs: Any) -> None:
        if _guard is not None and _guard.depth > 0:
            raise refusal(what)

    return refused


_guard: _Guard | None = None
# What install() put in place, to tell later whether a program changed it (``intact``).
_installed: dict[str, Any] = {}


def install() -> None:
    """Adds the audit hook (once per interpreter: a hook cannot be removed) and guards the module
    creators and threading's tracer hooks."""
    global _guard
    if _guard is not None:
        return
    _guard = _Guard()
    sys.addaudithook(_guard.hook)
    import _imp

    for name in ("create_builtin", "create_dynamic"):
        original = getattr(_imp, name, None)
        if original is not None:
            guarded = _refusing_creator(original, "making the module")
            setattr(_imp, name, guarded)
            _installed[f"_imp.{name}"] = guarded
    import threading

    for name in ("settrace", "setprofile", "settrace_all_threads", "setprofile_all_threads"):
        if hasattr(threading, name):
            original = getattr(threading, name)
            refuse = _refusing(f"replacing the debugger's tracer (threading.{name})")

            def guarded_hook(*args: Any, _original: Any = original, _refuse: Any = refuse, **kwargs: Any) -> Any:
                _refuse()
                return _original(*args, **kwargs)

            setattr(threading, name, guarded_hook)
            _installed[f"threading.{name}"] = guarded_hook


def set_tracer(trace: Any) -> None:
    """Sets (or, with None, takes away) ndb's own tracer while the guard is on."""
    assert _guard is not None
    _guard.tracer_call = True
    try:
        sys.settrace(trace)
    finally:
        _guard.tracer_call = False


def tracer_raising() -> None:
    """ndb's tracer is about to raise (a stop, or an error inside it): CPython then takes it away
    with ``sys.settrace(None)``, which the guard lets through once."""
    if _guard is not None:
        _guard.reset_allowed = True


def intact() -> list[str]:
    """What of the guard a program changed while it ran (empty: nothing this layer can see): its
    state, its finder's place, the guarded creators."""
    changed: list[str] = []
    if _guard is None:
        return changed
    if _guard.depth != 1:
        changed.append("the sandbox's state")
    if not sys.meta_path or sys.meta_path[0] is not _HiddenFinder:
        changed.append("the import guard")
    import _imp
    import threading

    for key, guarded in _installed.items():
        module, name = key.split(".", 1)
        if getattr(_imp if module == "_imp" else threading, name, None) is not guarded:
            changed.append(key)
    return changed


class _NoIO:
    """The selector of the sandbox's event loop: there is nothing to wait for (no sockets, pipes or
    processes), so waiting is moving the loop's clock to its next timer."""

    def __init__(self, loop: Any) -> None:
        self.loop = loop

    def select(self, timeout: float | None) -> list[Any]:
        if timeout is None:
            raise RuntimeError(
                "the event loop has nothing left to run: every task waits for something that never comes "
                "(ndb's sandbox has no sockets, pipes or processes)"
            )
        self.loop._clock += max(0.0, timeout)
        return []

    def close(self) -> None:
        pass


def _event_loop_class() -> Any:
    """An asyncio event loop of pure Python: Pyodide's own (``WebLoop``) runs on JavaScript's
    timers, which a debugged program must not reach. Its clock is virtual (a timer is due as soon
    as nothing else can run), so ``asyncio.sleep`` takes no time and a run is the same each time;
    it has no I/O at all (the base loop's socket and process methods refuse)."""
    import asyncio

    class SandboxEventLoop(asyncio.BaseEventLoop):
        def __init__(self) -> None:
            super().__init__()
            self._clock = 0.0
            self._selector = _NoIO(self)

        def time(self) -> float:
            return self._clock

        def _process_events(self, event_list: list[Any]) -> None:
            pass

        def _write_to_self(self) -> None:
            pass  # one thread: nothing waits in select() to be woken

        def close(self) -> None:
            super().close()
            self._selector = None

    return SandboxEventLoop


_loop_saved: list[Any] = []


def _install_event_loop() -> None:
    """While a program runs, asyncio's new loops are SandboxEventLoop (asyncio.run, new_event_loop)."""
    import asyncio.events as events
    import warnings

    base = getattr(events, "_BaseDefaultEventLoopPolicy", None) or getattr(events, "BaseDefaultEventLoopPolicy")
    policy_class = type("SandboxEventLoopPolicy", (base,), {"_loop_factory": _event_loop_class()})
    get = getattr(events, "_get_event_loop_policy", None) or events.get_event_loop_policy
    set_ = getattr(events, "_set_event_loop_policy", None) or events.set_event_loop_policy
    import asyncio
    import asyncio.runners

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _loop_saved.append((get(), asyncio.run, events._get_running_loop()))
        set_(policy_class())
    # Pyodide's loop counts as running all along: the program's own asyncio.run would refuse.
    events._set_running_loop(None)
    # Pyodide replaces asyncio.run with one that runs on its WebLoop: CPython's own is kept in
    # asyncio.runners.
    asyncio.run = asyncio.runners.run


def _restore_event_loop() -> None:
    if not _loop_saved:
        return
    import asyncio
    import asyncio.events as events
    import warnings

    set_ = getattr(events, "_set_event_loop_policy", None) or events.set_event_loop_policy
    policy, run, running = _loop_saved.pop()
    events._set_running_loop(running)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        set_(policy)
    asyncio.run = run


def enter() -> None:
    """From here on a debugged program's code runs (the tracer calls this; ``exit`` in a finally)."""
    install()
    assert _guard is not None
    if _guard.depth == 0:
        _install_event_loop()
    _guard.enter()


def exit() -> None:  # noqa: A001 - the pair of enter
    if _guard is not None:
        _guard.exit()
        if _guard.depth == 0:
            _restore_event_loop()
