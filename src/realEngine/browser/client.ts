// The main thread's side of the Pyodide worker: typed messages in, promises out.
//
// The worker answers each request with its id; an answer whose id is no longer pending (a request
// that was superseded, or one from a worker that was replaced) is dropped (core/requests.ts keeps
// the pending requests, for the model's client too). A runaway program is
// stopped in two steps: first Python's interrupt buffer (a SharedArrayBuffer, only when the page is
// cross-origin isolated), then, if Python does not come back, the worker is terminated and a fresh
// one is started.
//
// The worker runs in a sandboxed frame of its own, outside the app's origin (engineFrame.ts); the
// client sees it through EngineWorker, the part of a Worker it uses.
//
// One program, one interpreter: a program can leave things behind in the interpreter it ran in
// (a patched module, a hook, a timer of the worker's realm) that would run in or spy on the next
// program. A worker that recorded one program (its source and call) never records another: the
// next program runs in a fresh worker, prepared ahead after the first recording (it restores the
// saved interpreter in the background). Runs of the same program with edits, watches or
// conditions stay in its worker.
//
// The worker is not trusted: a program that gets past Python's layer can run JavaScript there and
// post anything. Every message is checked against the protocol (checkWorkerResponse) and every
// answer against its question (answerCheck.ts) before anything uses it; one that fails is dropped,
// the request fails with "The run cannot be trusted: …" and the worker is replaced.

import { PendingRequests } from '../../util/requests';
import { Spare } from '../../util/spare';
import type { Recording } from '../../core/trace';
import { checkAnswer, UntrustedAnswer } from '../answerCheck';
import { FramedEngineWorker } from './engineFrame';
import { hostFromAsk, type AnswerTo, type Ask, type EngineQuestion, type LocalsEvaluation, type PythonHost, type QuestionKind } from '../engineProtocol';
import { tracerOptions, type RecordOptions } from '../recordOptions';
import { checkWorkerResponse, type EngineInfo, type EngineStage, type EngineWorker, type WorkerRequest, type WorkerResponse } from './workerProtocol';

export type { EngineInfo, EngineStage, EngineWorker, RecordOptions, WorkerRequest, WorkerResponse };

/** A watch expression on a model's predicted locals: a repr, the error it raised, or why the
 * locals do not determine it (values.py). */
export type EvaluationResult = LocalsEvaluation;

/** The answers a request can get (an `error` answer rejects it instead). */
type Answer = Extract<WorkerResponse, { type: 'answered' }>;

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

/** Thrown for a request that will never be answered (superseded, or the worker was replaced).
 * `untrusted`: the worker's answer failed its check (answerCheck.ts); the worker was replaced. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly kind: 'engine' | 'stopped' | 'superseded' | 'load' | 'untrusted',
  ) {
    super(message);
  }
}

export type WorkerFactory = () => EngineWorker;

const workers = new Spare<FramedEngineWorker>(() => new FramedEngineWorker());

/** Creates the Python worker now, for the first EngineClient to take: its frame and Pyodide's files
 * start loading at once, so a page that calls this on its first line gains the time its own code
 * takes to load. Settles once the frame was told to start the worker (or could not be). */
export function prestartEngineWorker(): Promise<void> {
  return workers.prepare().started;
}

const defaultFactory: WorkerFactory = () => workers.take();

/** How long after a recording the worker for the next program is made. */
const SPARE_DELAY_MS = 1_500;

/** What a worker that ran a program is bound to: the program's source and call. */
function programKey(source: string, call: string): string {
  return `${source}\u0000${call}`;
}

export interface EngineClient extends PythonHost {}

