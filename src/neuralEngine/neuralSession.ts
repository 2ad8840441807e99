// The neural engine's side of a debugging session: it keeps the trajectory text the model reads
// and asks for the state after each action. In "compare" use the real state is appended after
// each prediction (one-step predictions); in "neural" use the model goes on from its own output.
//
// A long session outgrows what the model was trained on (its windows start at a trajectory's
// context and end after `trainedContext` tokens): past that, positions were never trained and
// predictions fall apart (and past `maxPositions` the model cannot run at all). Before a prompt
// would get there, the history starts again from its newest readable state, written in full as a
// trajectory's first state is: a prompt the model knows. In neural use that is the model's own
// state, never the real one.

import { isInverse, type Action } from '../core/actions';
import { parseState, renderAction, renderContext, renderState, sourceLines, type FormatState, type ParseResult } from '../core/format';
import { TOKENS } from '../core/stateGrammar';
import { elisionBase, formatStateAt, promptForNext } from '../core/trajectory';
import { confidenceOf, NO_CONFIDENCE, stateScores, type Confidence, type StateScores } from '../core/confidence';
import { stateConstraints } from '../core/stateConstraints';
import { sourceNames, stateLimits } from '../core/stateGuard';
import { fileIndexOf } from '../core/location';
import { nameTable } from '../core/names';
import type { Position, ProgramShape, Recording } from '../core/trace';
import type { CompleteOptions, Completion, StatePredictor } from './predictor';
import { composeJump, type ComposedKind } from './composeJump';

export interface Prediction extends Completion {
  action: Action;
  state: ParseResult;
  /** How sure the model is that the state, and each of its fields, is right (constrained
   * decoding only; an unreadable state, or one the decoder had to end, gets 0). */
  confidence?: Confidence;
  /** The raw scores the confidence comes from (what calibration is fitted on). */
  scores?: StateScores;
  /** Why the model cannot know this state: the step may run code it was never shown (the
   * program's other modules); its confidence is then held to "a guess" (issue 45). */
  unseen?: string;
  /** A jump composed of this many single steps (COMPOSED_ACTIONS); `ms` is theirs together. */
  composedSteps?: number;
}

/** The jumps the session composes of single steps rather than predicting at once: where that
 * measured better in the app's own use (`ndb eval jumps --action all` on the 12 teaching
 * programs, issue 45 item 5; docs/cli.md). Continue as a class uses it (159 presses, a breakpoint
 * on the first line of every function's and loop's body): 25 right composed against 14 at once
 * (trivial answer 12; 19 right only composed, 8 only at once). Step over (51 of the trajectories,
 * 24 of a class) and Step out (53): 6 against 6, 2 against 4, 7 against 6: no gain, so they are
 * predicted at once. The composed confidence is the product of the steps' (the chance that every
 * step is right, were they independent), not their smallest: on those Continues it was 0.18 on
 * average where 0.16 were right (the smallest: 0.21), Brier 0.083 against 0.092. */
export const COMPOSED_ACTIONS: readonly ComposedKind[] = ['continue'];

/** The most single steps a composed jump takes before the jump is predicted at once instead: a
 * class's Continue took 3.0 on average, and a cap of 8 scored as 30 did (25 of 159). */
export const COMPOSE_MAX_STEPS = 8;

/** The most a prediction may claim where the step can run code the model was not shown: below
 * "likely" (confidenceWords: "a guess" under 0.5). */
export const UNSEEN_CONFIDENCE = 0.3;

const JUMPS = new Set<Action['kind']>(['step_over', 'step_return', 'continue', 'breakpoint', 'inv_step_over', 'inv_step_call']);

/** Why a prediction of `action` from `position` cannot be known from what the model reads (only
 * the main file's source): in a program of several recorded files, a stop in another file, a jump
 * (it may pass through another module's code and stop there), or a step into a line that calls
 * something (the call may enter another module). Null where the model has seen all it needs. */
