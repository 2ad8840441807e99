// The main thread's side of the Pyodide worker: typed messages in, promises out.
//
// The worker answers each request with its id; an answer whose id is no longer pending (a request
// that was superseded, or one from a worker that was replaced) is dropped (core/requests.ts keeps
// the pending requests, for the model's client too). A runaway program is
// stopped in two steps: first Python's interrupt buffer (a SharedArrayBuffer, only when the page is
// cross-origin isolated), then, if Python does not come back, the worker is terminated and a fresh
// one is started.
//
// One program, one interpreter: a program can leave things behind in the interpreter it ran in
// (a patched module, a hook, a timer of the worker's realm) that would run in or spy on the next
// program. A worker that recorded one program (its source and call) never records another: the
// next program runs in a fresh worker, prepared ahead after the first recording (it restores the
// saved interpreter in the background). Runs of the same program with edits, watches or
// conditions stay in its worker.

import { PendingRequests } from '../util/requests';
import { Spare } from '../util/spare';
import type { Recording } from '../core/trace';
import type { RecordOptions } from './realEngine';

export type { RecordOptions };

/** Messages from the main thread to the worker. */
export type WorkerRequest =
  | { type: 'init'; interruptBuffer: Uint8Array | null }
  | { type: 'record'; id: number; source: string; call: string; options: RecordOptions }
  /** What-if watch on the neural side: `expr` evaluated on predicted locals (reprs), see values.py. */
  | { type: 'evaluate'; id: number; expr: string; locals: Record<string, string> };

/** How far a worker's start has come: fetching Pyodide, restoring the interpreter saved by an
 * earlier start (fast) or starting it afresh (the first visit), loading the tracer. */
export type EngineStage = 'fetching' | 'restoring' | 'starting' | 'tracer';

/** Messages from the worker to the main thread. */
export type WorkerResponse =
  | { type: 'stage'; stage: EngineStage }
  | { type: 'ready'; loadMs: number; pythonVersion: string; interruptible: boolean; fromSnapshot?: boolean }
  | { type: 'recorded'; id: number; recording: Recording; elapsedMs: number }
  | { type: 'evaluated'; id: number; result: EvaluationResult }
  | { type: 'error'; id: number | null; message: string };

/** evaluate_on_locals's answer: a repr, the error it raised, or why the locals do not determine it. */
export type EvaluationResult = { value: string } | { error: string } | { unknown: string };

export interface EngineInfo {
  loadMs: number;
  pythonVersion: string;
  interruptible: boolean;
  /** Python was restored from the memory snapshot of an earlier start. */
  fromSnapshot?: boolean;
}

export interface ClientOptions {
  /** Milliseconds a recording may run before Python is interrupted (default 10 s). */
  interruptAfterMs?: number;
  /** Milliseconds after the interrupt before the worker is replaced (default 4 s). */
  terminateAfterMs?: number;
  /** Called when a new worker has loaded (after a restart too). */
  onReady?: (info: EngineInfo) => void;
  /** Called as a worker's start goes on. */
  onStage?: (stage: EngineStage) => void;
  /** Called when the worker itself fails (e.g. Pyodide cannot load). */
  onFatal?: (message: string) => void;
}

/** Thrown for a request that will never be answered (superseded, or the worker was replaced). */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly kind: 'engine' | 'stopped' | 'superseded' | 'load',
  ) {
    super(message);
  }
}

/** The answers a request can get (an `error` answer rejects it instead). */
type Answer = Extract<WorkerResponse, { type: 'recorded' | 'evaluated' }>;

export type WorkerFactory = () => Worker;

const workers = new Spare(() => new Worker(new URL('./pyodide.worker.ts', import.meta.url), { type: 'module', name: 'pyodide' }));

/** Creates the Python worker now, for the first EngineClient to take: the worker loads Pyodide as
 * soon as its script runs, so a page that calls this on its first line gains the time its own
 * code takes to load. */
export function prestartEngineWorker(): void {
  workers.prepare();
}

const defaultFactory: WorkerFactory = () => workers.take();

/** How long after a recording the worker for the next program is made. */
const SPARE_DELAY_MS = 1_500;

