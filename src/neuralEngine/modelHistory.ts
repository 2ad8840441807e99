// What the model is asked as a debugging session goes on: a history that begins at a real stop,
// takes one step per debugger action (predicting, then putting either the real state or its own
// prediction into the history), follows a what-if edit, and can be asked without moving (one
// prediction, or k samples). Two implementations: `LocalModelHistory` over a NeuralSession in this
// thread (the Node faces, and inside the browser's model worker), and the browser's ModelClient,
// which hands each call to that worker. The session layer's NeuralFollower decides which calls a
// mode makes (src/session/neuralFollower.ts).

import type { Action } from '../core/actions';
import type { Confidence } from '../core/confidence';
import type { ParseResult } from '../core/format';
import type { Position, Recording } from '../core/trace';
import { NeuralSession, type NeuralSessionOptions, type Prediction } from './neuralSession';
import type { StatePredictor } from './predictor';

/** What a step puts into the history after predicting. */
export type Accept = { kind: 'real'; position: Position } | { kind: 'predicted' };

/** A prediction as it crosses to the session layer (and between threads: plain data). */
export interface PredictionResult {
  action: Action;
  text: string;
  state: ParseResult;
  newTokens: number;
  prefillTokens: number;
  promptTokens: number;
  ms: number;
  decodeMs: number;
  decodeSteps: number;
  stoppedBy: 'stop' | 'length' | 'invalid';
  /** How sure the model is of the state and its fields (absent with the greedy decoder). */
  confidence?: Confidence;
  /** The state ran past the decoder's token or time limit and was ended by the decoder, with
   * empty values where the model had not written them. */
  closedEarly?: true;
}

export interface ModelHistory {
  /** Starts the history at a real state of a recording. */
  begin(recording: Recording, position: Position, breakpoints: readonly number[]): Promise<void>;
  /** One debugger action: the prediction (null when `predict` is false and the history takes the
   * real state), then `accept`. */
  step(action: Action, breakpoints: readonly number[], accept: Accept, predict?: boolean): Promise<PredictionResult | null>;
  /** What-if: the history goes on from the edited state at `position` of the re-run `recording`. */
  edit(recording: Recording, position: Position): Promise<void>;
  /** The prediction after `action` from where the history stands; the history is untouched. */
  peek(action: Action, breakpoints: readonly number[]): Promise<PredictionResult>;
  /** k sampled states after `action` from the real state at `position`, with no history before
   * it (the history is untouched). */
  sample(position: Position, action: Action, k: number, temperature: number): Promise<PredictionResult[]>;
}

export function predictionResult(p: Prediction): PredictionResult {
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
    ...(p.closedEarly ? { closedEarly: true as const } : {}),
  };
}

/** The history in this thread, over a NeuralSession of the predictor. */
export class LocalModelHistory implements ModelHistory {
  private session: NeuralSession | null = null;
  private recording: Recording | null = null;

  constructor(
    private readonly predictor: StatePredictor,
    private readonly options: NeuralSessionOptions = {},
  ) {}

  async begin(recording: Recording, position: Position, breakpoints: readonly number[]): Promise<void> {
    this.recording = recording;
    this.session = new NeuralSession(this.predictor, recording, position, breakpoints, this.options);
  }

  async step(action: Action, breakpoints: readonly number[], accept: Accept, predict = true): Promise<PredictionResult | null> {
    const session = this.current();
    session.setBreakpoints(breakpoints);
    // A history that goes on from its own state needs the prediction whatever was asked.
    const prediction = predict || accept.kind === 'predicted' ? await session.predict(action) : null;
    if (accept.kind === 'real') session.acceptReal(action, accept.position);
    else if (prediction) session.acceptPredicted(prediction);
    return prediction ? predictionResult(prediction) : null;
  }

  async edit(recording: Recording, position: Position): Promise<void> {
    this.recording = recording;
    this.current().acceptEdit(recording, position);
  }

  async peek(action: Action, breakpoints: readonly number[]): Promise<PredictionResult> {
    const session = this.current();
    session.setBreakpoints(breakpoints);
    return predictionResult(await session.predict(action));
  }

  async sample(position: Position, action: Action, k: number, temperature: number): Promise<PredictionResult[]> {
    if (!this.recording) throw new Error('no recording to predict from');
    const from = new NeuralSession(this.predictor, this.recording, position, [], this.options);
    const out: PredictionResult[] = [];
    for (let i = 0; i < k; i++) out.push(predictionResult(await from.predict(action, { temperature })));
    return out;
  }

  private current(): NeuralSession {
    if (!this.session) throw new Error('no recording to predict from');
    return this.session;
  }
}
