// The real engine's own process, for the Node faces (the CLI, `ndb dap`, `ndb mcp`): Pyodide under
// Node's permission model, started by processHost.ts, which also chooses the flags:
//   --permission (--experimental-permission on Node 20)  no file writes, no child processes, no
//       worker threads, no native addons; file reads only of Pyodide's folder and this file
//   --disallow-code-generation-from-strings  no eval or Function(text): JavaScript reached from
//       Python can call only functions that already exist
//   and, where Linux allows it, a network namespace of its own (unshare), so there is no network.
// What the permission model of Node 20 leaves (the network, a few process methods) is removed from
// this realm below, before Pyodide loads. Plain JavaScript: a TypeScript loader would need a child
// process (esbuild) and file writes (its cache), which this process does not get.
//
// Protocol (engineProcessProtocol.ts has the types): the parent's first message is
// {kind: 'boot', snapshot, make, setup}: the interpreter to restore (a memory snapshot an earlier
// engine made before any program ran in it, sent over this channel: this process opens no file but
// Pyodide's), or null for a plain load, and the Python a restored one runs before it is ready. Then {id, kind: 'run', code} (Python source, run with
// runPython: the engine's own setup, never a user's program), {id, kind: 'ask', question} (one
// question of engineProtocol.ts as JSON, answered by the installed answers.py) or
// {id, kind: 'snapshot'} (this interpreter's memory, made only before the first `ask`); this
// process answers {ready, loadMs, restored[, restoreError]} once, then {id, result},
// {id, snapshot} or {id, error, fatal}. A fatal error (Pyodide cannot go on) ends the process after
// its answer.

import dgram from 'node:dgram';
import dns from 'node:dns';
import { constants as fsConstants } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';
import { pathToFileURL } from 'node:url';

const [pyodideDir] = process.argv.slice(2);
const started = performance.now();

// Kept here, out of reach of anything Python can touch: the channel to the parent.
const send = process.send?.bind(process);
if (!send) throw new Error('engineProcess.mjs runs as a child with an IPC channel (processHost.ts)');

// Pyodide's NODEFS reads the file-mode constants through process.binding, which the permission
// model refuses; it gets those constants and nothing else.
process.binding = (name) => {
  if (name === 'constants') return { fs: fsConstants };
  throw new Error(`process.binding(${JSON.stringify(name)}) is not available in ndb's engine`);
};

// The network, which Node 20's permission model does not restrict, and what would reach it.
for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest', 'navigator']) {
  if (name in globalThis) delete globalThis[name];
}
closeNetworkModules();

/** Node's own network modules, which Pyodide's code can still import (its socket file system
 * imports node:net and node:tls): every function that opens a connection, listens, sends a
 * datagram or asks DNS throws, on the module objects and on the prototypes of their classes, so
 * that any path to them ends here. The channel to the parent is an IPC pipe made before this runs. */
function closeNetworkModules() {
  const refuse = (what) =>
    function refused() {
      throw new Error(`${what} is not available in ndb's engine: debugged code has no network`);
    };
  const close = (target, names, what) => {
    for (const name of names) {
      if (target && typeof target[name] === 'function') {
        Object.defineProperty(target, name, { value: refuse(`${what}.${name}`), configurable: false, writable: false });
      }
    }
  };
  close(net, ['connect', 'createConnection', 'createServer'], 'net');
  close(net.Socket?.prototype, ['connect'], 'net.Socket');
  close(net.Server?.prototype, ['listen'], 'net.Server');
  close(tls, ['connect', 'createServer', 'createSecurePair'], 'tls');
  close(dgram, ['createSocket'], 'dgram');
  close(dgram.Socket?.prototype, ['bind', 'connect', 'send'], 'dgram.Socket');
  close(http, ['request', 'get', 'createServer'], 'http');
  close(https, ['request', 'get', 'createServer'], 'https');
  close(http2, ['connect', 'createServer', 'createSecureServer'], 'http2');
  const lookups = Object.keys(dns).filter((name) => /^(lookup|resolve|reverse)/.test(name));
  close(dns, lookups, 'dns');
  close(dns.promises, Object.keys(dns.promises ?? {}).filter((name) => /^(lookup|resolve|reverse)/.test(name)), 'dns.promises');
  close(dns.Resolver?.prototype, Object.getOwnPropertyNames(dns.Resolver?.prototype ?? {}).filter((name) => /^(resolve|reverse)/.test(name)), 'dns.Resolver');
  close(dns.promises?.Resolver?.prototype, Object.getOwnPropertyNames(dns.promises?.Resolver?.prototype ?? {}).filter((name) => /^(resolve|reverse)/.test(name)), 'dns.promises.Resolver');
  // `import { connect } from 'node:net'` (and Pyodide's `import('node:net')`) read these too.
  syncBuiltinESMExports();
}

