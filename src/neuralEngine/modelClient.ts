// The main thread's side of the model worker: typed messages in, promises out (like
// src/realEngine/browser/client.ts for Pyodide, with the same pending requests: core/requests.ts).
//
// One worker runs one model on one backend; switching the backend replaces the worker. A session
// is begun for each recording (`begin`, with an epoch); each debugger action is one `step`
// (predict, then put the real state or the prediction into the history). Answers for an older
// epoch, or from a replaced worker, are dropped.

import type { Action } from '../core/actions';
import { PendingRequests } from '../util/requests';
import { Spare } from '../util/spare';
import type { Position, Recording } from '../core/trace';
import type { ModelDtype } from './modelConfig';
import type { Accept, ModelHistory, PredictionResult } from './modelHistory';
import type { Backend, LoadErrorKind, ModelInfo } from './browserModel';

export type { Accept, Backend, ModelInfo, LoadErrorKind, PredictionResult };

export type ModelRequest =
  /** `held`: fetch everything, but build the model (CPU-heavy) only on `go`. */
  | { type: 'load'; baseUrl: string; backend: Backend | 'auto'; model: string | null; dtype: ModelDtype | null; maxNewTokens: number | null; held?: boolean }
  | { type: 'go' }
  | { type: 'begin'; id: number; epoch: number; recording: Recording; position: Position; breakpoints: number[] }
  | { type: 'step'; id: number; epoch: number; action: Action; breakpoints: number[]; accept: Accept; predict: boolean }
  | { type: 'sample'; id: number; epoch: number; position: Position; action: Action; k: number; temperature: number }
  /** The prediction from where the history stands, the history untouched. */
  | { type: 'peek'; id: number; epoch: number; action: Action; breakpoints: number[] }
  /** What-if: the program was run again with an edit at `position`; the history's newest state
   * becomes the edited real state (NeuralSession.acceptEdit). */
  | { type: 'edit'; id: number; epoch: number; recording: Recording; position: Position };

export type ModelResponse =
  | { type: 'progress'; loaded: number; total: number; file: string }
  | { type: 'loaded'; info: ModelInfo }
  | { type: 'load-error'; message: string; kind: LoadErrorKind }
  | { type: 'begun'; id: number }
  | { type: 'edited'; id: number }
  | { type: 'stepped'; id: number; prediction: PredictionResult | null }
  | { type: 'sampled'; id: number; predictions: PredictionResult[] }
  | { type: 'peeked'; id: number; prediction: PredictionResult }
  | { type: 'error'; id: number; message: string }
  | { type: 'device-lost'; message: string };

export class ModelError extends Error {
  constructor(
    message: string,
    readonly kind: LoadErrorKind | 'run' | 'superseded' | 'device-lost',
  ) {
    super(message);
  }
}

export interface ModelClientOptions {
  onProgress?: (loaded: number, total: number, file: string) => void;
  /** The GPU device was lost (or a WebGPU run failed): the owner should reload on WASM. */
  onDeviceLost?: (message: string) => void;
}

export type ModelWorkerFactory = () => Worker;

