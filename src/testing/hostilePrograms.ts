// Programs that try to leave Python, for the sandbox's tests in every face (the engine process,
// the CLI, MCP, DAP; the browser's own are in e2e/sandbox.test.mjs). Each would create the file
// `${dir}/<name>` on the host if it got out; `dir` is a folder the test made and watches.

export interface HostileProgram {
  name: string;
  source: string;
  /** Python's own layer refuses it with ndb's SandboxError (else a lower layer contains it: the
   * program ends with an exception or an error, and the file is never made). */
  refusedByPython: boolean;
}

/** Gets past Python's layer the way an expert could (the tracer's globals, then its guard), to
 * show that the layers below hold without it. */
const PAST_PYTHON =
  'import sys\n' +
  'g = sys.gettrace().__func__.__globals__\n' +
  'guard = g["ndb_sandbox"]._guard\n' +
  'guard.depth = 0\n' +
  'sys.modules.update(guard.hidden)\n' +
  'sys.meta_path.remove(g["ndb_sandbox"]._HiddenFinder)\n' +
  'sys.meta_path.extend(f for _, f in guard.finders)\n' +
  'import js, pyodide_js\n';

/** Gets past Python's layer without touching the guard: Pyodide's import finder on
 * `sys.meta_path` holds the JavaScript modules it can import. */
const FINDER_JS = 'import sys\njs_modules = next(f for f in sys.meta_path if hasattr(f, "jsproxies")).jsproxies\npyodide_js = js_modules["pyodide_js"]\n';

/** Gets past Python's layer, then out of Pyodide's API to the engine realm's real global object: a
 * getter on `Object.prototype` for a name Emscripten reads as a free global runs with `this` =
 * `globalThis` (found by an attacker on 2026-11-26). Leaves it in `G`. */
const TO_GLOBAL_OBJECT =
  PAST_PYTHON +
  'from pyodide.ffi import create_proxy\n' +
  'found = []\n' +
  'O = pyodide_js.constructor\n' +
  'O.defineProperty(O.prototype, "requestAnimationFrame", O.fromEntries([["get", create_proxy(lambda this: found.append(this), capture_this=True)], ["configurable", True]]))\n' +
  'pyodide_js._module.requestAnimationFrame(create_proxy(lambda *a: None))\n' +
  'G = found[0]\n';

/** With the engine realm's global object: libuv's `Pipe` (the class of the process's stderr
 * handle), which Node's permission model does not check, binds a Unix socket file at `bindPath`
 * and connects to the host's Unix socket at `connectPath` (a WriteWrap taken from one stderr write
 * serves as the connect request). Prints the libuv status codes. */
export function unixSocketProgram(bindPath: string, connectPath: string): string {
  return (
    TO_GLOBAL_OBJECT +
    'handle = G.process.stderr._handle\n' +
    'Pipe = handle.constructor\n' +
    'server = Pipe.new(0)\n' +
    `print("bind", server.bind(${JSON.stringify(bindPath)}), "listen", server.listen(1))\n` +
    'wraps = []\n' +
    'original = handle.writeUtf8String\n' +
    'def spy(req, text):\n' +
    '    wraps.append(req)\n' +
    '    return original.call(handle, req, text)\n' +
    'handle.writeUtf8String = create_proxy(spy)\n' +
    'G.process.stderr.write("-\\n")\n' +
    'handle.writeUtf8String = original\n' +
    'client = Pipe.new(0)\n' +
    'request = wraps[0].constructor.new()\n' +
    'request.oncomplete = create_proxy(lambda *a: None)\n' +
    `print("connect", client.connect(request, ${JSON.stringify(connectPath)}))\n`
  );
}

/** With the engine realm's global object, binds Unix sockets where the sandbox could still make
 * them (the abstract namespace, a file in /dev/shm): their connections' kernel buffers hold memory
 * that no process's resident memory shows (issue 44: 1.9 GB). Prints libuv's status of each bind
 * ("bind 0" where it bound). */
export function kernelMemoryProgram(tag: string): string {
  return (
    TO_GLOBAL_OBJECT +
    'Pipe = G.process.stderr._handle.constructor\n' +
    `print("abstract bind", Pipe.new(0).bind("\\0${tag}"), flush=True)\n` +
    `print("shm bind", Pipe.new(0).bind("/dev/shm/${tag}.sock"), flush=True)\n`
  );
}

