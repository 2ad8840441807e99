// The model of the app: which backend and model the page asks for (its query), loading it in its
// worker (src/neuralEngine/modelClient.ts), progress and failure in words, the WebGPU question, and
// switching backend (a fresh worker). Whoever follows the debugger with the model
// (modelFollower.svelte.ts) takes `client` once it is ready.

import type { ModelDtype } from '../neuralEngine/modelConfig';
import { ModelClient, type Backend, type ModelInfo } from '../neuralEngine/modelClient';
import type { NeuralEnvironment } from './neuralEnvironment';
import { modelTurnedOff } from './modelQuery';

/** The URL's query picks the backend, the model, the dtype and a cap on the tokens of a state
 * (`?backend=wasm|webgpu&model=NAME&dtype=fp32&max-new-tokens=N`: that cap and no time limit in
 * place of the class's, browserModel.ts CLASS_LIMITS; `?model=none` turns the model off).
 * Shareable, and the tests' hooks. */
export function queryOptions(query: string): { backend: Backend | 'auto'; model: string | null; dtype: ModelDtype | null; off: boolean; maxNewTokens: number | null } {
  const q = new URLSearchParams(query);
  const b = q.get('backend');
  const d = q.get('dtype');
  const cap = Number(q.get('max-new-tokens'));
  return {
    maxNewTokens: Number.isInteger(cap) && cap > 0 ? cap : null,
    backend: b === 'wasm' || b === 'webgpu' ? b : 'auto',
    model: q.get('model'),
    dtype: d === 'fp32' || d === 'int8' || d === 'q4' || d === 'q8' || d === 'fp16' ? d : null,
    off: modelTurnedOff(query),
  };
}

export type ModelStatus = 'loading' | 'ready' | 'failed' | 'off';

export class ModelLoader {
  status = $state<ModelStatus>('loading');
  progress = $state<{ loaded: number; total: number; file: string } | null>(null);
  error = $state<string | null>(null);
  info = $state.raw<ModelInfo | null>(null);
  note = $state<string | null>(null);
  backend = $state<Backend>('wasm');
  webgpuAvailable = $state(false);
  /** Why the GPU cannot be used, in words (null while unknown or when it can). */
  webgpuReason = $state<string | null>(null);

  /** The loaded model's client (null while none is ready). */
  client = $state.raw<ModelClient | null>(null);
  /** Told when a model is ready (a new one after a backend switch too), and when one goes. */
  onChange: (() => void) | null = null;

  readonly options: ReturnType<typeof queryOptions>;
  private loading: ModelClient | null = null;
  /** What the first load waits for before it builds the model (see start). */
  private firstGate: Promise<unknown> | null = null;
  private generation = 0;

  constructor(private readonly env: NeuralEnvironment) {
    this.options = queryOptions(env.query);
  }

  /** Starts loading the model; the real engine does not wait for it. With `first`, the model's
   * files download at once but the model is built only once `first` settles (Python ready): on a
   * cold start the two would share the same cores. */
  async start(first?: Promise<unknown>): Promise<void> {
    this.firstGate = first ?? null;
    if (this.options.off) {
      this.status = 'off';
      this.error = 'The model is turned off (?model=none): real-only mode.';
      return;
    }
    const adapter = this.queryWebGpu();
    // A backend named in the URL loads at once; the GPU is asked about meanwhile (for the select).
    if (this.options.backend !== 'auto') {
      await Promise.all([adapter, this.load(this.options.backend)]);
      return;
    }
    await adapter;
    await this.load(this.webgpuAvailable ? 'webgpu' : 'wasm');
  }

  /** The "Backend" select: a fresh worker on the other backend. */
  async setBackend(backend: Backend): Promise<void> {
    if (backend === this.backend && this.status !== 'failed') return;
    await this.load(backend);
  }

  private async queryWebGpu(): Promise<void> {
    try {
      this.webgpuAvailable = Boolean(await this.env.requestAdapter());
    } catch {
      this.webgpuAvailable = false;
    }
    if (!this.webgpuAvailable) {
      this.webgpuReason =
        this.env.hasWebGpu === false
          ? 'this browser does not offer WebGPU'
          : 'the browser offered no GPU adapter (no usable GPU, or WebGPU is turned off)';
    }
  }

  private async load(backend: Backend): Promise<void> {
    const gen = ++this.generation;
    this.loading?.dispose();
    this.backend = backend;
    this.status = 'loading';
    this.error = null;
    this.note = null;
    this.info = null;
    this.progress = null;
    this.client = null;
    this.onChange?.();
    const client = new ModelClient(
      {
        onProgress: (loaded, total, file) => {
          if (gen === this.generation) this.progress = { loaded, total, file };
        },
        onDeviceLost: (message) => {
          if (gen !== this.generation) return;
          this.note = `The GPU device was lost (${message}): switched to WASM.`;
          void this.load('wasm').then(() => {
            if (gen + 1 === this.generation) this.note = `The GPU device was lost (${message}): switched to WASM.`;
          });
        },
      },
      this.env.modelWorker,
    );
    this.loading = client;
    try {
      const gate = this.firstGate;
      this.firstGate = null;
      if (gate) void gate.finally(() => client.release());
      const info = await client.load(this.env.baseUrl, backend, this.options.model, this.options.dtype, this.options.maxNewTokens, gate !== null);
      if (gen !== this.generation) return;
      this.info = info;
      this.backend = info.backend;
      this.note = info.note ?? null;
      this.status = 'ready';
      this.progress = null;
      this.client = client;
      if (performance.getEntriesByName('ndb:model-ready').length === 0) performance.mark('ndb:model-ready');
      this.onChange?.();
    } catch (err) {
      if (gen !== this.generation) return;
      this.status = 'failed';
      this.progress = null;
      const message = err instanceof Error ? err.message : String(err);
      this.error = `The model could not be loaded: ${message}. The real engine works as before (real-only mode).`;
    }
  }
}
