// The messages between the page and its Python worker (pyodide.worker.ts, which runs in a frame of
// its own: engineFrame.ts): the start, then the questions of engineProtocol.ts, each answered with
// its id. The page's side is client.ts.

import type { Recording } from '../core/trace';
import type { AnswerTo, EngineQuestion, QuestionKind } from './engineProtocol';

/** Messages from the main thread to the worker. */
export type WorkerRequest =
  | { type: 'init'; interruptBuffer: Uint8Array | null }
  /** One question of engineProtocol.ts (a recording included). */
  | { type: 'ask'; id: number; question: EngineQuestion };

/** How far a worker's start has come: fetching Pyodide, restoring the interpreter saved by an
 * earlier start (fast) or starting it afresh (the first visit), loading the tracer. */
export type EngineStage = 'fetching' | 'restoring' | 'starting' | 'tracer';

/** Messages from the worker to the main thread. */
export type WorkerResponse =
  | { type: 'stage'; stage: EngineStage }
  | { type: 'ready'; loadMs: number; pythonVersion: string; interruptible: boolean; fromSnapshot?: boolean }
  | { type: 'answered'; id: number; kind: QuestionKind; answer: AnswerTo<QuestionKind>; elapsedMs: number }
  | { type: 'error'; id: number | null; message: string };

/** A recording's answer, as the worker sends it. */
export type RecordedAnswer = Extract<WorkerResponse, { type: 'answered' }> & { kind: 'record'; answer: Recording };

export interface EngineInfo {
  loadMs: number;
  pythonVersion: string;
  interruptible: boolean;
  /** Python was restored from the memory snapshot of an earlier start. */
  fromSnapshot?: boolean;
}

/** What the client uses of a worker (a Worker has it all; FramedEngineWorker is the app's). */
export interface EngineWorker {
  onmessage: ((ev: MessageEvent<WorkerResponse>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
  postMessage(message: WorkerRequest): void;
  terminate(): void;
  /** Sets Python's interrupt signal (0: none, 2: SIGINT) where the worker keeps the buffer itself
   * (null: it cannot be interrupted); absent, the client makes the buffer and sends it in `init`. */
  readonly interrupt?: ((signal: 0 | 2) => void) | null;
}