/** With the engine realm's global object, leaves a JavaScript interval timer running: the engine
 * process would outlive the command that started it. */
export const TIMER_PROGRAM = TO_GLOBAL_OBJECT + 'G.setInterval(create_proxy(lambda *a: None), 500)\nprint("timer set")\n';

/** With the engine realm's global object, writes on the engine's channel to the parent: a forged
 * answer (an id it guesses) and, with `close`, closes the channel. */
export function forgedChannelProgram(close: boolean): string {
  return (
    TO_GLOBAL_OBJECT +
    `G.process.send(G.JSON.parse('{"id": 1, "result": "FORGED"}'))\n` +
    (close ? 'G.process.disconnect()\n' : '') +
    'print("sent")\n'
  );
}

/** Takes memory 100 MB at a time, up to 3 GB. */
export const MEMORY_PROGRAM = 'chunks = []\nfor i in range(30):\n    chunks.append(bytearray(100 * 1024 * 1024))\nprint("took", len(chunks) * 100, "MB")\n';

/** Ways past Python's layer that the layer itself now refuses: each ends in SandboxError. */
export const PYTHON_LAYER_ROUTES: readonly { name: string; source: string }[] = [
  {
    name: 'a str subclass whose split() lies',
    source: 'class Name(str):\n    def split(self, *a, **k):\n        return ["math"]\n    def startswith(self, *a):\n        return False\n__import__(Name("pyodide_js"))\n',
  },
  {
    name: '_imp.create_builtin of a hidden module',
    source: 'import _imp\nfrom importlib.machinery import ModuleSpec, BuiltinImporter\ncore = _imp.create_builtin(ModuleSpec("_pyodide_core", BuiltinImporter))\n',
  },
  {
    name: 'BuiltinImporter.create_module of a hidden module',
    source: 'from importlib.machinery import ModuleSpec, BuiltinImporter\ncore = BuiltinImporter.create_module(ModuleSpec("_pyodide_core", BuiltinImporter))\n',
  },
  { name: 'sys.settrace(None)', source: 'import sys\nsys.settrace(None)\nx = 1\n' },
  { name: 'sys.setprofile', source: 'import sys\nsys.setprofile(lambda *a: None)\n' },
  { name: 'threading.settrace', source: 'import threading\nthreading.settrace(lambda *a: None)\n' },
];

/** Prints whether Pyodide's finder of JavaScript modules is on `sys.meta_path` (it must not be
 * while a program runs: it holds `pyodide_js` itself). */
export const FINDER_VISIBLE_PROGRAM = 'import sys\nprint(any(hasattr(f, "jsproxies") for f in sys.meta_path))\n';

/** Past Python's layer, programs that rewrite their own recording: the run must say so. */
export const TAMPERING_PROGRAMS: readonly { name: string; source: string }[] = [
  { name: 'the tracer taken away', source: `${PAST_PYTHON}sys.settrace(None)\nhidden = 1\nhidden = 2\n` },
  {
    name: 'json.dumps patched',
    source: 'import json\n_dumps = json.dumps\ndef dumps(obj, *a, **k):\n    return _dumps(obj, *a, **k)\njson.dumps = dumps\nx = 1\n',
  },
];

/** Opens a TCP connection to 127.0.0.1:`port` from Node's own sockets, reached through Pyodide's
 * API past Python's layer, and sends `message` (the network test listens on that port). */
export function nodeSocketProgram(port: number, message: string): string {
  return (
    PAST_PYTHON +
    'import socket\n' +
    'api = pyodide_js._api\n' +
    'sock = None\n' +
    'def connected(_):\n' +
    `    api._nodeSock.send(sock.fileno(), ${JSON.stringify(message)}.encode())\n` +
    'def ready(_):\n' +
    '    global sock\n' +
    '    sock = socket.socket()\n' +
    `    api._nodeSock.connect(sock.fileno(), "127.0.0.1", ${port}).then(connected)\n` +
    'api.initializeNodeSockFS().then(ready)\n'
  );
}

/** Leaves a patched `json.dumps` behind in the interpreter it ran in: the next program run there
 * would have its recording forged, outside the sandbox's guard. */