// The parent's first message says how to start Python; Pyodide's loader is imported meanwhile.
const booted = new Promise((resolve) => process.once('message', resolve));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const boot = await booted;
if (boot?.kind !== 'boot') throw new Error('the engine expects {kind: "boot"} first');

/** Pyodide started with `more` (a snapshot to restore, or `_makeSnapshot`). */
function start(more) {
  return loadPyodide({
    indexURL: `${pyodideDir}/`,
    // `import js` gives an empty namespace: no property of it leads to this realm's globals.
    jsglobals: Object.create(null),
    stdout: (line) => process.stderr.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
    ...more,
  });
}

let pyodide = null;
let restoreError;
if (boot.snapshot instanceof Uint8Array) {
  try {
    const restored = await start({ _loadSnapshot: boot.snapshot });
    // The snapshot holds the engine's modules, imported; one without them is not this engine's.
    if (restored.runPython("import sys\n'ndb_answers' in sys.modules") !== true) throw new Error("it holds no engine (ndb_answers is not imported)");
    // Restored memory would replay the snapshot's random state: seeded afresh, as a plain start is
    // (str hashes keep the snapshot's seed).
    restored.runPython('import random\nrandom.seed()');
    // The engine's module files (a snapshot holds no file system), written before `ready`: one
    // round trip less before the first request, which the parent's setup after it cost (~60 ms).
    for (const code of Array.isArray(boot.setup) ? boot.setup : []) restored.runPython(String(code));
    pyodide = restored;
  } catch (err) {
    restoreError = err instanceof Error ? err.message.split('\n')[0] : String(err);
  }
}
const restored = pyodide !== null;
// A process that could not restore loads so that it can make the snapshot that replaces it.
const makeable = !restored && (boot.make === true || restoreError !== undefined);
pyodide ??= await start(makeable ? { _makeSnapshot: true } : {});
boot.snapshot = null; // the bytes are Pyodide's memory now (or refused): not kept twice

// Loaded: what remains of the process object that could act on the host goes too (nothing Python
// can reach leads to `process`; this is the second lock).
for (const name of ['binding', '_linkedBinding', 'dlopen', 'getBuiltinModule', 'kill', '_kill', '_debugProcess', '_debugEnd', 'report', 'execve', 'loadEnvFile']) {
  try {
    Object.defineProperty(process, name, { value: undefined, configurable: false, writable: false });
  } catch {
    // not a property of this Node version
  }
}
for (const key of Object.keys(process.env)) delete process.env[key];
// Pyodide's sockets over Node's (its `useNodeSockFS`): refused before they are set up.
const pyodideApi = /** @type {{ _api?: Record<string, unknown> }} */ (pyodide)._api;
for (const name of ['initializeNodeSockFS', '_nodeSock']) {
  if (pyodideApi && name in pyodideApi) {
    Object.defineProperty(pyodideApi, name, {
      value: () => {
        throw new Error(`${name} is not available in ndb's engine: debugged code has no network`);
      },
      configurable: false,
      writable: false,
    });
  }
}

let answers = null;
/** A question was asked: a program may have run here, so no snapshot is made from now on. */
let asked = false;

/** answers.py's `answer`, imported once it is installed (again after every `run`). */
function answer(question) {
  answers ??= pyodide.pyimport('ndb_answers');
  return answers.answer(question);
}

/** A Python answer as plain data: strings, numbers, booleans and None; anything else is dropped. */
function plain(value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  value?.destroy?.();
  return null;
}

/** Whether Pyodide can still run Python after an error (a fatal error ends it for good). */
function alive() {
  try {
    pyodide.runPython('None');
    return true;
  } catch {
    return false;
  }
}

process.on('message', (msg) => {
  let result;
  try {
    if (msg.kind === 'run') {
      // Runs set the engine up (install a module): questions import afresh after one.
      answers?.destroy?.();
      answers = null;
      result = pyodide.runPython(msg.code);
    } else if (msg.kind === 'ask') {
      asked = true;
      result = answer(msg.question);
    } else if (msg.kind === 'snapshot') {
      // Only of an interpreter no program has run in: a program's leftovers (a patched module, a
      // global in builtins) would start in every engine restored from it.
      if (asked) throw new Error('a snapshot is made only before any program runs');
      if (!makeable) throw new Error('this interpreter was not loaded to be snapshotted');
      send({ id: msg.id, snapshot: pyodide.makeMemorySnapshot() });
      return;
    } else throw new Error(`unknown request ${JSON.stringify(msg.kind)}`);
    send({ id: msg.id, result: plain(result) });
  } catch (err) {
    const fatal = !alive();
    send({ id: msg.id, error: err instanceof Error ? err.message : String(err), fatal }, () => {
      if (fatal) process.exit(70);
    });
  }
});

send({ ready: true, loadMs: Math.round(performance.now() - started), restored, ...(restoreError !== undefined ? { restoreError } : {}) });
