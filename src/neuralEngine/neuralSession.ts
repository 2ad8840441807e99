// The neural engine's side of a debugging session: it keeps the trajectory text the model reads
// and asks for the state after each action. In "compare" use the real state is appended after
// each prediction (one-step predictions); in "neural" use the model goes on from its own output.

import { isInverse, type Action } from '../core/actions';
import {
  elisionBase,
  formatStateAt,
  parseState,
  promptForNext,
  renderAction,
  renderContext,
  renderState,
  sourceLines,
  TOKENS,
  type ParseResult,
} from '../core/format';
import { sourceNames, stateLimits } from '../core/stateGuard';
import type { Position, Recording } from '../core/trace';
import type { CompleteOptions, Completion, StatePredictor } from './predictor';

export interface Prediction extends Completion {
  action: Action;
  state: ParseResult;
}

function localsOf(state: ParseResult): Record<string, string> | null {
  if ('unparseable' in state || state.event === 'exit' || state.event === 'entry' || state.event === 'return') return null;
  return state.locals ?? null;
}

export interface NeuralSessionOptions {
  /** Stop a prediction as soon as its text can no longer become a state (default true); off only
   * to measure what that saves. */
  earlyStop?: boolean;
}

export class NeuralSession {
  private text: string;
  private previousLocals: Record<string, string> | null;
  private previousPosition: Position | null;
  private readonly lines: string[];
  /** The program's names: what bounds the locals of any state it can have. */
  private names: Set<string>;
  private readonly earlyStop: boolean;
  /** Where the newest state starts in `text`, the action that led to it and the position before
   * it: what a what-if edit needs to write that state again. */
  private last: { start: number; action: Action | null; before: Position | null };

  /** Starts from a real state of the recording (the first stop, or wherever the user is). */
  constructor(
    private readonly predictor: StatePredictor,
    private recording: Recording,
    start: Position,
    private breakpoints: readonly number[] = [],
    options: NeuralSessionOptions = {},
  ) {
    this.lines = sourceLines(recording.source);
    this.names = sourceNames(recording.source);
    this.earlyStop = options.earlyStop ?? true;
    const first = formatStateAt(recording, start);
    const context = renderContext(recording.source);
    this.text = context + renderState(this.lines, first);
    this.last = { start: context.length, action: null, before: null };
    this.previousLocals = 'locals' in first && first.event !== 'return' ? first.locals : null;
    this.previousPosition = start;
  }

  setBreakpoints(breakpoints: readonly number[]): void {
    this.breakpoints = [...breakpoints];
  }

  /** The trajectory text the model reads (without <|trace_end|>). */
  get trajectory(): string {
    return this.text;
  }

  /** The prompt the model reads to predict the state after `action`. */
  promptFor(action: Action): string {
    return promptForNext(this.text, action, this.breakpoints);
  }

  /** The state after `action`; the history is left as it is (accept* adds to it). With a
   * temperature the state is sampled: call it k times for k candidates. */
  async predict(action: Action, options: CompleteOptions = {}): Promise<Prediction> {
    const prompt = this.promptFor(action);
    const guard = this.earlyStop ? stateLimits(this.names, this.previousLocals) : null;
    const completion = await this.predictor.complete(prompt, { ...options, guard });
    const state: ParseResult =
      completion.refused !== undefined ? { unparseable: `stopped early: ${completion.refused}` } : parseState(completion.text, this.previousLocals);
    return { ...completion, action, state };
  }

  /** Compare use: the real state at `position` becomes the history. */
  acceptReal(action: Action, position: Position): void {
    this.text += renderAction(action, this.breakpoints);
    this.last = { start: this.text.length, action, before: this.previousPosition };
    this.writeRealState(position);
  }

  /** What-if: the program was run again with an edit at `position` (the current stop). The newest
   * state of the history becomes the edited real state, so the model goes on from it; later real
   * states come from `recording`. */
  acceptEdit(recording: Recording, position: Position): void {
    this.recording = recording;
    this.names = sourceNames(recording.source);
    this.text = this.text.slice(0, this.last.start);
    this.writeRealState(position);
  }

  private writeRealState(position: Position): void {
    const state = formatStateAt(this.recording, position);
    const { action, before } = this.last;
    this.text += renderState(
      this.lines,
      state,
      action ? { inverse: isInverse(action), elideAgainst: elisionBase(this.recording, before, position, action) } : {},
    );
    this.previousLocals = 'locals' in state && state.event !== 'return' ? state.locals : null;
    this.previousPosition = position;
  }

  /** Neural use: the model's own prediction becomes the history. */
  acceptPredicted(prediction: Prediction): void {
    this.text += renderAction(prediction.action, this.breakpoints);
    this.last = { start: this.text.length, action: prediction.action, before: this.previousPosition };
    this.text += TOKENS.frameSep + prediction.text;
    this.previousLocals = localsOf(prediction.state);
    this.previousPosition = null;
  }
}
