// The Python worker, kept out of the app's origin: each worker lives in a frame of its own, an
// `<iframe sandbox="allow-scripts">` whose document is an `srcdoc` (no network needed, offline
// too) with an opaque origin and a Content-Security-Policy that allows no request at all
// (workerPolicy.ts). The worker, made by the frame from a blob: URL, inherits both. So the realm a
// debugged program may reach, if it gets past Python's layer, has no storage of the app's origin
// (the browser refuses every storage API to an opaque origin: Cache Storage, IndexedDB, OPFS,
// storage buckets, locks, cookies, and whatever comes next), and cannot send a request of any
// kind. That holds as a whole, not name by name; the worker's own lockdown (workerLockdown.ts)
// stays as a second layer.
//
// The page does what the frame cannot: it reads the engine's code and Pyodide's files from the
// app's origin (through the service worker, so offline too; in a worker of its own, so that the
// bodies do not wait for the page's busy main thread) as Blobs, which cross to the frame without
// being copied, and it keeps the memory snapshot of a started interpreter in the Cache API. A
// snapshot is made by a worker before any program runs in it, and the page accepts one from a
// worker only before that worker said `ready`: anything a program could post comes later.

import engineUrl from './pyodide.worker.ts?worker&url';
import type { EngineWorker, WorkerRequest, WorkerResponse } from './workerProtocol';
import type { FileReaderRequest, FileReaderResponse } from './fileReader.worker';
import { engineFrameMain, LISTENING, PYODIDE_FILES, type FrameRequest, type FrameResponse, type PyodideFile } from './engineFrameScript';
import { engineFramePolicy } from './workerPolicy';

/** What the frame's worker posts to the page: the client's answers, and a snapshot before `ready`. */
type EngineMessage = WorkerResponse | { type: 'snapshot'; bytes: Blob };

const RESPONSE_TYPES = new Set<string>(['stage', 'ready', 'answered', 'error']);

/** The Cache API cache of the snapshot, which holds one entry, named after the engine it fits. */
const SNAPSHOT_CACHE = 'ndb-pyodide-snapshot';
/** The header that carries a stored snapshot's SHA-256 digest (hex). */
const DIGEST_HEADER = 'X-Ndb-Sha256';

interface Snapshot {
  url: string;
  bytes: Blob;
  /** Whether its bytes have the digest stored with them. */
  checked: Promise<boolean>;
}

