// One live debugging session of the long-running front ends (`ndb dap`, `ndb mcp`): the real
// session, the model beside it when it is on, breakpoints that change while stopped, what-if
// edits, and the questions a debugger UI asks at a stop (evaluate, predict, guess the inputs).
// The CLI's `ndb debug` is the same thing run once over a list of actions.

import type { Action, Move, MoveStep } from '../core/actions';
import { compareStates, reachedBy, type StateComparison } from '../core/compare';
import { NO_CONFIDENCE, type Confidence } from '../core/confidence';
import { RecordingSession } from '../core/recordingSession';
import type { ParseResult } from '../core/format';
import type { BreakCondition } from '../core/navigator';
import { frameEvents, shownState, stateAt, type DebugState } from '../core/state';
import type { Position, Recording, WatchValue } from '../core/trace';
import { EditError, type Edit } from '../core/whatIf';
import { LocalModelHistory } from '../neuralEngine/modelHistory';
import type { StatePredictor } from '../neuralEngine/predictor';
import type { PythonHost } from '../realEngine/engineProtocol';
import type { RecordOptions } from '../realEngine/recordOptions';
import { checkGuesses, guessProblem, type Candidate, type GuessReport } from './guesses';
import { cliState, NeuralFollower, type FollowedStep } from './neuralFollower';
import type { ProgramFiles } from './breakpointSpecs';
import type { ExceptionMode } from './exceptionStops';
import { followedAction, makeMove, travel, type MoveStop, type SessionMove } from './moves';
import { ProgramError, startProblem } from './programSession';
import { LIVE_LIMITS, type RunLimits } from '../core/limits';
import { own } from '../core/names';

export type { Candidate, GuessReport };

export type EngineName = 'real' | 'neural' | 'both';

/** What a session's every run is given: its limits, its input and arguments, its other files. */
type RunLimit = 'maxEvents' | 'timeLimit' | 'maxRepr' | 'modules' | 'stdin' | 'objects' | 'heap' | 'files' | 'blobs' | 'mainFile' | 'argv';

export const ENGINES: readonly EngineName[] = ['real', 'neural', 'both'];

/** What every run of a live session gets, as in the app (core/limits.ts). */
export { LIVE_LIMITS };

/** The model, for engines `neural` and `both` (and for predictions asked of a real session). */
export interface LiveModel {
  predictor: StatePredictor;
}

export interface LiveOptions {
  engine: EngineName;
  breakpoints?: readonly number[];
  conditions?: ReadonlyMap<number, BreakCondition>;
  model?: LiveModel;
  /** Names the program in a syntax error's message. */
  file?: string;
  /** The program's folder on the host (a breakpoint may name a file by its absolute path). */
  folder?: string;
  /** Stops where exceptions are raised (session/exceptionStops.ts); default none. */
  exceptions?: ExceptionMode;
  limits?: Partial<Pick<RecordOptions, RunLimit>>;
  /** Watch expressions every run evaluates at every event (the recording's `watch`). */
  watch?: readonly string[];
}

/** A request the session cannot answer where it stands (the session is unchanged). */
export class SessionError extends Error {}