export function unseenCode(rec: Recording, position: Position | null, action: Action, lines: readonly string[]): string | null {
  const modules = rec.files ? rec.files.length - 1 : 0;
  if (modules <= 0) return null;
  const here = position !== null && position >= 0 && position < rec.events.length ? rec.events[position] : undefined;
  if (position === null || (here && fileIndexOf(rec, here) !== 0)) return "the stop is in a module whose source the model is not shown";
  if (JUMPS.has(action.kind)) return "the step can run the program's other modules, whose source the model is not shown";
  if (action.kind === 'step_into' && here && /\w\s*\(/.test(lines[here.line - 1] ?? '')) {
    return "the line calls something that may be in another module, whose source the model is not shown";
  }
  return null;
}

/** `c` held to at most `cap`, whole and per field. */
function capped(c: Confidence, cap: number): Confidence {
  const locals: Record<string, number> = nameTable();
  for (const [k, v] of Object.entries(c.locals)) locals[k] = Math.min(v, cap);
  return { state: Math.min(c.state, cap), position: Math.min(c.position, cap), locals, ...(c.value !== undefined ? { value: Math.min(c.value, cap) } : {}) };
}

function localsOf(state: ParseResult): Record<string, string> | null {
  if ('unparseable' in state || state.event === 'exit' || state.event === 'entry' || state.event === 'return') return null;
  return state.locals ?? null;
}

/** The newest state in full, to start the history again from; null for an unreadable one. */
function fullState(state: ParseResult): FormatState | null {
  if ('unparseable' in state) return null;
  if (state.event === 'exit' || state.event === 'entry') return state;
  const full: FormatState = { event: state.event, line: state.line, locals: state.locals ?? {} };
  if (state.value !== undefined) full.value = state.value;
  if (state.raising) full.raising = true;
  return full;
}

/** The longest prompt, in tokens: the trained context when the config names it (the state then
 * written may run past it: on the generator's held-out split, keeping room for it within the
 * context scored lower, 61.8 % of states exact against 62.7 %, and no window 61.9 %); else the
 * positions the model can run at all, less room for the longest state it may write. */
export function promptLimit(predictor: StatePredictor): number | null {
  const { trainedContext, maxPositions } = predictor.lm.shape;
  if (trainedContext !== undefined) return trainedContext;
  return maxPositions !== undefined ? maxPositions - predictor.maxNewTokens : null;
}

export type DecoderKind = 'constrained' | 'greedy';

export interface NeuralSessionOptions {
  /** Stop a prediction as soon as its text can no longer become a state (default true); off only
   * to measure what that saves. */
  earlyStop?: boolean;
  /** `constrained` (default): only states the program can have are written, and what the program
   * fixes is written without the model (neuralEngine/constrainedDecoding.ts); `greedy`: the top
   * token at each step, stopped by the guard (what decoding was before, kept to measure against). */
  decoder?: DecoderKind;
  /** Start the history again from its newest state before a prompt outgrows the model's trained
   * context, or its positions for a config that names no trained context (default true). */
  window?: boolean;
  /** The jumps composed of single steps (default COMPOSED_ACTIONS); [] predicts every jump at once
   * (what `eval jumps` measures composition against). */
  compose?: readonly ComposedKind[];
  /** Constrained decoding: hold each local's name to the names the stop's frame can hold (the
   * program shape's `frames`, stateConstraints.namesAt) (default true); off only to measure what
   * that gains (`ndb eval trajectories --frame-names both`, issue 45 item 4). */
  frameNames?: boolean;
}

/** A state written in the history: where its action begins in the text (the state itself for
 * the first), and the state in full (null for an unreadable prediction: the history cannot start
 * again there). */
interface Written {
  actionStart: number;
  full: FormatState | null;
}

export class NeuralSession {
  private text: string;
  private previousLocals: Record<string, string> | null;
  private previousPosition: Position | null;
  private readonly lines: string[];
  /** The program's names: what bounds the locals of any state it can have. */
  private names: Set<string>;
  private readonly earlyStop: boolean;
  private readonly decoder: DecoderKind;
  private readonly frameNames: boolean;
  private readonly compose: ReadonlySet<string>;
  /** Where the newest state starts in `text`, the action that led to it and the position before
   * it: what a what-if edit needs to write that state again. */
  private last: { start: number; action: Action | null; before: Position | null };
  private readonly context: string;
  /** Every state of `text`, the first included, in order. */
  private written: Written[];
  /** The longest prompt the model reads before the history starts again (null: no limit). */
  private readonly promptLimit: number | null;
  /** How many times the history started again. */
  restarts = 0;

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
    this.decoder = options.decoder ?? 'constrained';
    this.frameNames = options.frameNames ?? true;
    this.compose = new Set(options.compose ?? COMPOSED_ACTIONS);
    this.promptLimit = (options.window ?? true) ? promptLimit(predictor) : null;
    const first = formatStateAt(recording, start);
    this.context = renderContext(recording.source);
    this.text = this.context + renderState(this.lines, first);
    this.written = [{ actionStart: this.context.length, full: first }];
    this.last = { start: this.context.length, action: null, before: null };
    this.previousLocals = 'locals' in first && first.event !== 'return' ? first.locals : null;
    this.previousPosition = start;
  }

  /** An independent copy at the same point of the history: what a composed jump takes its steps
   * on (composeJump.ts), leaving this session's history as it is. */
  fork(): NeuralSession {
    const copy = Object.create(NeuralSession.prototype) as NeuralSession;
    Object.assign(copy, this);
    copy.written = [...this.written];
    copy.last = { ...this.last };
    return copy;
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
    // Continue with no breakpoint runs to the end: nothing a few steps reach (and never measured)
    const composes = this.compose.has(action.kind) && !options.temperature && (action.kind !== 'continue' || this.breakpoints.length > 0);
    if (composes) return this.predictComposed(action.kind as ComposedKind, options);
    return this.predictOnce(action, options);
  }

  /** The state after `action` in one prediction. */
  private async predictOnce(action: Action, options: CompleteOptions): Promise<Prediction> {
    const { prompt, ids } = this.fitPrompt(action);
    const guard = this.earlyStop ? stateLimits(this.names, this.previousLocals) : null;
    const constraints =
      guard && this.decoder === 'constrained'
        ? stateConstraints(action, this.breakpoints, this.recording.source, this.shape(), new Set([...this.names, ...Object.keys(this.previousLocals ?? {})]))
        : null;
    const completion = await this.predictor.complete(prompt, { ...options, guard, constraints, ...(ids ? { promptIds: ids } : {}) });
    const state: ParseResult =
      completion.refused !== undefined ? { unparseable: `stopped early: ${completion.refused}` } : parseState(completion.text, this.previousLocals);
    if (!completion.chosen) return { ...completion, action, state };
    const unsure = 'unparseable' in state || completion.closedEarly;
    const scores = stateScores(completion.chosen, completion.keys ?? [], state);
    const unseen = unseenCode(this.recording, this.previousPosition, action, this.lines);
    const confidence = unsure ? NO_CONFIDENCE : unseen ? capped(confidenceOf(scores, this.predictor.calibration), UNSEEN_CONFIDENCE) : confidenceOf(scores, this.predictor.calibration);
    return { ...completion, action, state, confidence, ...(unsure ? {} : { scores }), ...(unseen ? { unseen } : {}) };
  }

  /** The state after a jump composed of single steps on a fork of this session (composeJump.ts),
   * written as the jump's own answer: its locals in full, as a Continue's state is written; its
   * confidence the product of the steps' (each field: the last step's times the earlier steps'
   * whole-state confidences; see COMPOSED_ACTIONS). Where the steps reach no stop within
   * COMPOSE_MAX_STEPS (or, in the app, within the time one state may take), or the last is
   * unreadable, the jump is predicted at once instead. */
  private async predictComposed(kind: ComposedKind, options: CompleteOptions): Promise<Prediction> {
    const action: Action = { kind };
    const startEvent = this.written.at(-1)?.full?.event ?? 'line';
    // the app's time for one state (predictor.maxMs) bounds the steps together, as it bounds one state
    const composed = await composeJump(this.fork(), kind, this.breakpoints, COMPOSE_MAX_STEPS, startEvent, this.predictor.maxMs);
    const last = composed.last;
    const full = last ? fullState(last.state) : null;
    if (!composed.reached || !last || !full || !last.confidence) return this.predictOnce(action, options);
    const earlier = composed.confidences.slice(0, -1).reduce((a, b) => a * b, 1);
    const c = last.confidence;
    const locals: Record<string, number> = nameTable();
    for (const [k, v] of Object.entries(c.locals)) locals[k] = v * earlier;
    let confidence: Confidence = { state: c.state * earlier, position: c.position * earlier, locals, ...(c.value !== undefined ? { value: c.value * earlier } : {}) };
    const unseen = unseenCode(this.recording, this.previousPosition, action, this.lines);
    if (unseen) confidence = capped(confidence, UNSEEN_CONFIDENCE);
    const text = renderState(this.lines, full).slice(TOKENS.frameSep.length);
    // the raw scores are the last step's, not the jump's: left out, so calibration never fits on them
    const { scores: _scores, unseen: _unseen, ...rest } = last;
    return { ...rest, action, text, confidence, composedSteps: composed.steps, ms: composed.ms, ...(unseen ? { unseen } : {}) };
  }

  /** The program's shape the decoder is held to: without its frames when `frameNames` is off. */
  private shape(): ProgramShape | undefined {
    const shape = this.recording.program;
    if (!shape || this.frameNames) return shape;
    return { lines: shape.lines, calls: shape.calls };
  }

  /** The prompt for `action`, after starting the history again at its newest readable state if
   * the prompt would outgrow the trained context. (Keeping more of the history, up to half of the
   * room, left more predictions unreadable: measured in the closing note of issue 15.) */
  private fitPrompt(action: Action): { prompt: string; ids?: number[] } {
    const prompt = this.promptFor(action);
    const limit = this.promptLimit;
    // A token spans at least one character: a prompt of fewer characters than the limit fits.
    if (limit === null || prompt.length <= limit || this.written.length < 2) return { prompt };
    // The ids counted here are the ones the model reads: never encoded twice.
    const ids = this.predictor.encode(prompt);
    if (ids.length <= limit) return { prompt, ids };
    for (let at = this.written.length - 1; at >= 1; at--) {
      const full = this.written[at]!.full;
      if (!full) continue;
      this.restartAt(at, this.context + renderState(this.lines, full), this.written[at + 1]?.actionStart ?? this.text.length);
      return { prompt: this.promptFor(action) };
    }
    return { prompt, ids };
  }

  /** The history from `written[at]` on, that state written in full (`head`) as the first one. */
  private restartAt(at: number, head: string, end: number): void {
    const shift = head.length - end;
    const newest = at === this.written.length - 1;
    this.text = head + this.text.slice(end);
    this.written = [
      { actionStart: this.context.length, full: this.written[at]!.full },
      ...this.written.slice(at + 1).map((w) => ({ ...w, actionStart: w.actionStart + shift })),
    ];
    this.last = newest ? { start: this.context.length, action: null, before: null } : { ...this.last, start: this.last.start + shift };
    this.restarts++;
  }

  /** Compare use: the real state at `position` becomes the history. */
  acceptReal(action: Action, position: Position): void {
    const actionStart = this.text.length;
    this.text += renderAction(action, this.breakpoints);
    this.last = { start: this.text.length, action, before: this.previousPosition };
    this.writeRealState(position, actionStart);
  }

  /** What-if: the program was run again with an edit at `position` (the current stop). The newest
   * state of the history becomes the edited real state, so the model goes on from it; later real
   * states come from `recording`. */
  acceptEdit(recording: Recording, position: Position): void {
    this.recording = recording;
    this.names = sourceNames(recording.source);
    const edited = this.written.pop()!;
    this.text = this.text.slice(0, this.last.start);
    this.writeRealState(position, edited.actionStart);
  }

  private writeRealState(position: Position, actionStart: number): void {
    const state = formatStateAt(this.recording, position);
    const { action, before } = this.last;
    this.text += renderState(
      this.lines,
      state,
      action ? { inverse: isInverse(action), elideAgainst: elisionBase(this.recording, before, position, action) } : {},
    );
    this.written.push({ actionStart, full: state });
    this.previousLocals = 'locals' in state && state.event !== 'return' ? state.locals : null;
    this.previousPosition = position;
  }

  /** Neural use: the model's own prediction becomes the history. */
  acceptPredicted(prediction: Prediction): void {
    const actionStart = this.text.length;
    this.text += renderAction(prediction.action, this.breakpoints);
    this.last = { start: this.text.length, action: prediction.action, before: this.previousPosition };
    this.text += TOKENS.frameSep + prediction.text;
    this.written.push({ actionStart, full: fullState(prediction.state) });
    this.previousLocals = localsOf(prediction.state);
    this.previousPosition = null;
  }
}
