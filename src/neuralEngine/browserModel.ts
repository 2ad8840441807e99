// Loads the shipped model in the browser (inside the model worker): index.json names the default
// model, its files come through a versioned Cache API cache (downloaded once, with progress),
// onnxruntime-web is imported at run time from the app's own /ort/ folder (WASM or WebGPU build),
// the tokenizer is transformers.js's, built from the cached tokenizer files.

import { PreTrainedTokenizer } from '@huggingface/transformers';
import type * as OrtModule from 'onnxruntime-web';
import { CausalLM, type TensorFactory } from './causalLm';
import { wrapTokenizer } from './hfTokenizer';
import { calibrationOf, decoderShape, onnxFileName, type HfConfig, type ModelDtype } from './modelConfig';
import { StatePredictor } from './predictor';

export type Backend = 'webgpu' | 'wasm';

/** The versioned cache of the models: named at build time after the default model and a hash of its
 * files (vite.config.ts), so a new or retrained model gets a fresh cache; older `ndb-models-*`
 * caches are deleted on load (and by the service worker when a new version takes over). The
 * service worker fills the same cache for offline use, so the model is stored once. */
export const MODEL_CACHE = typeof __NDB_MODEL_CACHE__ === 'string' ? __NDB_MODEL_CACHE__ : 'ndb-models-v1';

/** The dtype verified correct on each backend (every dtype is tested on every backend against fp32: docs/architecture.md#toolchain-facts). */
export const BACKEND_DTYPE: Record<Backend, ModelDtype> = { wasm: 'int8', webgpu: 'q4' };

export interface ModelIndex {
  default: string;
  models: string[];
  /** Optional per-backend dtype overrides, e.g. {"webgpu": "fp32"}. */
  dtypes?: Partial<Record<Backend, ModelDtype>>;
}

export interface ModelInfo {
  name: string;
  parameters: number;
  /** Bytes of the ONNX file in use. */
  bytes: number;
  backend: Backend;
  dtype: ModelDtype;
  loadMs: number;
  threads: number;
  /** The ONNX file came from the cache (no download). */
  cached: boolean;
  /** Its confidences are calibrated (config.json's ndb_calibration), not its raw probabilities. */
  calibrated: boolean;
  /** Why the backend or dtype differs from the one asked for, if it does. */
  note?: string;
}

export type LoadErrorKind = 'missing' | 'corrupt' | 'backend' | 'network';

export class ModelLoadError extends Error {
  constructor(
    message: string,
    readonly kind: LoadErrorKind,
  ) {
    super(message);
  }
}

export interface LoadOptions {
  /** The app's base URL, absolute (e.g. http://host/ndb/). */
  baseUrl: string;
  backend: Backend | 'auto';
  /** A model folder under /models/; default: index.json's `default`. */
  model?: string | null;
  dtype?: ModelDtype | null;
  /** Cap on the tokens of one predicted state, with no time limit (a test's hook, the URL's
   * `max-new-tokens`); absent: CLASS_LIMITS. */
  maxNewTokens?: number | null;
  onProgress?: (loaded: number, total: number, file: string) => void;
  /** Awaited after every file is fetched and before the model is built (the CPU-heavy part), so
   * that the page can give the first seconds of a cold start to Python. */
  gate?: Promise<void>;
}

/** What the app asks of a state, so that a class never waits long for one (issue 46): at most
 * this many tokens (the teaching programs' states take 16 at the median and 121 at most in the
 * format's golden fixtures) and this many milliseconds after the prompt is read; past either the
 * decoder ends the state (the panel says it was cut). The CLI and the evaluations keep the
 * predictor's own cap (384 tokens) and no time limit. */
export const CLASS_LIMITS = { maxNewTokens: 192, maxMs: 3_000 } as const;

export interface BrowserModel {
  info: ModelInfo;
  predictor: StatePredictor;
  /** Resolves with a message when the GPU device is lost (never for WASM). */
  deviceLost: Promise<string>;
}

/** Parameters of a Llama-style decoder from its config (embeddings tied unless said otherwise). */
export function parameterCount(c: HfConfig & { intermediate_size?: number; tie_word_embeddings?: boolean }): number {
  const h = c.hidden_size;
  const heads = c.num_attention_heads;
  const kv = c.num_key_value_heads ?? heads;
  const hd = c.head_dim ?? h / heads;
  const inter = c.intermediate_size ?? 4 * h;
  const layer = h * heads * hd * 2 + h * kv * hd * 2 + 3 * h * inter + 2 * h;
  return c.vocab_size * h * (c.tie_word_embeddings === false ? 2 : 1) + c.num_hidden_layers * layer + h;
}

async function openCache(): Promise<Cache | null> {
  if (typeof caches === 'undefined') return null;
  try {
    for (const name of await caches.keys()) if (name.startsWith('ndb-models-') && name !== MODEL_CACHE) await caches.delete(name);
    return await caches.open(MODEL_CACHE);
  } catch {
    return null; // e.g. an opaque origin: load without a cache
  }
}

