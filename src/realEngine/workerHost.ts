// A PythonHost whose Pyodide lives in a worker thread. The tracer stops runs at the event budget
// and the time limit, but only between events: a computation inside one C call (sum(range(10**12)),
// a huge power) would hold a long-running server forever. Here each request has a deadline; past
// it the thread is ended and a fresh one started, and the run ends as a timeout.

import { Worker } from 'node:worker_threads';
import type { Recording } from '../core/trace';
import type { PythonHost } from './pythonHost';
import type { RecordOptions } from './realEngine';
import type { HostMethod, WorkerReply, WorkerRequest } from './pythonWorker';

/** The tracer's own time limit when none is given (tracer.py). */
const TRACER_DEFAULT_LIMIT_S = 10;

export interface WorkerHostOptions {
  /** How long past a run's time limit the tracer gets to stop it itself. */
  graceMs?: number;
  /** The deadline of the requests that run no user program. */
  quickMs?: number;
  /** Loading Pyodide, slow on a busy machine. */
  loadMs?: number;
}

/** A request that ran past its deadline; the thread was replaced. */
export class HardStop extends Error {}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class WorkerHost implements PythonHost {
  private worker: Worker | null = null;
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly graceMs: number;
  private readonly quickMs: number;
  private readonly loadMs: number;

  constructor(options: WorkerHostOptions = {}) {
    this.graceMs = options.graceMs ?? 4_000;
    this.quickMs = options.quickMs ?? 10_000;
    this.loadMs = options.loadMs ?? 120_000;
    this.start();
  }

  /** Resolves once Pyodide is loaded (rejects when it cannot be). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async record(source: string, call: string, options: RecordOptions = {}): Promise<Recording> {
    const limitS = options.timeLimit ?? TRACER_DEFAULT_LIMIT_S;
    try {
      return (await this.call('record', [source, call, options], limitS * 1000 + this.graceMs)) as Recording;
    } catch (err) {
      if (!(err instanceof HardStop)) throw err;
      return {
        source,
        call,
        events: [],
        codes: [],
        stdout: '',
        exit: { status: 'timeout', message: `Stopped: the program ran past the time limit (${limitS} s) inside one call that cannot be interrupted; the Python engine was restarted` },
      };
    }
  }

  async codeLines(source: string) {
    return (await this.call('codeLines', [source], this.quickMs)) as Awaited<ReturnType<PythonHost['codeLines']>>;
  }

  async expressionError(expr: string) {
    return (await this.call('expressionError', [expr], this.quickMs)) as string | null;
  }

  async evaluateOnLocals(expr: string, locals: Record<string, string>) {
    return (await this.call('evaluateOnLocals', [expr, locals], this.quickMs)) as Awaited<ReturnType<PythonHost['evaluateOnLocals']>>;
  }

  /** Ends the thread (the host is not used again). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('the Python engine was closed'));
    await worker?.terminate();
  }

  private async call(method: HostMethod, args: unknown[], deadlineMs: number): Promise<unknown> {
    if (!this.worker) this.start();
    await this.ready;
    const worker = this.worker!;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HardStop(`${method} ran past ${Math.round(deadlineMs / 1000)} s`));
        this.restart();
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, method, args } satisfies WorkerRequest);
    });
  }

  private start(): void {
    // The thread's stdout is piped here by hand: a server's stdout carries only its protocol.
    const worker = new Worker(new URL('./pythonWorker.mjs', import.meta.url), { stdout: true });
    worker.stdout.pipe(process.stderr);
    this.worker = worker;
    // Pyodide keeps the thread busy: the process must still be able to exit without it.
    worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Python engine did not load in ${this.loadMs / 1000} s`)), this.loadMs);
      worker.on('message', (msg: WorkerReply) => {
        if ('ready' in msg) {
          clearTimeout(timer);
          resolve();
          return;
        }
        const p = this.pending.get(msg.id);
        if (!p) return; // answered after its deadline
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if ('error' in msg) p.reject(new Error(msg.error));
        else p.resolve(msg.result);
      });
      worker.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`the Python engine failed: ${err.message}`));
        if (this.worker === worker) this.lost(err);
      });
      worker.on('exit', (code) => {
        if (this.worker === worker) this.lost(new Error(`the Python engine stopped (exit code ${code})`));
      });
    });
    this.ready.catch(() => undefined);
  }

  private restart(): void {
    const old = this.worker;
    this.worker = null;
    void old?.terminate();
    this.start();
  }

  private lost(err: Error): void {
    this.worker = null;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
  }
}