const workers = new Spare(() => new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module', name: 'model' }));

/** Creates the model worker now, for the first ModelClient to take: its script (onnxruntime's
 * loader and the tokenizer) is fetched and compiled while the page's own code loads. */
export function prestartModelWorker(): void {
  workers.prepare();
}

const defaultFactory: ModelWorkerFactory = () => workers.take();

export class ModelClient implements ModelHistory {
  private readonly worker: Worker;
  private epoch = 0;
  private readonly requests = new PendingRequests<ModelResponse>();
  private loadPromise: Promise<ModelInfo> | null = null;
  private resolveLoad!: (info: ModelInfo) => void;
  private rejectLoad!: (err: ModelError) => void;
  private disposed = false;

  constructor(
    private readonly options: ModelClientOptions = {},
    factory: ModelWorkerFactory = defaultFactory,
  ) {
    this.worker = factory();
    this.worker.onmessage = (ev: MessageEvent<ModelResponse>) => this.handle(ev.data);
    this.worker.onerror = (ev: ErrorEvent) => {
      ev.preventDefault();
      const err = new ModelError(`the model worker failed: ${ev.message || 'unknown error'}`, 'backend');
      this.rejectLoad?.(err);
      this.failAll(err);
    };
  }

  /** Loads the model (once per client); resolves with what the model panel shows. */
  load(
    baseUrl: string,
    backend: Backend | 'auto',
    model: string | null = null,
    dtype: ModelDtype | null = null,
    maxNewTokens: number | null = null,
    held = false,
  ): Promise<ModelInfo> {
    if (!this.loadPromise) {
      this.loadPromise = new Promise<ModelInfo>((resolve, reject) => {
        this.resolveLoad = resolve;
        this.rejectLoad = reject;
      });
      this.loadPromise.catch(() => undefined);
      this.post({ type: 'load', baseUrl, backend, model, dtype, maxNewTokens, held });
    }
    return this.loadPromise;
  }

  /** Lets a load made `held` build the model now. */
  release(): void {
    this.post({ type: 'go' });
  }

  /** Starts the model's history at a real state of a recording; older answers are dropped. */
  async begin(recording: Recording, position: Position, breakpoints: readonly number[]): Promise<void> {
    const epoch = ++this.epoch;
    await this.request({ type: 'begin', id: 0, epoch, recording, position, breakpoints: [...breakpoints] });
  }

  /** One debugger action: the prediction (null when `predict` is false), then `accept`. */
  async step(action: Action, breakpoints: readonly number[], accept: Accept, predict = true): Promise<PredictionResult | null> {
    const res = await this.request({ type: 'step', id: 0, epoch: this.epoch, action, breakpoints: [...breakpoints], accept, predict });
    return res.type === 'stepped' ? res.prediction : null;
  }

  /** What-if: the model goes on from the edited state at `position` of the re-run `recording`. */
  async edit(recording: Recording, position: Position): Promise<void> {
    await this.request({ type: 'edit', id: 0, epoch: this.epoch, recording, position });
  }

  /** k sampled states after `action` from the real state at `position` (the history is untouched). */
  async sample(position: Position, action: Action, k: number, temperature: number): Promise<PredictionResult[]> {
    const res = await this.request({ type: 'sample', id: 0, epoch: this.epoch, position, action, k, temperature });
    return res.type === 'sampled' ? res.predictions : [];
  }

  /** The prediction after `action` from where the history stands (the history is untouched). */
  async peek(action: Action, breakpoints: readonly number[]): Promise<PredictionResult> {
    const res = await this.request({ type: 'peek', id: 0, epoch: this.epoch, action, breakpoints: [...breakpoints] });
    if (res.type !== 'peeked') throw new ModelError('the model worker gave no prediction', 'run');
    return res.prediction;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.worker.terminate();
    const err = new ModelError('the model was unloaded', 'superseded');
    this.rejectLoad?.(err);
    this.failAll(err);
  }

  private request(msg: ModelRequest & { id: number }): Promise<ModelResponse> {
    if (this.disposed) return Promise.reject(new ModelError('the model was unloaded', 'superseded'));
    const { id, answer } = this.requests.open();
    try {
      this.post({ ...msg, id } as ModelRequest);
    } catch (err) {
      // A message the structured clone refuses never reaches the worker: fail this request
      // instead of leaving it open for ever.
      this.requests.reject(id, new ModelError(err instanceof Error ? err.message : String(err), 'run'));
    }
    return answer;
  }

  private handle(msg: ModelResponse): void {
    switch (msg.type) {
      case 'progress':
        this.options.onProgress?.(msg.loaded, msg.total, msg.file);
        return;
      case 'loaded':
        this.resolveLoad(msg.info);
        return;
      case 'load-error':
        this.rejectLoad(new ModelError(msg.message, msg.kind));
        return;
      case 'device-lost':
        this.options.onDeviceLost?.(msg.message);
        return;
      case 'error':
        this.requests.reject(msg.id, new ModelError(msg.message, msg.message.startsWith('superseded') ? 'superseded' : 'run'));
        return;
      default:
        this.requests.resolve(msg.id, msg);
    }
  }

  private failAll(err: ModelError): void {
    this.requests.rejectAll(err);
  }

  private post(msg: ModelRequest): void {
    this.worker.postMessage(msg);
  }
}
