// The real engine in the browser: Pyodide in a worker that a sandboxed frame starts (engineFrame.ts),
// in the frame's opaque origin and under its Content-Security-Policy, which allows no request.
//
// Protocol (types in ./client.ts and ./engineFrameScript.ts): once the worker listens, the frame
// passes on what the page sent, in the page's order: `boot` (where Pyodide's files are named),
// `file` for each of them (a Blob, as soon as the page has read it), `restore`
// (the interpreter an earlier start saved, or null), `init` (with the frame's interrupt buffer,
// when the page is cross-origin isolated), and `record` and `evaluate` requests. The worker answers
// `ready` once loaded, and `recorded`/`evaluated` or `error` for each request, echoing its id.
// Nothing is posted to the page before `init`, so no answer reaches a worker object that nobody
// listens to yet (the page may start a worker before the code that talks to it has been evaluated:
// src/ui/prestart.ts).
//
// Nothing is fetched: Pyodide reads its files through `fetch`, which here serves the Blobs the page
// handed in (and is deleted before any program runs). A warm start skips Python's own start: the
// page keeps a memory snapshot of an interpreter with the tracer imported (Pyodide's
// makeMemorySnapshot, kept without its zero pages: snapshotPages.ts), and a worker given one
// restores it instead of starting Python again, while the page checks that it fits this engine and
// that its bytes have their SHA-256 digest (measured in `npm run bench:web`).
// A worker given none (or one it cannot restore) takes a snapshot before any program can run and
// posts it before `ready`; the page stores it, and takes one only before `ready`.
//
// Debugged code is untrusted: `import js` gives an empty namespace, and before the first program
// runs the worker also deletes from its realm what reaches storage, the network, other realms and
// code from strings (workerLockdown.ts: a second lock; the frame's origin and policy are the
// first), and it answers only its owner's messages. A worker records one program only (client.ts).
// Everything the worker needs afterwards (its channel) is held in this module's closures, out of
// Python's reach.

import type { loadPyodide as LoadPyodide, PyodideInterface } from 'pyodide';
import answersSource from '../python/answers.py?raw';
import type { EngineQuestion } from '../engineProtocol';
import type { WorkerResponse } from './workerProtocol';
import { LISTENING, PYODIDE_FILES, type EngineBoot, type PyodideFile, type ToWorker } from './engineFrameScript';
import { RealEngine, sandboxJsGlobals, type EngineSources, type RecordOptions } from '../realEngine';
import sandboxSource from '../python/sandbox.py?raw';
import sourceInfoSource from '../python/sourceInfo.py?raw';
import tracerSource from '../python/tracer.py?raw';
import valuesSource from '../python/values.py?raw';
import { packSnapshot, unpackSnapshot } from '../snapshotPages';
import { closeCodeGeneration, closeRealm } from './workerLockdown';

/** The engine's Python modules, bundled with this script (so the snapshot's name covers them). */
const SOURCES: EngineSources = {
  ndb_sandbox: sandboxSource,
  ndb_tracer: tracerSource,
  ndb_source_info: sourceInfoSource,
  ndb_values: valuesSource,
  ndb_answers: answersSource,
};

/** What the worker posts: the page's answers, the snapshot it made (before `ready`), and the
 * frame's signal that it listens. */
type Outgoing = WorkerResponse | { type: 'snapshot'; bytes: Blob } | { type: typeof LISTENING };

