// The real engine in the browser: Pyodide in a module worker, served by the app itself.
//
// Protocol (types in ./client.ts): the main thread sends `init` once (with the interrupt buffer,
// when the page is cross-origin isolated), then `record` and `evaluate` requests; the worker
// answers `ready` once loaded, and `recorded`/`evaluated` or `error` for each request, echoing its id.
// Loading starts as soon as this script runs, not at `init`: the page may create the worker
// before the code that talks to it has been evaluated (src/ui/prestart.ts). Nothing is posted
// before `init`, so no answer reaches a worker object that nobody listens to yet.
//
// A warm start skips Python's own start: after the first load the worker keeps a memory snapshot
// of the interpreter with the tracer imported (Pyodide's makeMemorySnapshot) in the Cache API,
// and the next load restores it instead of starting Python again (measured in `npm run bench:web`).
// The snapshot is read while pyodide.mjs is imported, and a restored interpreter keeps the tracer
// it already holds (the snapshot's key names the tracer's source). A snapshot is used only when its
// bytes have the SHA-256 digest stored with them.
//
// Debugged code is untrusted: `import js` gives an empty namespace, and before the first program
// runs the worker closes its own realm (workerLockdown.ts: no storage of the app's origin, no
// network, no other realm, no code made from strings), and it answers only the page's own
// messages. A worker records one program only (client.ts). Everything the worker needs afterwards (the page's channel, the
// snapshot's cache) is held in this module's closures, out of Python's reach.

import type { loadPyodide as LoadPyodide, PyodideInterface } from 'pyodide';
import tracerSource from './tracer.py?raw';
import type { EvaluationResult, WorkerRequest, WorkerResponse } from './client';
import { installModule, RealEngine, sandboxJsGlobals, type RecordOptions } from './realEngine';
import sandboxSource from './sandbox.py?raw';
import valuesSource from './values.py?raw';
import { closeCodeGeneration, closeRealm } from './workerLockdown';

interface WorkerScope {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<WorkerRequest>) => void): void;
  location: { href: string };
}

const scope = self as unknown as WorkerScope;
// Taken before the realm is closed (closeRealm removes postMessage from the global object).
const postToPage = scope.postMessage.bind(scope);

/** Messages held until `init` (the page listens from then on). */
let outbox: WorkerResponse[] | null = [];

function post(msg: WorkerResponse): void {
  if (outbox) outbox.push(msg);
  else postToPage(msg);
}

let receiveInit!: (interruptBuffer: Uint8Array | null) => void;
const initialised = new Promise<Uint8Array | null>((resolve) => (receiveInit = resolve));

function onInit(interruptBuffer: Uint8Array | null): void {
  if (!outbox) return;
  const held = outbox;
  outbox = null;
  for (const msg of held) postToPage(msg);
  receiveInit(interruptBuffer);
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The folder the app serves Pyodide from, as an absolute URL (loadPyodide needs one). */
function pyodideIndexURL(): string {
  return new URL(`${import.meta.env.BASE_URL}pyodide/`, scope.location.href).href;
}

interface Loaded {
  real: RealEngine;
  /** values.py's evaluate_on_locals(expr, locals_json) -> JSON text. */
  evaluateOnLocals: (expr: string, localsJson: string) => unknown;
}

/** The snapshot's cache, and the key that names what it holds: a new Pyodide, tracer or values
 * module makes a new key (and the older snapshot is deleted). */
const SNAPSHOT_CACHE = 'ndb-pyodide-snapshot';

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** Pyodide's snapshot options (underscored in its types: they are not its public API yet). */
interface SnapshotOptions {
  _makeSnapshot?: boolean;
  _loadSnapshot?: Uint8Array;
}

type PyodideWithSnapshot = PyodideInterface & { makeMemorySnapshot?: () => Uint8Array };

async function snapshotCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(SNAPSHOT_CACHE);
  } catch {
    return null; // storage blocked: load without one
  }
}

/** The header that carries a stored snapshot's SHA-256 digest (hex). */
const DIGEST_HEADER = 'X-Ndb-Sha256';

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The stored snapshot, whichever it is (storeSnapshot keeps one): read before its expected key is
 * known, so that reading it overlaps importing Pyodide. Bytes that do not have the digest stored
 * with them (cut short, or written by anything but this worker) are not a snapshot. */
async function readStoredSnapshot(cache: Cache | null): Promise<{ url: string; bytes: Uint8Array } | null> {
  try {
    const [request] = (await cache?.keys()) ?? [];
    const hit = request ? await cache?.match(request) : undefined;
    if (!request || !hit) return null;
    const bytes = new Uint8Array(await hit.arrayBuffer());
    if (hit.headers.get(DIGEST_HEADER) !== (await sha256(bytes))) {
      await cache?.delete(request);
      return null;
    }
    return { url: request.url, bytes };
  } catch {
    return null;
  }
}

/** This interpreter's memory, or null when it cannot be snapshotted. */
function takeSnapshot(pyodide: PyodideWithSnapshot): Uint8Array | null {
  try {
    return pyodide.makeMemorySnapshot?.() ?? null;
  } catch {
    return null;
  }
}

/** Keeps a snapshot for the next start, in place of any older one. */
async function storeSnapshot(cache: Cache, url: string, bytes: Uint8Array): Promise<void> {
  try {
    for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
    const headers = { 'Content-Type': 'application/octet-stream', [DIGEST_HEADER]: await sha256(bytes) };
    await cache.put(url, new Response(bytes as Uint8Array<ArrayBuffer>, { headers }));
  } catch {
    // no room, or the interpreter cannot be snapshotted: the next start is a plain one
  }
}

