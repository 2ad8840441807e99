"""ndb's sandbox, Python's layer: what a debugged program may not reach from Python.

The program runs in CPython inside Pyodide, whose JavaScript side can reach the page, the app's
storage, the network or, under Node, the host. This layer closes the doors Python itself offers,
so that a program that tries one gets a clear ``PermissionError`` at the line that tried it:

- the modules that lead to JavaScript (``js``, ``pyodide_js``, ``pyodide.*``, ``_pyodide*``),
  to C (``ctypes``) or to ndb's own engine (``ndb_*``) are hidden from ``sys.modules`` while the
  program runs and cannot be imported (neither by ``import`` nor by ``importlib``);
- the audit events of host processes, sockets, URL requests and heap walks raise.

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
}


class SandboxError(PermissionError):
    """What a debugged program gets when it reaches past ndb's sandbox."""


def refusal(what: str) -> SandboxError:
    return SandboxError(
        f"{what} is not available in ndb's sandbox: a debugged program runs inside Python only "
        "(no host commands or files, no network, no JavaScript, no access to the app)"
    )


def is_hidden(name: str) -> bool:
    top = name.split(".", 1)[0]
    return top in HIDDEN_PACKAGES or top.startswith(HIDDEN_PREFIX)


class _HiddenFinder:
    """First on ``sys.meta_path`` while a program runs: ``importlib.import_module`` finds modules
    without the ``import`` audit event that the ``import`` statement raises."""

    @staticmethod
    def find_spec(name: str, path: object = None, target: object = None) -> None:
        if is_hidden(name):
            raise refusal(f"importing {name}")
        return None


class _Guard:
    """The hook's state. One instance, made by ``install``; ``enter``/``exit`` bracket a run."""

    def __init__(self) -> None:
        self.depth = 0
        self.hidden: dict[str, Any] = {}

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        if self.depth == 0:
            return
        if event == "import":
            name = args[0] if args and isinstance(args[0], str) else ""
            if is_hidden(name):
                raise refusal(f"importing {name}")
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
        sys.meta_path.insert(0, _HiddenFinder)

    def exit(self) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if self.depth > 0:
            return
        while _HiddenFinder in sys.meta_path:
            sys.meta_path.remove(_HiddenFinder)
        modules = sys.modules
        # Whatever the program left under a hidden name is dropped; the engine's own come back.
        for name in [n for n in modules if is_hidden(n)]:
            del modules[name]
        modules.update(self.hidden)
        self.hidden.clear()


_guard: _Guard | None = None


def install() -> None:
    """Adds the audit hook (once per interpreter: a hook cannot be removed)."""
    global _guard
    if _guard is None:
        _guard = _Guard()
        sys.addaudithook(_guard.hook)


def enter() -> None:
    """From here on a debugged program's code runs (the tracer calls this; ``exit`` in a finally)."""
    install()
    assert _guard is not None
    _guard.enter()


def exit() -> None:  # noqa: A001 - the pair of enter
    if _guard is not None:
        _guard.exit()
