// The neural engine in the browser: the model in a module worker (protocol in ./modelClient.ts).
//
// Requests run one at a time, in order (the KV cache and the history are one sequence). A `step`
// whose prediction nobody will see any more is not predicted: a newer `begin` (epoch) makes it
// stale, and in Compare use a later step already queued makes it superseded (its real state still
// enters the history, so the cache stays in step).

import type { Position, Recording } from '../core/trace';
import { loadBrowserModel, ModelLoadError, type BrowserModel } from './browserModel';
import type { ModelRequest, ModelResponse, PredictionResult } from './modelClient';
import { NeuralSession, type Prediction } from './neuralSession';

interface WorkerScope {
  postMessage(message: ModelResponse): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<ModelRequest>) => void): void;
}

const scope = self as unknown as WorkerScope;
const post = (msg: ModelResponse): void => scope.postMessage(msg);
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

let model: Promise<BrowserModel> | null = null;
let recording: Recording | null = null;
let session: NeuralSession | null = null;
let latestEpoch = 0;
let lost = false;
const queue: ModelRequest[] = [];
let running = false;

function result(p: Prediction): PredictionResult {
  return {
    action: p.action,
    text: p.text,
    state: p.state,
    newTokens: p.newTokens,
    prefillTokens: p.prefillTokens,
    promptTokens: p.promptTokens,
    ms: p.ms,
    decodeMs: p.decodeMs,
    decodeSteps: p.decodeSteps,
    stoppedBy: p.stoppedBy,
    ...(p.confidence ? { confidence: p.confidence } : {}),
  };
}

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
  switch (msg.type) {
    case 'begin': {
      if (msg.epoch < latestEpoch) throw new Error('superseded by a newer recording');
      recording = msg.recording;
      session = startSession(m, msg.recording, msg.position, msg.breakpoints);
      post({ type: 'begun', id: msg.id });
      return;
    }
    case 'step': {
      if (msg.epoch < latestEpoch) throw new Error('superseded by a newer recording');
      if (!session || !recording) throw new Error('no recording to predict from');
      session.setBreakpoints(msg.breakpoints);
      const later = queue.some((q) => q.type === 'begin' || (q.type === 'step' && q.epoch === msg.epoch));
      const predict = msg.predict && !(msg.accept.kind === 'real' && later);
      let prediction: Prediction | null = null;
      if (predict || msg.accept.kind === 'predicted') prediction = await guarded(m, () => session!.predict(msg.action));
      if (msg.accept.kind === 'real') session.acceptReal(msg.action, msg.accept.position);
      else if (prediction) session.acceptPredicted(prediction);
      post({ type: 'stepped', id: msg.id, prediction: prediction ? result(prediction) : null });
      return;
    }
    case 'edit': {
      if (msg.epoch < latestEpoch) throw new Error('superseded by a newer recording');
      if (!session) throw new Error('no recording to predict from');
      recording = msg.recording;
      session.acceptEdit(msg.recording, msg.position);
      post({ type: 'edited', id: msg.id });
      return;
    }
    case 'sample': {
      if (!recording) throw new Error('no recording to predict from');
      const from = startSession(m, recording, msg.position, []);
      const out: PredictionResult[] = [];
      for (let i = 0; i < msg.k; i++) out.push(result(await guarded(m, () => from.predict(msg.action, { temperature: msg.temperature }))));
      post({ type: 'sampled', id: msg.id, predictions: out });
      return;
    }
  }
}

function startSession(m: BrowserModel, rec: Recording, position: Position, breakpoints: number[]): NeuralSession {
  return new NeuralSession(m.predictor, rec, position, breakpoints);
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
