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
  'import js, pyodide_js\n';

/** Gets past Python's layer without touching the guard: Pyodide's import finder on
 * `sys.meta_path` holds the JavaScript modules it can import. */
const FINDER_JS = 'import sys\njs_modules = next(f for f in sys.meta_path if hasattr(f, "jsproxies")).jsproxies\npyodide_js = js_modules["pyodide_js"]\n';

/** Opens a TCP connection to 127.0.0.1:`port` from Node's own sockets, reached through Pyodide's
 * API past Python's layer, and sends `message` (the network test listens on that port). */
export function nodeSocketProgram(port: number, message: string): string {
  return (
    FINDER_JS +
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
