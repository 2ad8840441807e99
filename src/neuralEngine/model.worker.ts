// The neural engine in the browser: the model in a module worker (protocol in ./modelClient.ts).
//
// Requests run one at a time, in order (the KV cache and the history are one sequence). A `step`
// whose prediction nobody will see any more is not predicted: a newer `begin` (epoch) makes it
// stale, and in Compare use a later step already queued makes it superseded (its real state still
// enters the history, so the cache stays in step).

import { loadBrowserModel, ModelLoadError, type BrowserModel } from './browserModel';
import type { ModelRequest, ModelResponse } from './modelClient';
import { LocalModelHistory } from './modelHistory';

interface WorkerScope {
  postMessage(message: ModelResponse): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<ModelRequest>) => void): void;
}

const scope = self as unknown as WorkerScope;
const post = (msg: ModelResponse): void => scope.postMessage(msg);
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

let model: Promise<BrowserModel> | null = null;
/** The history of the current recording (modelHistory.ts: the same steps as the Node faces'). */
let history: LocalModelHistory | null = null;
let latestEpoch = 0;
let lost = false;
const queue: ModelRequest[] = [];
let running = false;

/** Opens the gate a held load waits at before it builds the model. */
let go: () => void = () => undefined;
const released = new Promise<void>((resolve) => (go = resolve));

scope.addEventListener('message', (ev: MessageEvent<ModelRequest>) => {
  const msg = ev.data;
  if (msg.type === 'go') {
    go();
    return;
  }
  if (msg.type === 'load') {
    if (model) return;
    if (!msg.held) go();
    model = loadBrowserModel({
      gate: released,
      baseUrl: msg.baseUrl,
      backend: msg.backend,
      model: msg.model,
      dtype: msg.dtype,
      maxNewTokens: msg.maxNewTokens,
      onProgress: (loaded, total, file) => post({ type: 'progress', loaded, total, file }),
    });
    model.then(
      (m) => {
        post({ type: 'loaded', info: m.info });
        void m.deviceLost.then((message) => {
          lost = true;
          post({ type: 'device-lost', message });
        });
      },
      (err: unknown) => post({ type: 'load-error', message: describe(err), kind: err instanceof ModelLoadError ? err.kind : 'corrupt' }),
    );
    return;
  }
  if (msg.type === 'begin') latestEpoch = Math.max(latestEpoch, msg.epoch);
  queue.push(msg);
  void drain();
});

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  try {
    while (queue.length > 0) {
      const msg = queue.shift()!;
      try {
        await handle(msg);
      } catch (err) {
        if ('id' in msg) post({ type: 'error', id: msg.id, message: describe(err) });
      }
    }
  } finally {
    running = false;
  }
}

async function handle(msg: ModelRequest): Promise<void> {
  if (msg.type === 'load' || msg.type === 'go') return;
  if (!model) throw new Error('the model was not loaded');
  const m = await model;
  if (lost) throw new Error('the GPU device was lost');
  if ('epoch' in msg && msg.type !== 'sample' && msg.epoch < latestEpoch) throw new Error('superseded by a newer recording');
  switch (msg.type) {
    case 'begin': {
      history = new LocalModelHistory(m.predictor);
      await history.begin(msg.recording, msg.position, msg.breakpoints);
      post({ type: 'begun', id: msg.id });
      return;
    }
    case 'step': {
      const h = current();
      // A prediction nobody will see (a newer step of this recording or a new recording is
      // queued) is not made; the real state still enters the history.
      const later = queue.some((q) => q.type === 'begin' || (q.type === 'step' && q.epoch === msg.epoch));
      const predict = msg.predict && !(msg.accept.kind === 'real' && later);
      const prediction = await guarded(m, () => h.step(msg.action, msg.breakpoints, msg.accept, predict));
      post({ type: 'stepped', id: msg.id, prediction });
      return;
    }
    case 'edit': {
      await current().edit(msg.recording, msg.position);
      post({ type: 'edited', id: msg.id });
      return;
    }
    case 'peek': {
      const h = current();
      post({ type: 'peeked', id: msg.id, prediction: await guarded(m, () => h.peek(msg.action, msg.breakpoints)) });
      return;
    }
    case 'sample': {
      const h = current();
      post({ type: 'sampled', id: msg.id, predictions: await guarded(m, () => h.sample(msg.position, msg.action, msg.k, msg.temperature)) });
      return;
    }
  }
}

function current(): LocalModelHistory {
  if (!history) throw new Error('no recording to predict from');
  return history;
}

/** A run that fails on WebGPU is reported as a lost device: the app goes on with WASM. */
async function guarded<T>(m: BrowserModel, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (m.info.backend === 'webgpu' && !lost) {
      lost = true;
      post({ type: 'device-lost', message: `a WebGPU run failed: ${describe(err)}` });
    }
    throw err;
  }
}