export const POISONING_PROGRAM = [
  'import json',
  '_dumps = json.dumps',
  'def dumps(obj, *args, **kwargs):',
  '    if isinstance(obj, dict) and "stdout" in obj:',
  '        obj["stdout"] = "FORGED"',
  '    return _dumps(obj, *args, **kwargs)',
  'json.dumps = dumps',
  'import builtins',
  'builtins.print = lambda *a, **k: None',
  '',
].join('\n');

export function hostilePrograms(dir: string): HostileProgram[] {
  const target = (name: string) => JSON.stringify(`${dir}/${name}`);
  const touch = (name: string) => JSON.stringify(`touch ${dir}/${name}`);
  const refused = (name: string, source: string): HostileProgram => ({ name, source, refusedByPython: true });
  const contained = (name: string, source: string): HostileProgram => ({ name, source, refusedByPython: false });
  return [
    refused('os-system', `import os\nos.system(${touch('os-system')})\n`),
    refused('js-child-process', `import js\njs.process.getBuiltinModule("child_process").execSync(${touch('js-child-process')})\n`),
    refused('js-eval', `import js\njs.eval(${JSON.stringify(`require("fs").writeFileSync(${target('js-eval')}, "x")`)})\n`),
    refused('run-js', `from pyodide.code import run_js\nrun_js(${JSON.stringify(`require("fs").writeFileSync(${target('run-js')}, "x")`)})\n`),
    refused('dunder-import', `__import__("js").Function("return process")().getBuiltinModule("child_process").execSync(${touch('dunder-import')})\n`),
    refused('importlib', `import importlib\nimportlib.import_module("js").process.getBuiltinModule("fs").writeFileSync(${target('importlib')}, "x")\n`),
    refused('pyodide-js', `import pyodide_js\npyodide_js.runPython("import os; os.system(${touch('pyodide-js').replace(/"/g, "'")})")\n`),
    // hidden: a KeyError, as for any module that is not there
    contained('sys-modules', `import sys\nsys.modules["pyodide_js"].runPython("1")\n`),
    refused('ffi', `from pyodide.ffi import to_js\nto_js([]).constructor.constructor("return process")().getBuiltinModule("child_process").execSync(${touch('ffi')})\n`),
    refused('exec-string', `exec("import os\\nos.system(${touch('exec-string').replace(/"/g, "'")})")\n`),
    refused('ctypes', 'import ctypes\nctypes.CDLL(None)\n'),
    refused('socket', 'import socket\nsocket.create_connection(("127.0.0.1", 9))\n'),
    refused('urllib', 'import urllib.request\nurllib.request.urlopen("http://127.0.0.1:9/")\n'),
    refused('gc-walk', 'import gc\nprint(len(gc.get_objects()))\n'),
    contained('subprocess', `import subprocess\nsubprocess.run(["touch", ${target('subprocess')}])\n`),
    contained('past-python-eval', `${PAST_PYTHON}pyodide_js.runPython.constructor("return process")().getBuiltinModule("fs").writeFileSync(${target('past-python-eval')}, "x")\n`),
    contained('past-python-mount', `${PAST_PYTHON}pyodide_js.mountNodeFS("/host", ${JSON.stringify(dir)})\nopen("/host/past-python-mount", "w").write("x")\n`),
    contained('finder-eval', `${FINDER_JS}pyodide_js.runPython.constructor("return process")().getBuiltinModule("fs").writeFileSync(${target('finder-eval')}, "x")\n`),
    contained('finder-mount', `${FINDER_JS}pyodide_js.mountNodeFS("/host", ${JSON.stringify(dir)})\nopen("/host/finder-mount", "w").write("x")\n`),
    contained('past-python-js', `${PAST_PYTHON}js.process.getBuiltinModule("child_process").execSync(${touch('past-python-js')})\n`),
  ];
}

/** An ordinary program of the standard library, which the sandbox must leave as it was. */
export const ORDINARY_PROGRAM = {
  source: [
    'import collections, json, re',
    '',
    'def words(text):',
    '    counts = collections.Counter(re.findall(r"[a-z]+", text.lower()))',
    '    top = counts.most_common(2)',
    '    return json.dumps(dict(top))',
    '',
  ].join('\n'),
  call: 'words("The cat and the hat and THE bat")',
  value: `'{"the": 3, "and": 2}'`,
};