function toHex(digest: ArrayBuffer): string {
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256Hex(data: BufferSource): Promise<string> {
  return toHex(await crypto.subtle.digest('SHA-256', data));
}

/** Read once per page; a failed read (offline before the first visit finished) is tried again. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | null = null;
  return () => {
    kept ??= load().catch((err: unknown) => {
      kept = null;
      throw err;
    });
    return kept;
  };
}

async function read(url: string): Promise<Blob> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${new URL(url, location.href).pathname}: HTTP ${res.status}`);
  return res.blob();
}

/** Pyodide's folder, as an absolute URL. */
function pyodideIndexURL(): string {
  return new URL(`${import.meta.env.BASE_URL}pyodide/`, location.href).href;
}

/** The engine's own code: the worker's bundle once built; in the dev server, the same bundle made
 * on request (vite.config.ts), since a blob: worker cannot import the dev server's modules. */
function engineCodeUrl(): string {
  return new URL(import.meta.env.DEV ? `${import.meta.env.BASE_URL}@ndb/python-engine.js` : engineUrl, location.href).href;
}

/** Reads `urls` in a worker of its own (fileReader.worker.ts), where the bodies do not wait for the
 * page's main thread: a Blob for each URL, each as soon as it is read. */
function readAll(urls: string[]): Promise<Blob>[] {
  const settle = urls.map(() => {
    let resolve!: (blob: Blob) => void;
    let reject!: (err: Error) => void;
    const blob = new Promise<Blob>((res, rej) => ((resolve = res), (reject = rej)));
    return { blob, resolve, reject };
  });
  let left = urls.length;
  const reader = new Worker(new URL('./fileReader.worker.ts', import.meta.url), { type: 'module', name: 'files' });
  reader.onmessage = (ev: MessageEvent<FileReaderResponse>) => {
    const answer = ev.data;
    if ('blob' in answer) settle[answer.index]?.resolve(answer.blob);
    else settle[answer.index]?.reject(new Error(answer.error));
    if (--left === 0) reader.terminate();
  };
  reader.onerror = (ev) => {
    ev.preventDefault();
    reader.terminate();
    // The reader itself could not start: read here instead.
    urls.forEach((url, i) => read(url).then(settle[i]!.resolve, settle[i]!.reject));
  };
  reader.postMessage(urls satisfies FileReaderRequest);
  return settle.map((s) => s.blob);
}

interface EngineFiles {
  code: Promise<Blob>;
  files: Record<PyodideFile, Promise<Blob>>;
}

let engineFilesRead: EngineFiles | null = null;

/** The engine's code and Pyodide's files, read once per page (again after a failed read: offline
 * before the first visit finished). */
function engineFiles(): EngineFiles {
  if (engineFilesRead) return engineFilesRead;
  const [code, ...blobs] = readAll([engineCodeUrl(), ...PYODIDE_FILES.map((name) => `${pyodideIndexURL()}${name}`)]);
  const read: EngineFiles = { code: code!, files: Object.fromEntries(PYODIDE_FILES.map((name, i) => [name, blobs[i]!])) as EngineFiles['files'] };
  engineFilesRead = read;
  Promise.all([code, ...blobs]).catch(() => {
    if (engineFilesRead === read) engineFilesRead = null;
  });
  return read;
}

/** Where the snapshot that fits this engine is stored: named after the digest of the engine's code
 * (the tracer and the sandbox are in it) and of Pyodide's loader (its version). Null where there is
 * no Cache API or no crypto.subtle (an insecure context, e.g. an embed in a plain-HTTP page). */
const snapshotUrl = once(async (): Promise<string | null> => {
  if (typeof caches === 'undefined' || !globalThis.crypto?.subtle) return null;
  const { code, files } = engineFiles();
  const texts = await Promise.all([code.then((b) => b.text()), files['pyodide.mjs'].then((b) => b.text())]);
  const named = new TextEncoder().encode(texts.join('\0'));
  return `${pyodideIndexURL()}ndb-snapshot-${(await sha256Hex(named)).slice(0, 16)}.bin`;
});

async function snapshotCache(): Promise<Cache | null> {
  try {
    return typeof caches === 'undefined' ? null : await caches.open(SNAPSHOT_CACHE);
  } catch {
    return null; // storage blocked: every start is a plain one
  }
}

/** The stored snapshot, whichever engine it fits (the caller compares its URL). Its digest is
 * checked here, not in the worker: an opaque origin has no crypto.subtle. */
async function readSnapshot(): Promise<Snapshot | null> {
  try {
    const cache = await snapshotCache();
    const [request] = (await cache?.keys()) ?? [];
    const hit = request ? await cache?.match(request) : undefined;
    const sha256 = hit?.headers.get(DIGEST_HEADER);
    if (!cache || !request || !hit || !sha256) return null;
    const bytes = await hit.blob();
    const checked = bytes
      .arrayBuffer()
      .then(sha256Hex)
      .then((digest) => digest === sha256)
      .catch(() => false)
      .then(async (ok) => {
        if (!ok) await cache.delete(request).catch(() => false);
        return ok;
      });
    return { url: request.url, bytes, checked };
  } catch {
    return null;
  }
}

let snapshot: Promise<Snapshot | null> | null = null;

function storedSnapshot(): Promise<Snapshot | null> {
  snapshot ??= readSnapshot();
  return snapshot;
}

/** Whether the stored snapshot fits the engine whose snapshots are stored at `url` (null: none is
 * kept) and its bytes are right. */
async function snapshotFits(stored: Snapshot, url: Promise<string | null>): Promise<boolean> {
  const [at, ok] = await Promise.all([url, stored.checked]);
  return at === stored.url && ok;
}

/** Keeps a snapshot for the next start, in place of any older one. */
async function storeSnapshot(url: string, bytes: Blob): Promise<void> {
  snapshot = Promise.resolve({ url, bytes, checked: Promise.resolve(true) });
  try {
    const sha256 = await sha256Hex(await bytes.arrayBuffer());
    const cache = await snapshotCache();
    if (!cache) return;
    for (const old of await cache.keys()) if (old.url !== url) await cache.delete(old);
    await cache.put(url, new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream', [DIGEST_HEADER]: sha256 } }));
  } catch {
    // no room: the next page starts Python the plain way
  }
}

let frameDocument: string | null = null;

/** The frame's document: its policy, and its script, allowed by a nonce made for this page. */
function engineFrameDocument(): string {
  if (frameDocument) return frameDocument;
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
  const script = `(${engineFrameMain.toString()})(${JSON.stringify(LISTENING)});`;
  frameDocument = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${engineFramePolicy(nonce)}"><script nonce="${nonce}">${script}</script>`;
  return frameDocument;
}

/** One Python worker in its own sandboxed frame, seen by the client as a worker. */
export class FramedEngineWorker implements EngineWorker {
  onmessage: ((ev: MessageEvent<WorkerResponse>) => void) | null = null;
  /** Python's interrupt buffer is the frame's: the page asks it to set the signal. */
  readonly interrupt: ((signal: 0 | 2) => void) | null;

  private readonly frame: HTMLIFrameElement;
  private readonly port: MessagePort;
  /** Requests made before the frame was given the worker to start. */
  private held: FrameRequest[] | null = [];
  private terminated = false;
  /** The worker said `ready`, or was sent a program: no snapshot from it is taken after that. */
  private trusted = true;
  /** Where a snapshot this worker makes is stored (null: nowhere), once the engine's name for it is known. */
  private storeAt: Promise<string | null> = Promise.resolve(null);
  private errorListener: ((ev: ErrorEvent) => void) | null = null;
  /** Settles once the frame was told to start the worker, or the start failed or was given up. */
  readonly started: Promise<void>;
  private markStarted!: () => void;
  /** A failure that came before anyone listened (a worker started ahead, src/ui/prestart.ts). */
  private failure: string | null = null;

  get onerror(): ((ev: ErrorEvent) => void) | null {
    return this.errorListener;
  }

  set onerror(listener: ((ev: ErrorEvent) => void) | null) {
    this.errorListener = listener;
    const failure = this.failure;
    if (listener && failure !== null) queueMicrotask(() => this.fail(failure));
  }

  constructor() {
    this.started = new Promise<void>((resolve) => (this.markStarted = resolve));
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (ev: MessageEvent<FrameResponse>) => this.fromFrame(ev.data);
    this.interrupt = globalThis.crossOriginIsolated ? (signal) => this.send({ type: 'interrupt', signal }) : null;
    const frame = document.createElement('iframe');
    this.frame = frame;
    frame.setAttribute('sandbox', 'allow-scripts');
    // Lets the frame be cross-origin isolated like the page (SharedArrayBuffer for the interrupt).
    frame.setAttribute('allow', 'cross-origin-isolated');
    frame.setAttribute('aria-hidden', 'true');
    frame.tabIndex = -1;
    frame.title = 'Python engine';
    frame.style.display = 'none';
    void this.open(frame, channel.port2);
  }

  /** Each step as soon as what it needs is there: the frame loads while the files are read, the
   * worker starts with the engine's code and gets Pyodide's files one by one, then the snapshot. */
  private async open(frame: HTMLIFrameElement, port: MessagePort): Promise<void> {
    try {
      const { code, files } = engineFiles();
      void storedSnapshot();
      const loaded = new Promise<void>((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
      frame.srcdoc = engineFrameDocument();
      if (this.terminated) return;
      (document.body ?? document.documentElement).append(frame);
      const [engine] = await Promise.all([code, loaded]);
      if (this.terminated) return;
      frame.contentWindow?.postMessage({ type: 'connect' }, '*', [port]);
      const held = this.held ?? [];
      this.held = null;
      this.port.postMessage({ type: 'spawn', code: engine } satisfies FrameRequest);
      this.markStarted();
      for (const req of held) this.port.postMessage(req);
      this.send({ type: 'send', message: { type: 'boot', indexURL: pyodideIndexURL() } });
      for (const name of PYODIDE_FILES) void files[name].then((blob) => this.send({ type: 'send', message: { type: 'file', name, blob } }), () => undefined);
      Promise.all(Object.values(files)).catch((err: unknown) => this.fail(`Python could not be loaded: ${err instanceof Error ? err.message : String(err)}`));
      // A stored snapshot goes to the worker as soon as it is read, and the worker restores it while
      // it is checked here (does it fit this engine, are its bytes right); without one, the worker
      // starts Python the plain way and sends a new snapshot, stored under the engine's name.
      const url = snapshotUrl().catch(() => null);
      this.storeAt = url;
      const stored = await storedSnapshot();
      this.send({ type: 'send', message: { type: 'restore', snapshot: stored?.bytes ?? null } });
      if (stored) this.send({ type: 'send', message: { type: 'checked', ok: await snapshotFits(stored, url) } });
    } catch (err) {
      this.fail(`Python could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.markStarted();
    }
  }

  postMessage(message: WorkerRequest): void {
    if (message.type === 'ask') this.trusted = false;
    this.send({ type: 'send', message });
  }

  terminate(): void {
    this.terminated = true;
    this.held = null;
    this.port.close();
    // The frame's document goes, and the worker with it.
    this.frame.remove();
  }

  private send(req: FrameRequest): void {
    if (this.terminated) return;
    if (this.held) this.held.push(req);
    else this.port.postMessage(req);
  }

  private fromFrame(msg: FrameResponse): void {
    if (this.terminated) return;
    if (msg.type === 'error') return this.fail(msg.message);
    const data = msg.data as EngineMessage | null;
    const type = typeof data === 'object' && data !== null ? data.type : null;
    if (type === 'snapshot') {
      const bytes = (data as { bytes?: unknown }).bytes;
      if (this.trusted && bytes instanceof Blob) void this.storeAt.then((url) => (url ? storeSnapshot(url, bytes) : undefined));
      this.storeAt = Promise.resolve(null);
      return;
    }
    if (type === null || !RESPONSE_TYPES.has(type)) return;
    if (type === 'ready') this.trusted = false;
    this.onmessage?.(new MessageEvent('message', { data: data as WorkerResponse }));
  }

  private fail(message: string): void {
    if (this.terminated) return;
    this.failure = message;
    this.errorListener?.(new ErrorEvent('error', { message, cancelable: true }));
  }
}