interface WorkerScope {
  postMessage(message: Outgoing): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<ToWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;
// Taken before the realm is closed (closeRealm removes postMessage from the global object).
const postToPage = scope.postMessage.bind(scope);

/** Messages held until `init` (the page listens from then on). */
let outbox: Outgoing[] | null = [];

function post(msg: Outgoing): void {
  if (outbox) outbox.push(msg);
  else postToPage(msg);
}

let receiveBoot!: (boot: EngineBoot) => void;
const booted = new Promise<EngineBoot>((resolve) => (receiveBoot = resolve));
/** Pyodide's files, each as the page sends it. */
const arrived = new Map<string, (blob: Blob) => void>();
const files = new Map<string, Promise<Blob>>();
function file(name: PyodideFile): Promise<Blob> {
  let got = files.get(name);
  if (!got) {
    got = new Promise<Blob>((resolve) => arrived.set(name, resolve));
    files.set(name, got);
  }
  return got;
}

let receiveRestore!: (snapshot: Blob | null) => void;
/** The interpreter to restore, or null for a plain start. */
const restore = new Promise<Blob | null>((resolve) => (receiveRestore = resolve));

let receiveChecked!: (ok: boolean) => void;
/** Whether the snapshot handed in fits this engine and has its digest: the page checks while the
 * worker restores it, and nothing but Pyodide's own start runs in the restored interpreter before
 * the answer. */
const checked = new Promise<boolean>((resolve) => (receiveChecked = resolve));

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

/** Pyodide's options that its types do not list: its snapshot options (underscored: not its
 * public API yet), and the module factory and lock file given instead of fetched. */
interface MoreOptions {
  _makeSnapshot?: boolean;
  _loadSnapshot?: Uint8Array;
  createPyodideModule?: unknown;
  lockFileContents?: unknown;
}

type PyodideWithSnapshot = PyodideInterface & { makeMemorySnapshot?: () => Uint8Array };

/** The snapshot the page handed in, if any and if it can be read. */
async function readSnapshot(given: Blob | null): Promise<Uint8Array | null> {
  try {
    return given ? unpackSnapshot(new Uint8Array(await given.arrayBuffer())) : null;
  } catch {
    return null;
  }
}

/** This interpreter's memory without its zero pages, or null when it cannot be snapshotted. */
function takeSnapshot(pyodide: PyodideWithSnapshot): Uint8Array | null {
  try {
    const made = pyodide.makeMemorySnapshot?.();
    return made ? packSnapshot(made) : null;
  } catch {
    return null;
  }
}

/** Pyodide reads its wasm and its standard library with `fetch`: here that serves the files the
 * page hands in (waiting for one that has not come yet), by their URLs under `indexURL`, and
 * nothing else. */
function serveFiles(indexURL: string): void {
  const names = new Set<string>(PYODIDE_FILES);
  const serve = async (input: RequestInfo | URL): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const name = url.startsWith(indexURL) ? url.slice(indexURL.length) : '';
    if (!names.has(name)) throw new TypeError(`${url} is not one of Pyodide's files`);
    const type = name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(await file(name as PyodideFile), { headers: { 'Content-Type': type } });
  };
  Object.defineProperty(self, 'fetch', { value: serve, writable: true, configurable: true, enumerable: true });
}

/** Pyodide's WebAssembly, compiled as soon as its bytes are here: while the worker waits for the
 * snapshot and imports Pyodide's loader, not after. */
function compileWasm(): Promise<WebAssembly.Module | null> {
  return file('pyodide.asm.wasm')
    .then((blob) => WebAssembly.compileStreaming(new Response(blob, { headers: { 'Content-Type': 'application/wasm' } })))
    .catch(() => null);
}

/** Runs `start` with Pyodide's `instantiateStreaming` given the module compiled ahead (Pyodide
 * instantiates its one module that way), then puts the browser's own function back. */
async function withCompiledWasm<T>(compiled: Promise<WebAssembly.Module | null>, start: () => Promise<T>): Promise<T> {
  const wasm = WebAssembly as { instantiateStreaming: typeof WebAssembly.instantiateStreaming };
  const original = wasm.instantiateStreaming;
  wasm.instantiateStreaming = async (source, imports) => {
    const module = await compiled;
    if (!module) return original.call(WebAssembly, source, imports);
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    return await start();
  } finally {
    wasm.instantiateStreaming = original;
  }
}