/** A file of the app, from the cache when there, else downloaded (with progress) and cached. */
async function cachedBytes(
  cache: Cache | null,
  url: string,
  onProgress?: (loaded: number, total: number) => void,
): Promise<{ bytes: Uint8Array; cached: boolean }> {
  const hit = await cache?.match(url);
  if (hit) {
    const bytes = new Uint8Array(await hit.arrayBuffer());
    onProgress?.(bytes.length, bytes.length);
    return { bytes, cached: true };
  }
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw new ModelLoadError(`could not download ${url}: ${err instanceof Error ? err.message : String(err)}`, 'network');
  }
  if (res.status === 404) throw new ModelLoadError(`${new URL(url).pathname} was not found (404)`, 'missing');
  if (!res.ok) throw new ModelLoadError(`${new URL(url).pathname}: HTTP ${res.status}`, 'network');
  const total = Number(res.headers.get('Content-Length') ?? 0);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body?.getReader();
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      onProgress?.(loaded, Math.max(total, loaded));
    }
  } else {
    chunks.push(new Uint8Array(await res.arrayBuffer()));
    loaded = chunks[0]!.length;
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  onProgress?.(loaded, loaded);
  await cache?.put(url, new Response(bytes, { headers: { 'Content-Type': res.headers.get('Content-Type') ?? 'application/octet-stream' } })).catch(() => undefined);
  return { bytes, cached: false };
}

function parseJson<T>(bytes: Uint8Array, what: string): T {
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as T;
  } catch {
    throw new ModelLoadError(`${what} is not valid JSON`, 'corrupt');
  }
}

/** The model index, network first (a new default shows up at once), the cached copy offline. */
async function readIndex(cache: Cache | null, url: string): Promise<ModelIndex> {
  try {
    const res = await fetch(url, { cache: 'no-cache' });
    if (res.status === 404) throw new ModelLoadError('no model is shipped (models/index.json is missing)', 'missing');
    if (!res.ok) throw new ModelLoadError(`models/index.json: HTTP ${res.status}`, 'network');
    const bytes = new Uint8Array(await res.arrayBuffer());
    await cache?.put(url, new Response(bytes)).catch(() => undefined);
    return parseJson<ModelIndex>(bytes, 'models/index.json');
  } catch (err) {
    const hit = await cache?.match(url);
    if (hit && !(err instanceof ModelLoadError && err.kind !== 'network')) return parseJson<ModelIndex>(new Uint8Array(await hit.arrayBuffer()), 'models/index.json');
    throw err;
  }
}

/** WebGPU when the browser gives an adapter, else WASM. */
export async function pickBackend(wanted: Backend | 'auto'): Promise<{ backend: Backend; note?: string }> {
  if (wanted === 'wasm') return { backend: 'wasm' };
  const gpu = (globalThis.navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  let adapter: unknown = null;
  try {
    adapter = gpu ? await gpu.requestAdapter() : null;
  } catch {
    adapter = null;
  }
  if (adapter) return { backend: 'webgpu' };
  return { backend: 'wasm', note: wanted === 'webgpu' ? 'WebGPU has no adapter in this browser: using WASM' : undefined };
}

/** Threads for the WASM backend: half the cores (at most 4), 1 without cross-origin isolation. */
export function wasmThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  const cores = globalThis.navigator?.hardwareConcurrency ?? 1;
  return Math.max(1, Math.min(4, Math.floor(cores / 2)));
}

type Ort = typeof OrtModule;

async function importOrt(baseUrl: string, backend: Backend): Promise<Ort> {
  const folder = new URL('ort/', baseUrl).href;
  const file = backend === 'webgpu' ? 'ort.webgpu.min.mjs' : 'ort.wasm.min.mjs';
  const mod = (await import(/* @vite-ignore */ `${folder}${file}`)) as Ort & { default?: Ort };
  const ort = (mod.InferenceSession ? mod : mod.default) as Ort;
  ort.env.wasm.wasmPaths = folder;
  ort.env.wasm.numThreads = backend === 'wasm' ? wasmThreads() : 1;
  ort.env.logLevel = 'error';
  return ort;
}

