// The model beside a real debugging session: what it is asked after each move, in each mode.
// `both`: its history is the real one (one-step predictions); `neural`: it goes on from its own
// predictions. A move that is no model action (a jump) or a step that changed the recording (back
// across a what-if edit) starts its history again at the real stop; an edit goes on from the edited
// state. Shared by the app (over its model worker), `ndb debug --engine neural|both`, `ndb dap`,
// `ndb mcp` and the evaluation (over a history in this thread): src/neuralEngine/modelHistory.ts.

import type { Action } from '../core/actions';
import { compareStates, reachedBy, type StateComparison } from '../core/compare';
import { NO_CONFIDENCE, type Confidence } from '../core/confidence';
import type { ParseResult } from '../core/format';
import { stateAt, type DebugState } from '../core/state';
import type { Position, Recording } from '../core/trace';
import type { ModelHistory, PredictionResult } from '../neuralEngine/modelHistory';

export type NeuralMode = 'neural' | 'both';

export interface FollowedStep {
  /** The model's state after the action. */
  predicted: ParseResult;
  /** It against the real state after the action. */
  comparison: StateComparison;
  /** How sure the model was of it (none with the greedy decoder). */
  confidence?: Confidence;
  /** The prediction as the model wrote it (its text, tokens and time). */
  result: PredictionResult;
}

/** Where the real session stands: a position of a recording. */
export interface RealStop {
  recording: Recording;
  position: Position;
}

export class NeuralFollower {
  /** The recording the model's real states come from. */
  private recording: Recording;
  private breakpoints: number[];

  private constructor(
    readonly history: ModelHistory,
    readonly mode: NeuralMode,
    start: RealStop,
    breakpoints: readonly number[],
  ) {
    this.recording = start.recording;
    this.breakpoints = [...breakpoints];
  }

  /** Begins the model's history at the real stop. */
  static async start(history: ModelHistory, mode: NeuralMode, real: RealStop, breakpoints: readonly number[] = []): Promise<NeuralFollower> {
    const { follower, begun } = NeuralFollower.startNow(history, mode, real, breakpoints);
    await begun;
    return follower;
  }

  /** The follower at once, its history's beginning in flight (a history that takes its calls in
   * order, as the model worker does, can be asked the next step before `begun` settles). */
  static startNow(history: ModelHistory, mode: NeuralMode, real: RealStop, breakpoints: readonly number[] = []): { follower: NeuralFollower; begun: Promise<void> } {
    const follower = new NeuralFollower(history, mode, real, breakpoints);
    return { follower, begun: history.begin(real.recording, real.position, follower.breakpoints) };
  }

  /** The real session moved by `action` to `after`: the model's state for it (null when
   * `predict` is false and nothing needed predicting), its history moved on as the mode says. */
  async follow(action: Action, after: RealStop, predict = true): Promise<FollowedStep | null> {
    let result: PredictionResult | null;
    if (this.mode === 'both' && after.recording !== this.recording) {
      // Stepping back across a what-if edit changed the recording: its states are not the ones
      // the model's history was written from.
      result = predict ? await this.history.peek(action, this.breakpoints) : null;
      await this.restart(after);
    } else {
      const accept = this.mode === 'neural' ? ({ kind: 'predicted' } as const) : ({ kind: 'real', position: after.position } as const);
      result = await this.history.step(action, this.breakpoints, accept, predict);
      this.recording = after.recording;
    }
    return result ? followed(result, stateAt(after.recording, after.position)) : null;
  }

  /** The model's state after `action` from here, and how sure it is; nothing moves. */
  async predict(action: Action): Promise<PredictionResult> {
    return this.history.peek(action, this.breakpoints);
  }

  /** A what-if edit was made at the real stop: the model goes on from the edited state. */
  async edited(real: RealStop): Promise<void> {
    this.recording = real.recording;
    await this.history.edit(real.recording, real.position);
  }

  /** The real session moved by something that is no model action (a jump): the model starts
   * afresh from the real stop. */
  async restart(real: RealStop): Promise<void> {
    this.recording = real.recording;
    await this.history.begin(real.recording, real.position, this.breakpoints);
  }

  /** The real program was recorded again with the same run (new breakpoint conditions or
   * watches): its states are the ones the history holds. */
  rerecorded(real: RealStop): void {
    this.recording = real.recording;
  }

  setBreakpoints(lines: readonly number[]): void {
    this.breakpoints = [...lines];
  }
}

/** A prediction beside the real state it should have been (reached in the action's direction). */
export function followed(result: PredictionResult, real: DebugState): FollowedStep {
  return {
    predicted: result.state,
    comparison: compareStates(real, result.state, reachedBy(result.action)),
    ...(result.confidence ? { confidence: result.confidence } : {}),
    result,
  };
}

/** A predicted state in the CLI's state shape (`ndb debug --engine neural --json`), with the
 * model's confidence: `confidence` for the whole state (0 for one it could not write), and
 * `confidence_fields` (event and line, each local, the value) beside it. */
export function predictedState(p: ParseResult, confidence?: Confidence): Record<string, unknown> {
  return { ...stateShape(p), predicted: true, ...confidenceFields(confidence ?? NO_CONFIDENCE) };
}

function stateShape(p: ParseResult): Record<string, unknown> {
  if ('unparseable' in p) return { event: 'unparseable', reason: p.unparseable };
  if (p.event === 'entry') return { event: 'entry' };
  if (p.event === 'exit') return p.message === undefined ? { event: 'exit', status: p.status } : { event: 'exit', status: p.status, message: p.message };
  const out: Record<string, unknown> = { event: p.event, line: p.line, locals: p.locals ?? {} };
  if (p.value !== undefined) out.value = p.value;
  if (p.raising) out.raising = true;
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function confidenceFields(c: Confidence): { confidence: number; confidence_fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = { position: round(c.position), locals: Object.fromEntries(Object.entries(c.locals).map(([k, v]) => [k, round(v)])) };
  if (c.value !== undefined) fields.value = round(c.value);
  return { confidence: round(c.state), confidence_fields: fields };
}

/** A state the model did not predict (the first stop, an edit): the real one, marked
 * `predicted: false`, so certain. */
function given(real: DebugState): Record<string, unknown> {
  const locals = 'locals' in real ? Object.fromEntries(Object.keys(real.locals).map((k) => [k, 1])) : {};
  return { ...real, predicted: false, confidence: 1, confidence_fields: { position: 1, locals } };
}

/** A stop in the shape `ndb debug --json` prints for the engine: the real state; the model's
 * (`neural`); or both side by side (`both`). A stop the model did not predict (the first one, an
 * edit) is the real state in every shape. */
export function cliState(engine: 'real' | NeuralMode, real: DebugState, step?: FollowedStep, edit = false): unknown {
  if (engine === 'real') return real;
  if (!step) {
    if (engine === 'neural') return given(real);
    return edit ? { real, neural: given(real), match: true, edit: true } : { real, neural: given(real), match: true };
  }
  if (engine === 'neural') return predictedState(step.predicted, step.confidence);
  return { real, neural: predictedState(step.predicted, step.confidence), match: step.comparison.match, fields: step.comparison.fields };
}