/** Imports a module handed in as a Blob (the policy allows scripts from blob: URLs only). */
async function importBlob<T>(blob: Blob): Promise<T> {
  const url = URL.createObjectURL(new Blob([blob], { type: 'text/javascript' }));
  try {
    return (await import(/* @vite-ignore */ url)) as T;
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function load(): Promise<RealEngine> {
  const boot = await booted;
  const started = performance.now();
  post({ type: 'stage', stage: 'fetching' });
  serveFiles(boot.indexURL);
  const compiled = compileWasm();
  const snapshotRead = restore.then(readSnapshot);
  const [mod, asm, lock] = await Promise.all([
    file('pyodide.mjs').then((blob) => importBlob<{ loadPyodide: typeof LoadPyodide }>(blob)),
    file('pyodide.asm.mjs').then((blob) => importBlob<{ default: unknown }>(blob)),
    file('pyodide-lock.json').then(async (blob) => JSON.parse(await blob.text()) as unknown),
  ]);
  const snapshot = await snapshotRead;
  post({ type: 'stage', stage: snapshot ? 'restoring' : 'starting' });
  const options = {
    indexURL: boot.indexURL,
    createPyodideModule: asm.default,
    lockFileContents: lock,
    jsglobals: sandboxJsGlobals(),
    stdout: () => undefined,
    stderr: () => undefined,
  };
  const start = (more: MoreOptions) =>
    withCompiledWasm(compiled, () => mod.loadPyodide({ ...options, ...more } as Parameters<typeof LoadPyodide>[0] & MoreOptions) as Promise<PyodideWithSnapshot>);
  let pyodide: PyodideWithSnapshot | null = null;
  if (snapshot) {
    try {
      pyodide = await start({ _loadSnapshot: snapshot });
    } catch {
      // a snapshot this Pyodide cannot restore
    }
    // One that the page found does not fit, or whose bytes are wrong, is dropped before anything runs in it.
    if (!(await checked)) pyodide = null;
  }
  const fromSnapshot = pyodide !== null;
  // No snapshot, or none usable: start Python the plain way (and make a snapshot for next time).
  pyodide ??= await start({ _makeSnapshot: true });
  // A restored interpreter would replay the snapshot's random state (Pyodide's start imports
  // `random`): seed it afresh, as a plain start does. (str hashes keep the snapshot's seed.)
  if (fromSnapshot) pyodide.runPython('import random\nrandom.seed()');
  post({ type: 'stage', stage: 'tracer' });
  // Unchecked here: the page checks every answer it gets (answerCheck.ts, client.ts).
  const real = await RealEngine.create(pyodide, SOURCES, { keepLoaded: fromSnapshot, checkAnswers: false });
  const version = pyodide.runPython('import sys; sys.version.split()[0]');
  // Taken before the interrupt buffer is set (a snapshot holds no JavaScript objects) and before
  // the first program runs, so that every start begins from the same clean interpreter.
  const made = fromSnapshot ? null : takeSnapshot(pyodide);
  const interruptBuffer = await initialised;
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  Reflect.deleteProperty(self, 'fetch');
  // From here on only debugged programs make promises of their own (a file load refused, a timer's
  // callback): one that rejects unhandled is the program's business, reported by Python where it
  // awaited it, never an error of the page's.
  self.addEventListener('unhandledrejection', (event) => event.preventDefault());
  const open = [
    ...closeRealm(self),
    // one function of each kind, made here: their constructors are this realm's code makers
    ...closeCodeGeneration(self, [function () {}, async function () {}, function* () {}, async function* () {}]),
  ];
  if (open.length > 0) throw new Error(`the Python worker could not close ${open.join(', ')} to debugged code`);
  // Before `ready`: the page takes a snapshot only from a worker that has not said it yet. As a
  // Blob, which crosses to the page without being copied on its way.
  if (made) post({ type: 'snapshot', bytes: new Blob([made as Uint8Array<ArrayBuffer>]) });
  post({
    type: 'ready',
    loadMs: Math.round(performance.now() - started),
    pythonVersion: typeof version === 'string' ? version : '?',
    interruptible: interruptBuffer !== null,
    fromSnapshot,
  });
  return real;
}

const engine: Promise<RealEngine> = load();
engine.catch((err: unknown) => post({ type: 'error', id: null, message: `Python could not be loaded: ${describe(err)}` }));

scope.addEventListener('message', (ev: MessageEvent<ToWorker>) => {
  // Only the owner's messages: a program that reached this realm could dispatch events of its own
  // to make this worker answer requests the page never sent.
  if (!ev.isTrusted) return;
  const msg = ev.data;
  switch (msg.type) {
    case 'boot':
      receiveBoot(msg);
      return;
    case 'file':
      void file(msg.name);
      arrived.get(msg.name)?.(msg.blob);
      return;
    case 'restore':
      receiveRestore(msg.snapshot);
      return;
    case 'checked':
      receiveChecked(msg.ok);
      return;
    case 'init':
      onInit(msg.interruptBuffer);
      return;
    case 'ask':
      void answer(msg.id, msg.question);
      return;
  }
});

async function loaded(id: number): Promise<RealEngine | null> {
  try {
    return await engine;
  } catch (err) {
    post({ type: 'error', id, message: `Python could not be loaded: ${describe(err)}` });
    return null;
  }
}

async function answer(id: number, question: EngineQuestion): Promise<void> {
  const real = await loaded(id);
  if (!real) return;
  const started = performance.now();
  try {
    const result = real.ask(question);
    post({ type: 'answered', id, kind: question.kind, answer: result, elapsedMs: Math.round(performance.now() - started) });
  } catch (err) {
    post({ type: 'error', id, message: question.kind === 'record' ? `The tracer failed: ${describe(err)}` : `The engine could not answer: ${describe(err)}` });
  }
}

// The frame hands over Pyodide's files once this is heard (a message sent before the module had
// a listener would be lost).
postToPage({ type: LISTENING });
