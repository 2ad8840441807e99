// The script of the frame that hosts one Python worker (engineFrame.ts makes the frame and sends
// it what to run). It runs in the frame's realm, an opaque origin under workerPolicy.ts's
// Content-Security-Policy, as the text of `engineFrameMain` (Function.prototype.toString): so the
// function uses nothing from this module, only its own locals and the frame's globals.
//
// The frame is the worker's owner and the page's relay: it starts the worker from the engine's code
// (a Blob the page read), forwards the page's messages in order once the worker listens (Pyodide's
// files among them), keeps Python's interrupt buffer (a SharedArrayBuffer cannot leave the frame's
// agent cluster, so the page asks the frame to set it), and passes on whatever the worker posts
// without acting on it: a program that reached JavaScript may write anything there.

import type { WorkerRequest } from './workerProtocol';

export const PYODIDE_FILES = ['pyodide.mjs', 'pyodide.asm.mjs', 'pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

/** One of Pyodide's files, by its name in Pyodide's folder. */
export type PyodideFile = (typeof PYODIDE_FILES)[number];

/** Where Pyodide's files are named: nothing is fetched from there (the worker serves them). */
export interface EngineBoot {
  type: 'boot';
  indexURL: string;
}

/** One of Pyodide's files as the page read it from the app's origin, sent as soon as it is read. */
export interface EngineFile {
  type: 'file';
  name: PyodideFile;
  blob: Blob;
}

/** The interpreter an earlier start saved, if any, sent as soon as the page has read it (its check
 * follows, EngineSnapshotChecked); the worker waits for it only when it is about to start Python. */
export interface EngineRestore {
  type: 'restore';
  snapshot: Blob | null;
}

/** Whether the snapshot sent fits this engine (it is named after the engine's code) and its bytes
 * have their digest: the page checks while the worker restores, the worker waits for the answer
 * before anything runs in the restored interpreter. */
export interface EngineSnapshotChecked {
  type: 'checked';
  ok: boolean;
}

/** What the page sends on to the worker. */
export type ToWorker = WorkerRequest | EngineBoot | EngineFile | EngineRestore | EngineSnapshotChecked;

/** The page's messages to the frame, on the port it handed over. */
export type FrameRequest = { type: 'spawn'; code: Blob } | { type: 'send'; message: ToWorker } | { type: 'interrupt'; signal: 0 | 2 };

/** The frame's messages to the page: what the worker posted (unchecked), or why it failed. */
export type FrameResponse = { type: 'message'; data: unknown } | { type: 'error'; message: string };

/** What the worker posts first, when it listens (the frame's alone: never passed on). */
export const LISTENING = 'ndb-engine-listening';

export function engineFrameMain(listening: string): void {
  let port: MessagePort | null = null;
  let worker: Worker | null = null;
  /** Messages for the worker until it listens (then null). */
  let held: ToWorker[] | null = [];
  const interrupt = typeof SharedArrayBuffer === 'function' && globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;

  const tell = (msg: FrameResponse): void => port?.postMessage(msg);

  const toWorker = (msg: ToWorker): void => {
    const sent: ToWorker = msg.type === 'init' ? { type: 'init', interruptBuffer: interrupt } : msg;
    if (worker && !held) worker.postMessage(sent);
    else held?.push(sent);
  };

  const spawn = (code: Blob): void => {
    if (worker) return;
    // A classic worker that imports the engine's module: a module worker cannot start from a blob:
    // URL of an opaque origin in Chromium, a dynamic import in a classic one can.
    const engine = URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
    const starter = `import(${JSON.stringify(engine)}).catch((e) => setTimeout(() => { throw e; }));`;
    const made = new Worker(URL.createObjectURL(new Blob([starter], { type: 'text/javascript' })), { name: 'pyodide' });
    worker = made;
    made.onmessage = (ev: MessageEvent<unknown>) => {
      if (held && (ev.data as { type?: unknown } | null)?.type === listening) {
        for (const msg of held) made.postMessage(msg);
        held = null;
        return;
      }
      tell({ type: 'message', data: ev.data });
    };
    made.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      tell({ type: 'error', message: ev.message || 'the Python worker failed' });
    };
    made.onmessageerror = () => tell({ type: 'error', message: 'the Python worker sent a message that could not be read' });
  };

  const onRequest = (req: FrameRequest): void => {
    switch (req.type) {
      case 'spawn':
        spawn(req.code);
        return;
      case 'send':
        toWorker(req.message);
        return;
      case 'interrupt':
        if (interrupt) Atomics.store(interrupt, 0, req.signal);
        return;
    }
  };

  // The page that made this frame hands over a port, once; everything else goes through it.
  addEventListener('message', (ev: MessageEvent<unknown>) => {
    const given = ev.ports[0];
    if (port || ev.source !== parent || !given) return;
    port = given;
    port.onmessage = (e: MessageEvent<FrameRequest>) => onRequest(e.data);
  });
}