async function load(): Promise<Loaded> {
  const started = performance.now();
  const indexURL = pyodideIndexURL();
  post({ type: 'stage', stage: 'fetching' });
  const caching = snapshotCache();
  const stored = caching.then(readStoredSnapshot);
  // Loaded at run time from the served copy, so that the JS and the wasm always match.
  const mod = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as { loadPyodide: typeof LoadPyodide; version: string };
  const cache = await caching;
  const snapshotUrl = `${indexURL}ndb-snapshot-${fnv(`${mod.version}\0${tracerSource}\0${sandboxSource}\0${valuesSource}`)}.bin`;
  const found = await stored;
  const snapshot = found?.url === snapshotUrl ? found.bytes : null;
  post({ type: 'stage', stage: snapshot ? 'restoring' : 'starting' });
  const options = { indexURL, jsglobals: sandboxJsGlobals(), stdout: () => undefined, stderr: () => undefined };
  let pyodide: PyodideWithSnapshot;
  let fromSnapshot = false;
  try {
    pyodide = await mod.loadPyodide({ ...options, ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }) } as Parameters<typeof LoadPyodide>[0] & SnapshotOptions);
    fromSnapshot = snapshot !== null;
  } catch (err) {
    if (!snapshot) throw err;
    // A snapshot this Pyodide cannot restore: forget it, start Python the plain way.
    await cache?.delete(snapshotUrl).catch(() => undefined);
    pyodide = await mod.loadPyodide({ ...options, _makeSnapshot: true } as Parameters<typeof LoadPyodide>[0] & SnapshotOptions);
  }
  // A restored interpreter would replay the snapshot's random state (Pyodide's start imports
  // `random`): seed it afresh, as a plain start does. (str hashes keep the snapshot's seed.)
  if (fromSnapshot) pyodide.runPython('import random\nrandom.seed()');
  post({ type: 'stage', stage: 'tracer' });
  const real = await RealEngine.create(pyodide, { tracer: tracerSource, sandbox: sandboxSource }, { keepLoaded: fromSnapshot });
  installModule(pyodide, 'ndb_values', valuesSource, { keepLoaded: fromSnapshot });
  const values = pyodide.pyimport('ndb_values') as unknown as { evaluate_on_locals: Loaded['evaluateOnLocals'] };
  const version = pyodide.runPython('import sys; sys.version.split()[0]');
  // Taken before the interrupt buffer is set (a snapshot holds no JavaScript objects) and before
  // the first program runs, so that every start begins from the same clean interpreter.
  const made = !fromSnapshot && cache ? takeSnapshot(pyodide) : null;
  const interruptBuffer = await initialised;
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  const open = [
    ...closeRealm(self),
    // one function of each kind, made here: their constructors are this realm's code makers
    ...closeCodeGeneration(self, [function () {}, async function () {}, function* () {}, async function* () {}]),
  ];
  if (open.length > 0) throw new Error(`the Python worker could not close ${open.join(', ')} to debugged code`);
  post({
    type: 'ready',
    loadMs: Math.round(performance.now() - started),
    pythonVersion: typeof version === 'string' ? version : '?',
    interruptible: interruptBuffer !== null,
    fromSnapshot,
  });
  // Stored while the first program runs: the write never delays the start.
  if (made && cache) void storeSnapshot(cache, snapshotUrl, made);
  return { real, evaluateOnLocals: (expr, localsJson) => values.evaluate_on_locals(expr, localsJson) };
}

const engine: Promise<Loaded> = load();
engine.catch((err: unknown) => post({ type: 'error', id: null, message: `Python could not be loaded: ${describe(err)}` }));

scope.addEventListener('message', (ev: MessageEvent<WorkerRequest>) => {
  // Only the page's messages: a program that reached this realm could dispatch events of its own
  // to make this worker answer requests the page never sent.
  if (!ev.isTrusted) return;
  const msg = ev.data;
  switch (msg.type) {
    case 'init':
      onInit(msg.interruptBuffer);
      return;
    case 'record':
      void record(msg.id, msg.source, msg.call, msg.options);
      return;
    case 'evaluate':
      void evaluate(msg.id, msg.expr, msg.locals);
      return;
  }
});

async function loaded(id: number): Promise<Loaded | null> {
  try {
    return await engine;
  } catch (err) {
    post({ type: 'error', id, message: `Python could not be loaded: ${describe(err)}` });
    return null;
  }
}

async function evaluate(id: number, expr: string, locals: Record<string, string>): Promise<void> {
  const py = await loaded(id);
  if (!py) return;
  try {
    const text = py.evaluateOnLocals(expr, JSON.stringify(locals));
    if (typeof text !== 'string') throw new Error('no answer');
    post({ type: 'evaluated', id, result: JSON.parse(text) as EvaluationResult });
  } catch (err) {
    post({ type: 'error', id, message: `The expression could not be evaluated: ${describe(err)}` });
  }
}

async function record(id: number, source: string, call: string, options: RecordOptions): Promise<void> {
  const py = await loaded(id);
  if (!py) return;
  const real = py.real;
  const started = performance.now();
  try {
    const recording = real.record(source, call, options);
    post({ type: 'recorded', id, recording, elapsedMs: Math.round(performance.now() - started) });
  } catch (err) {
    post({ type: 'error', id, message: `The tracer failed: ${describe(err)}` });
  }
}
