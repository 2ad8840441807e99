// The neural engine beside a real debugging session: before each action it asks the model for
// the next state, then the real session moves. `both`: the model's history is the real one
// (one-step predictions); `neural`: the model goes on from its own predictions. Shared by
// `ndb debug --engine neural|both`, `ndb dap` and `ndb mcp`.

import type { Action } from '../core/actions';
import { compareStates, type StateComparison } from '../core/compare';
import type { DebugSession } from '../core/debugSession';
import { NO_CONFIDENCE, type Confidence } from '../core/confidence';
import type { ParseResult } from '../core/format';
import type { DebugState } from '../core/state';
import type { Recording } from '../core/trace';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { StatePredictor } from '../neuralEngine/predictor';

export type NeuralMode = 'neural' | 'both';

export interface FollowedStep {
  /** The model's state after the action. */
  predicted: ParseResult;
  /** It against the real state after the action. */
  comparison: StateComparison;
  /** How sure the model was of it (none with the greedy decoder). */
  confidence?: Confidence;
}

export class NeuralFollower {
  private session: NeuralSession;
  /** The recording the model's real states come from. */
  private recording: Recording;

  constructor(
    private readonly predictor: StatePredictor,
    real: DebugSession,
    readonly mode: NeuralMode,
    private breakpoints: readonly number[] = [],
  ) {
    this.recording = real.recording;
    this.session = new NeuralSession(predictor, real.recording, real.position, this.breakpoints);
  }

  /** Predicts the state after `action`, then moves `real` by it. */
  async act(real: DebugSession, action: Action): Promise<FollowedStep> {
    const predicted = await this.session.predict(action);
    real.apply(action);
    const comparison = compareStates(real.state, predicted.state);
    if (this.mode === 'neural') this.session.acceptPredicted(predicted);
    // Stepping back across a what-if edit changed the recording: its states are not the ones
    // the model's history was written from.
    else if (real.recording !== this.recording) this.restart(real);
    else this.session.acceptReal(action, real.position);
    return { predicted: predicted.state, comparison, ...(predicted.confidence ? { confidence: predicted.confidence } : {}) };
  }

  /** The model's state after `action` from here, and how sure it is; nothing moves. */
  async predict(action: Action): Promise<{ state: ParseResult; confidence?: Confidence }> {
    const p = await this.session.predict(action);
    return { state: p.state, ...(p.confidence ? { confidence: p.confidence } : {}) };
  }

  /** A what-if edit was made at the real stop: the model goes on from the edited state. */
  edited(real: DebugSession): void {
    this.session.acceptEdit(real.recording, real.position);
    this.recording = real.recording;
  }

  /** The real session moved by something that is no model action (a jump): the model starts
   * afresh from the real stop. */
  restart(real: DebugSession): void {
    this.recording = real.recording;
    this.session = new NeuralSession(this.predictor, real.recording, real.position, this.breakpoints);
  }

  /** The real program was recorded again with the same run (new breakpoint conditions): its
   * states are the ones the history holds. */
  rerecorded(real: DebugSession): void {
    this.recording = real.recording;
  }

  setBreakpoints(lines: readonly number[]): void {
    this.breakpoints = [...lines];
    this.session.setBreakpoints(this.breakpoints);
  }

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