/** What a worker that ran a program is bound to: the program's source and call. */
function programKey(source: string, call: string): string {
  return `${source}\u0000${call}`;
}

export class EngineClient {
  private worker!: Worker;
  /** The program the current worker has recorded (null: none yet). */
  private bound: string | null = null;
  /** A fresh worker for the next program, made after the first recording. */
  private spare: Worker | null = null;
  private disposed = false;
  private spareTimer: ReturnType<typeof setTimeout> | null = null;
  private interrupt: Uint8Array | null = null;
  private readonly requests = new PendingRequests<Answer>();
  private readyPromise!: Promise<EngineInfo>;
  private resolveReady!: (info: EngineInfo) => void;
  private rejectReady!: (err: EngineError) => void;
  private readonly interruptAfterMs: number;
  private readonly terminateAfterMs: number;

  constructor(
    private readonly options: ClientOptions = {},
    private readonly factory: WorkerFactory = defaultFactory,
  ) {
    this.interruptAfterMs = options.interruptAfterMs ?? 10_000;
    this.terminateAfterMs = options.terminateAfterMs ?? 4_000;
    this.start();
  }

  /** Resolves once Pyodide and the tracer are loaded in the current worker. */
  get ready(): Promise<EngineInfo> {
    return this.readyPromise;
  }

  /** Records a program; rejects with EngineError when the engine fails or must be restarted. */
  async record(source: string, call: string, options: RecordOptions = {}): Promise<Recording> {
    const key = programKey(source, call);
    if (this.bound !== null && this.bound !== key) this.replaceWorker();
    this.bound = key;
    try {
      return await this.recordHere(source, call, options);
    } finally {
      this.prepareSpare();
    }
  }

  private async recordHere(source: string, call: string, options: RecordOptions): Promise<Recording> {
    await this.readyPromise;
    // A run given a longer time limit (the user raised it) is interrupted only after it.
    const limitMs = options.timeLimit !== undefined ? (options.timeLimit + 2) * 1000 : 0;
    const answer = await this.request(Math.max(this.interruptAfterMs, limitMs), (id) => ({ type: 'record', id, source, call, options }));
    if (answer.type !== 'recorded') throw new EngineError(`The Python engine answered ${answer.type} to a recording.`, 'engine');
    return answer.recording;
  }

  /** Evaluates an expression on locals given as reprs (a model's predicted locals), without running
   * the user's program: values.py's evaluate_on_locals. */
  async evaluate(expr: string, locals: Record<string, string>, timeoutMs = 3_000): Promise<EvaluationResult> {
    await this.readyPromise;
    const answer = await this.request(timeoutMs, (id) => ({ type: 'evaluate', id, expr, locals }));
    if (answer.type !== 'evaluated') throw new EngineError(`The Python engine answered ${answer.type} to an evaluation.`, 'engine');
    return answer.result;
  }

  /** Sends the request `message(id)`; Python is interrupted after `interruptAfterMs`, and the
   * worker replaced if it does not come back. */
  private request(interruptAfterMs: number, message: (id: number) => WorkerRequest): Promise<Answer> {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const { id, answer } = this.requests.open(() => {
      for (const t of timers) clearTimeout(t);
      if (this.interrupt) this.interrupt[0] = 0;
    });
    if (this.interrupt) this.interrupt[0] = 0;
    timers.push(
      setTimeout(() => {
        if (this.interrupt) Atomics.store(this.interrupt, 0, 2); // SIGINT: KeyboardInterrupt in Python
      }, interruptAfterMs),
    );
    timers.push(
      setTimeout(
        () => {
          if (!this.requests.has(id)) return;
          this.restart(
            new EngineError(
              'The program did not stop when asked to, so the Python engine was restarted. ' +
                'Long computations that run without executing Python lines cannot be interrupted.',
              'stopped',
            ),
          );
        },
        interruptAfterMs + (this.interrupt ? this.terminateAfterMs : 0),
      ),
    );
    this.post(message(id));
    return answer;
  }

