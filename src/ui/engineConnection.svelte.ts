// The app's connection to its Python engine: the worker client (src/realEngine/browser/client.ts, a
// PythonHost of engineProtocol.ts), how far its start has come, whether it is ready, and the user's
// Stop. The debugger (debugger.svelte.ts) asks its questions through `host`.

import type { LocalsEvaluation, PythonHost } from '../realEngine/engineProtocol';
import { EngineClient, EngineError, type EngineInfo, type EngineStage } from '../realEngine/browser/client';
import type { RunMark } from './runMark';

/** What the app asks of the Python engine: the worker client, or a test's stand-in (which may not
 * know how to stop). */
export type AppEngine = PythonHost & { readonly ready: Promise<EngineInfo>; stop?(): void };

/** Makes the engine; it calls `onReady` whenever a worker has loaded (after a restart too), and
 * `onStage` as a worker's start goes on. */
export type ConnectEngine = (onReady: (info: EngineInfo) => void, onStage: (stage: EngineStage) => void) => AppEngine;

export type EngineStatus = 'loading' | 'ready' | 'failed';

export class EngineConnection {
  status = $state<EngineStatus>('loading');
  info = $state.raw<EngineInfo | null>(null);
  /** How long Python took to load when the page opened: measured once (a worker started again
   * later, after a Stop or a runaway program, is not the page's load, and a prestarted one counts
   * its age), so the footer says one number (issue 46). */
  loadMs = $state<number | null>(null);
  /** How far Python's start has come (while `status` is 'loading'). */
  loadStage = $state<EngineStage | null>(null);
  /** Why the engine could not load (null: it did, or it is still loading). */
  loadError = $state<string | null>(null);

  private engine: AppEngine | null = null;
  /** Marks each recording as a run in progress until the page has drawn it (runMark.ts); null:
   * nothing is kept across a reload (tests, storage blocked). Set before `start`. */
  runMark: RunMark | null = null;
  private light: (() => void) | null = null;
  private readonly lightStart = new Promise<void>((resolve) => (this.light = resolve));

  /** The engine's questions (null until `start`). */
  get host(): AppEngine | null {
    return this.engine;
  }

  /** Starts the Python engine; resolves false (with the message in loadError) when it cannot load. */
  async start(connect: ConnectEngine = (onReady, onStage) => new EngineClient({ onReady, onStage })): Promise<boolean> {
    const made = connect(
      (info) => this.onReady(info),
      (stage) => this.onStage(stage),
    );
    const engine = this.runMark ? this.runMark.wrap(made) : made;
    this.engine = engine;
    try {
      await engine.ready;
      return true;
    } catch (err) {
      this.status = 'failed';
      this.loadError = err instanceof Error ? err.message : String(err);
      return false;
    }
  }

  /** Waits for the engine (a restarted one included); false when it cannot load. */
  async waitForEngine(): Promise<boolean> {
    if (this.status === 'ready') return true;
    try {
      await this.engine?.ready;
      return true;
    } catch {
      return false;
    }
  }

  /** Settles once Python's start is no longer heavy on the CPU: it restores a saved interpreter,
   * or it is ready (or failed). The model waits for this before it builds (main.ts). */
  heavyStartDone(): Promise<unknown> {
    return Promise.race([this.lightStart, this.waitForEngine()]);
  }

  /** The user's Stop while Python runs. */
  stop(): void {
    this.engine?.stop?.();
  }

  /** The engine is being replaced after `err` (a run that did not stop, or an answer that failed
   * its check): the buttons wait for the new one. */
  noteStopped(err: unknown): void {
    if (err instanceof EngineError && (err.kind === 'stopped' || err.kind === 'untrusted')) this.status = 'loading';
  }

  /** What a watch expression gives on a model's predicted locals (values.py). */
  async evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation> {
    if (!this.engine || this.status !== 'ready') return { unknown: 'the Python engine is not ready' };
    return this.engine.evaluateOnLocals(expr, locals);
  }

  /** The SyntaxError message when `expr` is not a Python expression, else null. */
  async syntaxError(expr: string): Promise<string | null> {
    if (!this.engine || this.status !== 'ready') return null;
    try {
      const error = await this.engine.expressionError(expr);
      return error === null ? null : error.replace(/^SyntaxError:\s*/, '');
    } catch {
      return null;
    }
  }

  private onStage(stage: EngineStage): void {
    this.loadStage = stage;
    // Where a start spends its time (read them with the Performance panel, or
    // performance.getEntriesByType('mark')): one mark per stage reached.
    performance.mark(`ndb:engine-${stage}`);
    if (stage === 'restoring') this.light?.();
  }

  private onReady(info: EngineInfo): void {
    this.loadStage = null;
    // For `npm run bench:web`: the time from navigation to the first usable real engine.
    if (performance.getEntriesByName('ndb:engine-ready').length === 0) performance.mark('ndb:engine-ready');
    this.info = info;
    this.loadMs ??= info.loadMs;
    this.status = 'ready';
  }
}