export interface Predicted {
  predicted: ParseResult;
  real: DebugState;
  comparison: StateComparison;
  /** How sure the model is of `predicted` (0 for a state it could not write). */
  confidence: Confidence;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class LiveSession {
  readonly real: RecordingSession;
  private follower: NeuralFollower | null = null;
  /** The model's state for the current stop, when the move here was predicted. */
  private lastStep: FollowedStep | undefined;
  private lastWasEdit = false;
  private breakLines: number[];
  private conditions: Map<number, BreakCondition>;
  /** Watch re-runs of the current recording, by expression. */
  private watched = new Map<string, Recording>();
  private watchedFor: Recording | null = null;
  private readonly limits: Pick<RecordOptions, RunLimit>;
  /** The watch expressions the recording was made with (event.watch follows their order). */
  private watchList: string[];
  private readonly folder: string | undefined;
  private exceptionMode: ExceptionMode;
  /** The last move stopped where an exception was raised (an exception stop, not the action's). */
  private stoppedByException = false;

  private constructor(
    /** The engine as this session's owner sees it (one owner, one interpreter). */
    readonly host: PythonHost,
    readonly source: string,
    readonly call: string,
    rec: Recording,
    readonly engine: EngineName,
    options: LiveOptions,
  ) {
    this.limits = { ...LIVE_LIMITS, ...options.limits };
    this.breakLines = [...new Set(options.breakpoints ?? [])].sort((a, b) => a - b);
    this.conditions = new Map(options.conditions ?? []);
    this.watchList = [...(options.watch ?? [])];
    this.folder = options.folder;
    this.exceptionMode = options.exceptions ?? 'none';
    this.real = new RecordingSession(rec, this.breakLines, this.conditions);
  }

  /** The event budget and the time limit every run of this session gets. */
  get runLimits(): RunLimits {
    return { maxEvents: this.limits.maxEvents ?? LIVE_LIMITS.maxEvents, timeLimit: this.limits.timeLimit ?? LIVE_LIMITS.timeLimit };
  }

  /** Records the program as it is, whatever its end (a syntax error, a bad call, a condition that
   * does not parse): the app shows those where they happened. */
  static async record(host: PythonHost, source: string, call: string, options: LiveOptions): Promise<LiveSession> {
    return LiveSession.fromRecording(host, source, call, await host.record(source, call, LiveSession.firstRunOptions(options)), options);
  }

  /** What the first run of a session is recorded with (for a caller that records it itself). */
  static firstRunOptions(options: LiveOptions): RecordOptions {
    const watch = options.watch?.length ? { watch: options.watch } : {};
    return { ...LIVE_LIMITS, ...options.limits, ...watch, conditions: conditionTexts(options.conditions ?? new Map()) };
  }

  /** A session over a recording made with `firstRunOptions(options)` (the engine model-less). */
  static fromRecording(host: PythonHost, source: string, call: string, rec: Recording, options: LiveOptions): LiveSession {
    return new LiveSession(host, source, call, rec, options.engine, options);
  }

  /** Records the program; throws ProgramError when it cannot start (syntax error, bad call). */
  static async start(host: PythonHost, source: string, call: string, options: LiveOptions): Promise<LiveSession> {
    const recorded = await LiveSession.record(host, source, call, options);
    const rec = recorded.recording;
    if (rec.exit.status === 'edit_error') throw new ProgramError(rec.exit.message ?? 'a breakpoint condition is not a Python expression');
    const problem = startProblem(rec, options.file);
    if (problem) throw new ProgramError(problem);
    // e.g. a call of a name the program does not define: there is no stop to show.
    if (rec.events.length === 0 && rec.exit.status !== 'normal') throw new ProgramError(rec.exit.message ?? `the program ended at once (${rec.exit.status})`);
    const live = recorded;
    if (options.engine !== 'real') {
      if (!options.model) throw new Error(`engine '${options.engine}' needs a model`);
      live.follower = await NeuralFollower.start(new LocalModelHistory(options.model.predictor), options.engine, live.real, live.breakLines);
    }
    return live;
  }

  /** Whether the model follows the session (engines neural and both). */
  get followed(): boolean {
    return this.follower !== null;
  }

  get state(): DebugState {
    return this.real.state;
  }

  get position(): Position {
    return this.real.position;
  }

  get recording(): Recording {
    return this.real.recording;
  }

  /** Breakpoint keys (core/location.ts: in the main file, line numbers). */
  get breakpoints(): readonly number[] {
    return this.breakLines;
  }

  /** The program's files, as breakpoints name them. */
  get program(): ProgramFiles {
    return {
      main: this.limits.mainFile ?? 'main.py',
      source: this.source,
      ...(this.limits.files ? { files: this.limits.files } : {}),
      ...(this.folder ? { folder: this.folder } : {}),
    };
  }

  /** The model's prediction of the current stop, when it was predicted. */
  get prediction(): FollowedStep | undefined {
    return this.lastStep;
  }

  /** The current stop in the shape `ndb debug --json` prints for this engine. */
  cliState(): unknown {
    // as the faces show a stop: the module's start at its first line, a method by its qualified name
    return cliState(this.engine, shownState(this.recording, this.position, this.real.state), this.lastStep, this.lastWasEdit);
  }

  /** The watch expressions the recording was made with. */
  get watches(): readonly string[] {
    return this.watchList;
  }

  /** The edits the current recording was made with. */
  get edits(): readonly Edit[] {
    return this.real.history.edits;
  }

  /** Where `move` would stop from here and why (session/moves.ts), with `breakpoints` (default
   * the session's) as they would be set and exception stops in `exceptions`; nothing moves. */
  whereWould(move: SessionMove, breakpoints: readonly number[] = this.breakLines, exceptions: ExceptionMode = this.exceptionMode): MoveStop & { position: Position; recording: Recording } {
    const fork = this.real.fork();
    syncBreakLines(fork, breakpoints, this.conditions);
    const stop = makeMove(fork, move, exceptions);
    return { ...this.asShown(stop), position: fork.position, recording: fork.recording };
  }

  /** Whether `move` would move the debugger from here (a button that would not is disabled),
   * with `breakpoints` (default the session's) as they would be set. */
  canDo(move: Move, breakpoints: readonly number[] = this.breakLines): boolean {
    if (this.recording.events.length === 0) return false;
    const fork = this.real.fork();
    syncBreakLines(fork, breakpoints, this.conditions);
    travel(fork, move, this.exceptionMode);
    return fork.position !== this.position || fork.recording !== this.recording;
  }

  /** Records the program again evaluating `watch` at every event, at the same stop; throws
   * SessionError (nothing changed) when a run fails. */
  async setWatches(watch: readonly string[]): Promise<void> {
    const before = this.watchList;
    this.watchList = [...watch];
    try {
      await this.rerecord();
    } catch (err) {
      this.watchList = before;
      throw err;
    }
  }

  /** The same run recorded again (conditions or watches changed): the states stay the same. */
  private async rerecord(): Promise<void> {
    await this.real.rerecord(async (edits) => {
      const rec = await this.rerun(edits);
      if (rec.exit.status === 'edit_error') throw new SessionError(rec.exit.message ?? 'the program could not run with it');
      return rec;
    });
    this.follower?.rerecorded(this.real);
  }

  /** Where exceptions stop (none, raised, uncaught). */
  get exceptions(): ExceptionMode {
    return this.exceptionMode;
  }

  setExceptions(mode: ExceptionMode): void {
    this.exceptionMode = mode;
  }

  /** Whether the last move stopped where an exception was raised, before its action's own stop
   * (no model action went there). Whether a stop is an exception stop however it was reached is
   * the reason its move gives (move, session/moves.ts). */
  get atExceptionStop(): boolean {
    return this.stoppedByException;
  }

  /** A move of the debugger, every face's: an action, reverse continue, back to an outer frame's
   * call, or pdb's until; where it stopped and why (session/moves.ts). With the model on, an action
   * (until where it is step_over) is predicted first; an exception stop that comes first is where it
   * stops, and a move that is no model action goes there by a jump: the model starts again from the
   * stop. */
  async move(move: SessionMove): Promise<MoveStop> {
    // what the model follows (worked out only where one follows: for until it navigates twice)
    const action = this.follower ? followedAction(this.real, move) : null;
    const stop = makeMove(this.real, move, this.exceptionMode);
    this.stoppedByException = stop.byException;
    if (action && !stop.byException) this.lastStep = this.follower ? ((await this.follower.follow(action, this.real)) ?? undefined) : undefined;
    else {
      await this.follower?.restart(this.real);
      this.lastStep = undefined;
    }
    this.lastWasEdit = false;
    return this.asShown(stop);
  }

  /** With engine neural the stop shown is the model's: no breakpoint of the real one is said hit. */
  private asShown(stop: MoveStop): MoveStop {
    if (this.engine !== 'neural' || !stop.breakpointHit) return stop;
    return { ...stop, breakpointHit: false, reason: stop.reason === 'breakpoint' ? 'step' : stop.reason };
  }

  /** What-if: `name = expr` at the current stop (throws EditError, the session unchanged). */
  async edit(name: string, expr: string): Promise<void> {
    await this.real.edit(name, expr, this.rerun);
    this.stoppedByException = false;
    await this.follower?.edited(this.real);
    this.lastStep = undefined;
    this.lastWasEdit = true;
  }

  /** A move, or a what-if edit (no move: null). */
  async step(step: MoveStep): Promise<MoveStop | null> {
    if (step.kind !== 'set') return this.move(step);
    await this.edit(step.name, step.expr);
    return null;
  }

  /** A move that is no single model action (reverse continue, back to an outer frame's call). */
  async jump(pos: Position): Promise<void> {
    this.stoppedByException = false;
    this.real.jump(pos);
    await this.follower?.restart(this.real);
    this.lastStep = undefined;
    this.lastWasEdit = false;
  }

  /** Replaces the breakpoint lines, their conditions as they are (no run needed); a breakpoint
   * set while stopped behaves as pdb's `break`. */
  setBreakLines(lines: readonly number[]): void {
    const next = [...new Set(lines)].sort((a, b) => a - b);
    for (const line of [...this.conditions.keys()]) if (!next.includes(line)) this.conditions.delete(line);
    syncBreakLines(this.real, next, this.conditions);
    this.breakLines = next;
    this.follower?.setBreakpoints(next);
  }

  /** The condition of a breakpoint line. */
  conditionOf(line: number): BreakCondition | undefined {
    return this.conditions.get(line);
  }

  /** A link's edit, made again where its sender made it; throws EditError when it cannot be. */
  async replayEdit(edit: Edit): Promise<void> {
    this.real.jump(edit.at);
    if (this.real.position !== edit.at) throw new EditError(`the program has no stop ${edit.at}`);
    await this.edit(edit.name, edit.expr);
  }

  /** Replaces the breakpoints; a breakpoint set while stopped behaves as pdb's `break`. When the
   * conditions change the program is recorded again (the recording holds where they are true);
   * if that fails (a condition that does not parse) nothing changes. */
  async setBreakpoints(lines: readonly number[], conditions: ReadonlyMap<number, BreakCondition>): Promise<void> {
    const next = [...new Set(lines)].sort((a, b) => a - b);
    const oldTexts = JSON.stringify(conditionTexts(this.conditions));
    const oldConditions = this.conditions;
    this.conditions = new Map([...conditions].filter(([line]) => next.includes(line)));
    if (JSON.stringify(conditionTexts(this.conditions)) !== oldTexts) {
      try {
        await this.rerecord();
      } catch (err) {
        this.conditions = oldConditions;
        throw err;
      }
    }
    // The re-run may have replaced the navigator: take it now.
    syncBreakLines(this.real, next, this.conditions);
    this.breakLines = next;
    this.follower?.setBreakpoints(next);
  }


  /** `expr` in the frame of event `at` (the stop's own frame, or a caller's: frameEvents gives
   * each frame's event), as it is at the stop: a local of the stop's frame's at once, anything else
   * by running the program again with the expression evaluated once, at the stop, in that frame
   * (pdb's `p expr`: what it changes is gone after; cached per recording, stop and frame). */
  async evaluate(expr: string, at: Position, statement = false): Promise<WatchValue> {
    const rec = this.recording;
    const e = rec.events[at];
    if (!e) throw new SessionError('there is no frame to evaluate in: the program has not started or has ended');
    const text = expr.trim();
    if (text === '') throw new SessionError('nothing to evaluate');
    // A caller's frame is evaluated at the stop (its objects as the call has changed them so far);
    // an event that is no frame of the current stop, at that event.
    const pos = this.position;
    const stop = pos !== at && pos >= 0 && pos < rec.events.length && frameEvents(rec, pos).some((f) => f.event === at) ? pos : at;
    const here = rec.events[stop]!;
    const local = !statement && stop === at && IDENTIFIER.test(text) ? own(e.locals, text) : undefined;
    if (local !== undefined) return { value: local };
    const bad = statement ? null : await this.host.expressionError(text);
    if (bad) return { error: bad };
    if (this.watchedFor !== rec) {
      this.watched.clear();
      this.watchedFor = rec;
    }
    const key = `${statement ? 'exec' : 'eval'}:${stop}:${e.frame}:${text}`;
    let run = this.watched.get(key);
    if (!run) {
      const { watch: _watches, ...options } = this.recordOptions(this.real.history.edits);
      run = await this.host.record(this.source, this.call, { ...options, evaluate: { at: stop, expr: text, frame: e.frame, ...(statement ? { statement } : {}) } });
      if (this.watched.size >= 64) this.watched.clear();
      this.watched.set(key, run);
    }
    if (run.exit.status === 'edit_error') return { error: run.exit.message ?? 'it could not be evaluated' };
    const w = run.events[stop];
    if (!w && (run.exit.status === 'budget' || run.exit.status === 'timeout')) {
      // Evaluating runs the program again up to this stop and the expression there: together they
      // can cost more than the run's limits; the limit is named, not taken for another run.
      const limit = run.exit.status === 'budget' ? `its event budget (${this.limits.maxEvents ?? LIVE_LIMITS.maxEvents} events)` : `its time limit (${this.limits.timeLimit ?? LIVE_LIMITS.timeLimit} s)`;
      return { error: `evaluating it runs the program again to this stop, and that run hit ${limit} before it had the value: ${run.exit.message ?? ''} (raise max_events or timeout_s)` };
    }
    if (!w || w.frame !== here.frame || w.line !== here.line || w.event !== here.event) {
      return { error: 'the program ran differently when it was run again to evaluate this (it is not deterministic)' };
    }
    return w.evaluated ?? { error: 'no value was recorded' };
  }

  /** What the model predicts for `action` from here, the real answer, and whether they agree;
   * nothing moves. A real session asks `model` from the current stop without a history. */
  async predict(action: Action, model?: LiveModel): Promise<Predicted> {
    let p: { state: ParseResult; confidence?: Confidence };
    if (this.follower) p = await this.follower.predict(action);
    else {
      if (!model) throw new SessionError('no model is loaded');
      const history = new LocalModelHistory(model.predictor);
      await history.begin(this.recording, this.position, this.breakLines);
      p = await history.peek(action, this.breakLines);
    }
    // the action's own stop, as the model is asked it (no exception stop before it)
    const at = this.whereWould(action, this.breakLines, 'none');
    const real = stateAt(at.recording, at.position);
    return { predicted: p.state, real, comparison: compareStates(real, p.state, reachedBy(action)), confidence: p.confidence ?? NO_CONFIDENCE };
  }

  /** At a return: `k` calls sampled from the model (inv_step_call), each built from the
   * predicted arguments as the function takes them (its parameters, in order; a method through
   * its predicted object) and run to see whether it returns the value observed here. */
  async guessInputs(model: LiveModel, k: number, temperature = 0.8): Promise<GuessReport> {
    const problem = guessProblem(this.recording, this.position);
    if (problem) throw new SessionError(problem);
    const history = new LocalModelHistory(model.predictor);
    await history.begin(this.recording, this.position, []);
    const samples = await history.sample(this.position, { kind: 'inv_step_call' }, k, temperature);
    return this.checkGuesses(samples.map((p) => p.state));
  }

  /** The calls that predicted states (sampled at this return by inv_step_call) make, each run to
   * see whether it returns the value observed here; `onChange` hears the verdicts as they come. */
  checkGuesses(predicted: readonly ParseResult[], onChange?: (candidates: readonly Candidate[]) => void): Promise<GuessReport> {
    return checkGuesses(this.host, { source: this.source, options: this.limits }, this.recording, this.position, predicted, onChange);
  }

  private readonly rerun = async (edits: readonly Edit[]): Promise<Recording> => {
    const rec = await this.host.record(this.source, this.call, this.recordOptions(edits));
    // A run stopped from outside (see processHost.ts) has no events to compare with.
    if (rec.events.length === 0 && rec.exit.status === 'timeout') throw new SessionError(rec.exit.message ?? 'the run was stopped');
    return rec;
  };

  private recordOptions(edits: readonly Edit[]): RecordOptions {
    return { ...this.limits, edits, conditions: conditionTexts(this.conditions), ...(this.watchList.length ? { watch: this.watchList } : {}) };
  }
}

/** Breakpoints set while stopped behave as pdb's `break` (see Navigator.addBreakpoint); a line
 * that is no breakpoint keeps no condition. */
function syncBreakLines(debug: RecordingSession, lines: readonly number[], conditions: ReadonlyMap<number, BreakCondition>): void {
  const nav = debug.navigator;
  for (const line of [...nav.breakpoints]) {
    if (lines.includes(line)) continue;
    nav.removeBreakpoint(line);
    nav.setCondition(line, undefined);
  }
  for (const line of lines) {
    if (!nav.breakpoints.has(line)) nav.addBreakpoint(line);
    nav.setCondition(line, conditions.get(line));
  }
}

function conditionTexts(conditions: ReadonlyMap<number, BreakCondition>): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [line, c] of conditions) if (c.condition) out[line] = c.condition;
  return out;
}