/** The real engine of the app: the PythonHost of engineProtocol.ts over a worker. */
export class EngineClient {
  private worker!: EngineWorker;
  /** The program the current worker has recorded (null: none yet). */
  private bound: string | null = null;
  /** A fresh worker for the next program, made after the first recording. */
  private spare: EngineWorker | null = null;
  private disposed = false;
  private spareTimer: ReturnType<typeof setTimeout> | null = null;
  /** Sets the current worker's interrupt signal; null when it cannot be interrupted. */
  private interrupt: ((signal: 0 | 2) => void) | null = null;
  /** The current worker said it is ready: only answers may come from it now. */
  private workerReady = false;
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
    // The questions as methods (a recording through record() below, which binds the worker).
    const { record: _record, ...questions } = hostFromAsk(this.ask, { forOwner: () => this, release: async () => undefined });
    Object.assign(this, questions);
  }

  /** Resolves once Pyodide and the tracer are loaded in the current worker. */
  get ready(): Promise<EngineInfo> {
    return this.readyPromise;
  }

  /** One question of engineProtocol.ts: a recording runs the program (in a worker of its own);
   * the others are quick and run where the engine stands. (Ask is generic over the question's
   * kind; the worker's answer carries the kind it answers, so one widening cast here is exact.) */
  readonly ask: Ask = ((question: EngineQuestion) => this.answer(question)) as Ask;

  private async answer(question: EngineQuestion): Promise<AnswerTo<QuestionKind>> {
    if (question.kind === 'record') return this.recordQuestion(question);
    await this.readyPromise;
    const answer = await this.request(3_000, (id) => ({ type: 'ask', id, question }));
    return this.accept(question, answer);
  }

  /** The answer to `question`, once it passed its check; else the worker is replaced and the
   * request fails with what failed. */
  private accept(question: EngineQuestion, answer: Answer): AnswerTo<QuestionKind> {
    try {
      if (answer.kind !== question.kind) throw new UntrustedAnswer(`the Python worker answered ${answer.kind} to ${question.kind}`);
      return checkAnswer(question, answer.answer);
    } catch (err) {
      if (err instanceof UntrustedAnswer) throw this.distrust(err);
      throw err;
    }
  }

  /** The worker broke its protocol: it is replaced, and whatever waits on it fails. */
  private distrust(err: UntrustedAnswer): EngineError {
    const reason = new EngineError(err.message, 'untrusted');
    if (!this.disposed) this.restart(reason);
    return reason;
  }

  /** Records a program; rejects with EngineError when the engine fails or must be restarted. */
  record(source: string, call: string, options: RecordOptions = {}): Promise<Recording> {
    return this.ask({ kind: 'record', source, call, options: tracerOptions(options) });
  }

  private async recordQuestion(question: Extract<EngineQuestion, { kind: 'record' }>): Promise<Recording> {
    const key = programKey(question.source, question.call);
    if (this.bound !== null && this.bound !== key) this.replaceWorker();
    this.bound = key;
    try {
      await this.readyPromise;
      // A run given a longer time limit (the user raised it) is interrupted only after it.
      const limit = question.options.time_limit;
      const limitMs = limit !== undefined ? (limit + 2) * 1000 : 0;
      const answer = await this.request(Math.max(this.interruptAfterMs, limitMs), (id) => ({ type: 'ask', id, question }));
      return this.accept(question, answer) as Recording;
    } finally {
      this.prepareSpare();
    }
  }

  /** Sends the request `message(id)`; Python is interrupted after `interruptAfterMs`, and the
   * worker replaced if it does not come back. */
  private request(interruptAfterMs: number, message: (id: number) => WorkerRequest): Promise<Answer> {
    const timers: ReturnType<typeof setTimeout>[] = [];
    const { id, answer } = this.requests.open(() => {
      for (const t of timers) clearTimeout(t);
      this.interrupt?.(0);
    });
    this.interrupt?.(0);
    timers.push(
      setTimeout(() => {
        this.interrupt?.(2); // SIGINT: KeyboardInterrupt in Python
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
    this.interrupt(2);
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

  private start(made?: EngineWorker): void {
    this.readyPromise = new Promise<EngineInfo>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Keep an unobserved rejection from being reported as unhandled; callers see it via `ready`.
    this.readyPromise.catch(() => undefined);
    const worker = made ?? this.factory();
    this.worker = worker;
    this.workerReady = false;
    worker.onmessage = (ev: MessageEvent<unknown>) => {
      if (worker === this.worker) this.handle(ev.data);
    };
    worker.onerror = (ev: ErrorEvent) => {
      if (worker !== this.worker) return;
      ev.preventDefault();
      // The worker's own words, cut: a program that reached its JavaScript may throw anything.
      const message = `The Python engine failed: ${(ev.message || 'unknown error').slice(0, 1_000)}`;
      this.rejectReady(new EngineError(message, 'load'));
      this.failAll(new EngineError(message, 'engine'));
      this.options.onFatal?.(message);
    };
    if (worker.interrupt !== undefined) {
      this.interrupt = worker.interrupt;
      this.post({ type: 'init', interruptBuffer: null });
      return;
    }
    const buffer = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
    this.interrupt = buffer ? (signal) => Atomics.store(buffer, 0, signal) : null;
    this.post({ type: 'init', interruptBuffer: buffer });
  }

  private handle(data: unknown): void {
    let msg: WorkerResponse;
    try {
      msg = checkWorkerResponse(data, this.workerReady);
    } catch (err) {
      if (!(err instanceof UntrustedAnswer)) throw err;
      this.distrust(err);
      return;
    }
    switch (msg.type) {
      case 'stage':
        this.options.onStage?.(msg.stage);
        return;
      case 'ready': {
        this.workerReady = true;
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
      case 'answered':
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