export async function loadBrowserModel(options: LoadOptions): Promise<BrowserModel> {
  const started = performance.now();
  const cache = await openCache();
  const modelsUrl = new URL('models/', options.baseUrl).href;
  const index = await readIndex(cache, `${modelsUrl}index.json`);
  const name = options.model || index.default;
  if (!name || /[/\\]|\.\./.test(name)) throw new ModelLoadError(`'${name}' is not a model name`, 'missing');
  const folder = `${modelsUrl}${encodeURIComponent(name)}/`;

  const missing = (err: unknown): never => {
    if (err instanceof ModelLoadError && err.kind === 'missing') throw new ModelLoadError(`the model '${name}' is missing: ${err.message}`, 'missing');
    throw err;
  };
  // Every file, onnxruntime-web's code and the backend are fetched at once: a start waits for the
  // slowest of them, not for their sum.
  const picking = pickBackend(options.backend);
  const ortLoading = picking.then((p) => importOrt(options.baseUrl, p.backend));
  ortLoading.catch(() => undefined); // reported where it is awaited
  const files = ['config.json', 'tokenizer.json', 'tokenizer_config.json'].map((f) => cachedBytes(cache, `${folder}${f}`));
  for (const f of files) f.catch(() => undefined);
  const [configBytes, tokenizerBytes, tokenizerConfigBytes] = (await Promise.all(files).catch(missing)) as Array<{ bytes: Uint8Array }>;
  const config = parseJson<HfConfig>(configBytes!.bytes, `${name}/config.json`);
  const tokenizerJson = parseJson<object>(tokenizerBytes!.bytes, `${name}/tokenizer.json`);
  const tokenizerConfig = parseJson<object>(tokenizerConfigBytes!.bytes, `${name}/tokenizer_config.json`);
  let shape;
  try {
    shape = decoderShape(config);
  } catch (err) {
    throw new ModelLoadError(`${name}/config.json: ${err instanceof Error ? err.message : String(err)}`, 'corrupt');
  }

  const picked = await picking;
  const backend = picked.backend;
  const notes: string[] = picked.note ? [picked.note] : [];
  let dtype: ModelDtype = options.dtype ?? index.dtypes?.[backend] ?? BACKEND_DTYPE[backend];
  let onnx: { bytes: Uint8Array; cached: boolean };
  const progress = (file: string) => (loaded: number, total: number) => options.onProgress?.(loaded, total, file);
  try {
    onnx = await cachedBytes(cache, `${folder}${onnxFileName(dtype)}`, progress(onnxFileName(dtype)));
  } catch (err) {
    if (!(err instanceof ModelLoadError && err.kind === 'missing') || dtype === 'fp32') return missing(err);
    notes.push(`no ${dtype} file: using fp32`);
    dtype = 'fp32';
    onnx = await cachedBytes(cache, `${folder}${onnxFileName(dtype)}`, progress(onnxFileName(dtype))).catch(missing);
  }

  let ort: Ort;
  try {
    ort = await ortLoading;
  } catch (err) {
    throw new ModelLoadError(`onnxruntime-web could not be loaded: ${err instanceof Error ? err.message : String(err)}`, 'backend');
  }
  const held = performance.now();
  await options.gate;
  // The time held at the gate is the page's choice, not the model's loading.
  const heldMs = performance.now() - held;
  let session: OrtModule.InferenceSession;
  try {
    session = await ort.InferenceSession.create(onnx.bytes, {
      executionProviders: [backend],
      graphOptimizationLevel: 'all',
    });
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    // A file that does not parse is dropped from the cache so that a reload downloads it again.
    await cache?.delete(`${folder}${onnxFileName(dtype)}`).catch(() => undefined);
    if (backend === 'webgpu' && !/protobuf|parse|invalid model|Failed to load model/i.test(text)) {
      throw new ModelLoadError(`WebGPU could not run the model: ${text}`, 'backend');
    }
    throw new ModelLoadError(`the model file ${name}/${onnxFileName(dtype)} is corrupt: ${text}`, 'corrupt');
  }

  let tokenizer;
  try {
    tokenizer = wrapTokenizer(new PreTrainedTokenizer(tokenizerJson, tokenizerConfig));
  } catch (err) {
    throw new ModelLoadError(`the tokenizer of ${name} could not be built: ${err instanceof Error ? err.message : String(err)}`, 'corrupt');
  }
  const lm = new CausalLM(ort.Tensor as unknown as TensorFactory, session, shape);
  let predictor: StatePredictor;
  try {
    predictor = new StatePredictor(lm, tokenizer, options.maxNewTokens || CLASS_LIMITS.maxNewTokens);
    if (!options.maxNewTokens) predictor.maxMs = CLASS_LIMITS.maxMs;
    predictor.calibration = calibrationOf(config, dtype);
  } catch (err) {
    throw new ModelLoadError(`${name}: ${err instanceof Error ? err.message : String(err)}`, 'corrupt');
  }

  let deviceLost: Promise<string> = new Promise(() => undefined);
  if (backend === 'webgpu') {
    try {
      const device = (await (ort.env.webgpu as { device?: unknown }).device) as { lost?: Promise<{ message?: string }> } | undefined;
      if (device?.lost) deviceLost = device.lost.then((info) => info?.message || 'the GPU device was lost');
    } catch {
      // no device handle: run errors still fall back to WASM
    }
  }

  const info: ModelInfo = {
    name,
    parameters: parameterCount(config),
    bytes: onnx.bytes.length,
    backend,
    dtype,
    loadMs: Math.round(performance.now() - started - heldMs),
    threads: backend === 'wasm' ? ort.env.wasm.numThreads ?? 1 : 1,
    cached: onnx.cached,
    calibrated: predictor.calibration !== null,
  };
  if (notes.length) info.note = notes.join('; ');
  return { info, predictor, deviceLost };
}
