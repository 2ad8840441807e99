// The messages between the page and its Python worker (pyodide.worker.ts, which runs in a frame of
// its own: engineFrame.ts): the start, then the questions of engineProtocol.ts, each answered with
// its id. The page's side is client.ts.

import type { Recording } from '../../core/trace';
import { ANSWER_BOUNDS, UntrustedAnswer } from '../answerCheck';
import type { AnswerTo, EngineQuestion, QuestionKind } from '../engineProtocol';

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

const STAGES: ReadonlySet<string> = new Set<EngineStage>(['fetching', 'restoring', 'starting', 'tracer']);
const KINDS: ReadonlySet<string> = new Set<QuestionKind>(['record', 'codeLines', 'expressionError', 'evaluateOnLocals', 'sameValue', 'firstArgument', 'callArguments']);

/** What the worker posted, as a message of this protocol (its answer still unchecked: that is
 * answerCheck.ts's, against the question it answers). `ready`: the worker has said it is ready, so
 * only answers may follow. Anything else is UntrustedAnswer: a program that reached the worker's
 * JavaScript may post anything at all. */
export function checkWorkerResponse(data: unknown, ready: boolean): WorkerResponse {
  const fail = (what: string): never => {
    throw new UntrustedAnswer(`the Python worker sent ${what}`);
  };
  if (typeof data !== 'object' || data === null || Object.getPrototypeOf(data) !== Object.prototype) return fail('a message that is not an object');
  const m = data as Record<string, unknown>;
  const keys = Object.keys(m).sort().join(',');
  const expect = (wanted: string): void => {
    if (keys !== wanted) fail(`a ${String(m.type)} message with the fields ${keys}`);
  };
  const isId = (id: unknown): boolean => typeof id === 'number' && Number.isSafeInteger(id) && id > 0;
  const isTime = (ms: unknown): boolean => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0;
  switch (m.type) {
    case 'stage':
      expect('stage,type');
      if (ready) fail('a stage of its start after it was ready');
      if (typeof m.stage !== 'string' || !STAGES.has(m.stage)) fail('a stage its start does not have');
      break;
    case 'ready':
      if (ready) fail('ready a second time');
      if (keys !== 'interruptible,loadMs,pythonVersion,type') expect('fromSnapshot,interruptible,loadMs,pythonVersion,type');
      if (!isTime(m.loadMs) || typeof m.pythonVersion !== 'string' || m.pythonVersion.length > 100 || typeof m.interruptible !== 'boolean') fail('a ready message that is not one');
      if (m.fromSnapshot !== undefined && typeof m.fromSnapshot !== 'boolean') fail('a ready message that is not one');
      break;
    case 'answered':
      expect('answer,elapsedMs,id,kind,type');
      if (!ready) fail('an answer before it was ready');
      if (!isId(m.id) || typeof m.kind !== 'string' || !KINDS.has(m.kind) || !isTime(m.elapsedMs)) fail('an answer that is not one');
      break;
    case 'error':
      expect('id,message,type');
      if (m.id === null ? ready : !isId(m.id) || !ready) fail('an error that answers nothing it was asked');
      if (typeof m.message !== 'string' || m.message.length > ANSWER_BOUNDS.text) fail('an error whose message is not text of at most 1,000,000 characters');
      break;
    default:
      fail('a message of no kind it may send');
  }
  return m as unknown as WorkerResponse;
}