  /** The user's Stop: Python is interrupted at once (the run ends as a timeout, with what was
   * recorded), and the worker is replaced if the runs pending now do not come back; without an
   * interrupt buffer it is replaced at once. */
  stop(): void {
    const ids = this.requests.ids();
    if (ids.length === 0) return;
    const reason = new EngineError('Stopped: the Python engine was restarted.', 'stopped');
    if (!this.interrupt) {
      this.restart(reason);
      return;
    }
    Atomics.store(this.interrupt, 0, 2);
    const worker = this.worker;
    setTimeout(() => {
      if (this.worker === worker && ids.some((id) => this.requests.has(id))) this.restart(reason);
    }, this.terminateAfterMs);
  }

  /** Terminates the worker, fails every pending request and starts a fresh worker. */
  restart(reason: EngineError = new EngineError('The Python engine was restarted.', 'stopped')): void {
    this.worker.terminate();
    this.failAll(reason);
    this.bound = null;
    const spare = this.spare;
    this.spare = null;
    this.start(spare ?? undefined);
  }

  dispose(): void {
    this.disposed = true;
    if (this.spareTimer) clearTimeout(this.spareTimer);
    this.worker.terminate();
    this.spare?.terminate();
    this.spare = null;
    this.failAll(new EngineError('The Python engine was shut down.', 'stopped'));
  }

  /** Another program is about to run: the worker that ran the last one goes, the spare (or a new
   * worker) takes its place. Nothing is pending on it: the app runs one program at a time, and a
   * request still pending is superseded. */
  private replaceWorker(): void {
    this.worker.terminate();
    this.failAll(new EngineError('Another program started.', 'superseded'));
    const spare = this.spare;
    this.spare = null;
    this.bound = null;
    this.start(spare ?? undefined);
  }

  /** Makes the worker for the next program, once this one has recorded a program. */
  private prepareSpare(): void {
    if (this.disposed || this.spare || this.bound === null || this.spareTimer) return;
    // Not at once: the first run of a page shares the CPU with the model's start.
    this.spareTimer = setTimeout(() => {
      this.spareTimer = null;
      if (!this.disposed && !this.spare) this.spare = this.factory();
    }, SPARE_DELAY_MS);
  }

  private start(made?: Worker): void {
    this.readyPromise = new Promise<EngineInfo>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Keep an unobserved rejection from being reported as unhandled; callers see it via `ready`.
    this.readyPromise.catch(() => undefined);
    const worker = made ?? this.factory();
    this.worker = worker;
    worker.onmessage = (ev: MessageEvent<WorkerResponse>) => {
      if (worker === this.worker) this.handle(ev.data);
    };
    worker.onerror = (ev: ErrorEvent) => {
      if (worker !== this.worker) return;
      ev.preventDefault();
      const message = `The Python engine failed: ${ev.message || 'unknown error'}`;
      this.rejectReady(new EngineError(message, 'load'));
      this.failAll(new EngineError(message, 'engine'));
      this.options.onFatal?.(message);
    };
    this.interrupt =
      typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated
        ? new Uint8Array(new SharedArrayBuffer(1))
        : null;
    this.post({ type: 'init', interruptBuffer: this.interrupt });
  }

  private handle(msg: WorkerResponse): void {
    switch (msg.type) {
      case 'stage':
        this.options.onStage?.(msg.stage);
        return;
      case 'ready': {
        const info: EngineInfo = {
          loadMs: msg.loadMs,
          pythonVersion: msg.pythonVersion,
          interruptible: msg.interruptible,
          ...(msg.fromSnapshot ? { fromSnapshot: true } : {}),
        };
        this.resolveReady(info);
        this.options.onReady?.(info);
        return;
      }
      case 'recorded':
      case 'evaluated':
        this.requests.resolve(msg.id, msg);
        return;
      case 'error': {
        if (msg.id === null) {
          const err = new EngineError(msg.message, 'load');
          this.rejectReady(err);
          this.options.onFatal?.(msg.message);
          return;
        }
        this.requests.reject(msg.id, new EngineError(msg.message, 'engine'));
        return;
      }
    }
  }

  private failAll(err: EngineError): void {
    this.requests.rejectAll(err);
  }

  private post(msg: WorkerRequest): void {
    this.worker.postMessage(msg);
  }
}
