// One live debugging session of the long-running front ends (`ndb dap`, `ndb mcp`): the real
// session, the model beside it when it is on, breakpoints that change while stopped, what-if
// edits, and the questions a debugger UI asks at a stop (evaluate, predict, guess the inputs).
// The CLI's `ndb debug` is the same thing run once over a list of actions.

import type { Action, Step } from '../core/actions';
import { compareStates, type StateComparison } from '../core/compare';
import { NO_CONFIDENCE, type Confidence } from '../core/confidence';
import { DebugSession } from '../core/debugSession';
import type { ParseResult } from '../core/format';
import type { BreakCondition } from '../core/navigator';
import type { DebugState } from '../core/state';
import type { Position, Recording, WatchValue } from '../core/trace';
import type { Edit } from '../core/whatIf';
import { NeuralSession } from '../neuralEngine/neuralSession';
import type { StatePredictor } from '../neuralEngine/predictor';
import type { RecordOptions } from '../realEngine/realEngine';
import type { PythonHost } from '../realEngine/pythonHost';
import { cliState, NeuralFollower, type FollowedStep } from './neuralFollower';
import { guessedCallMaker } from '../core/callBuilder';
import { ProgramError, startProblem } from './programSession';

export type EngineName = 'real' | 'neural' | 'both';

export const ENGINES: readonly EngineName[] = ['real', 'neural', 'both'];

/** What every run of a live session gets, as in the app: an endless loop ends at the event
 * budget, a long computation at the time limit (seconds). */
export const LIVE_LIMITS = { maxEvents: 10_000, maxRepr: 1_000, timeLimit: 8 } as const;

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
  limits?: Partial<Pick<RecordOptions, 'maxEvents' | 'timeLimit' | 'maxRepr' | 'modules' | 'stdin'>>;
}

/** A request the session cannot answer where it stands (the session is unchanged). */
export class SessionError extends Error {}

export interface Candidate {
  call: string;
  /** The call, run, returns the value observed at the return. */
  verified: boolean;
  /** What the call returned, or why it could not run. */
  got?: string;
}

/** What guess_inputs drew: the calls it could build and run, and how many it could not use
 * (the model wrote no call, or left out an argument) or had already. */
export interface GuessReport {
  candidates: Candidate[];
  drawn: number;
  duplicates: number;
  unusable: number;
}

export interface Predicted {
  predicted: ParseResult;
  real: DebugState;
  comparison: StateComparison;
  /** How sure the model is of `predicted` (0 for a state it could not write). */
  confidence: Confidence;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class LiveSession {
  readonly real: DebugSession;
  readonly follower: NeuralFollower | null;
  /** The model's state for the current stop, when the move here was predicted. */
  private lastStep: FollowedStep | undefined;
  private lastWasEdit = false;
  private breakLines: number[];
  private conditions: Map<number, BreakCondition>;
  /** Watch re-runs of the current recording, by expression. */
  private watched = new Map<string, Recording>();
  private watchedFor: Recording | null = null;
  private readonly limits: Pick<RecordOptions, 'maxEvents' | 'timeLimit' | 'maxRepr' | 'modules' | 'stdin'>;

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
    this.real = new DebugSession(rec, this.breakLines, this.conditions);
    if (engine === 'real') this.follower = null;
    else {
      if (!options.model) throw new Error(`engine '${engine}' needs a model`);
      this.follower = new NeuralFollower(options.model.predictor, this.real, engine, this.breakLines);
    }
  }

  /** Records the program; throws ProgramError when it cannot start (syntax error, bad call). */
  static async start(host: PythonHost, source: string, call: string, options: LiveOptions): Promise<LiveSession> {
    const limits = { ...LIVE_LIMITS, ...options.limits };
    const rec = await host.record(source, call, { ...limits, conditions: conditionTexts(options.conditions ?? new Map()) });
    if (rec.exit.status === 'edit_error') throw new ProgramError(rec.exit.message ?? 'a breakpoint condition is not a Python expression');
    const problem = startProblem(rec, options.file);
    if (problem) throw new ProgramError(problem);
    // e.g. a call of a name the program does not define: there is no stop to show.
    if (rec.events.length === 0 && rec.exit.status !== 'normal') throw new ProgramError(rec.exit.message ?? `the program ended at once (${rec.exit.status})`);
    return new LiveSession(host, source, call, rec, options.engine, options);
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

  get breakpoints(): readonly number[] {
    return this.breakLines;
  }

  /** The model's prediction of the current stop, when it was predicted. */
  get prediction(): FollowedStep | undefined {
    return this.lastStep;
  }

  /** The current stop in the shape `ndb debug --json` prints for this engine. */
  cliState(): unknown {
    return cliState(this.engine, this.real.state, this.lastStep, this.lastWasEdit);
  }

  /** A debugger action; with the model on, it predicts the stop first. */
  async act(action: Action): Promise<void> {
    if (this.follower) this.lastStep = await this.follower.act(this.real, action);
    else {
      this.real.apply(action);
      this.lastStep = undefined;
    }
    this.lastWasEdit = false;
  }

  /** What-if: `name = expr` at the current stop (throws EditError, the session unchanged). */
  async edit(name: string, expr: string): Promise<void> {
    await this.real.edit(name, expr, this.rerun);
    this.follower?.edited(this.real);
    this.lastStep = undefined;
    this.lastWasEdit = true;
  }

  async step(step: Step): Promise<void> {
    if (step.kind === 'set') await this.edit(step.name, step.expr);
    else await this.act(step);
  }

  /** A move that is no single model action (reverse continue, back to an outer frame's call). */
  jump(pos: Position): void {
    this.real.jump(pos);
    this.follower?.restart(this.real);
    this.lastStep = undefined;
    this.lastWasEdit = false;
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
        await this.real.rerecord(async (edits) => {
          const rec = await this.rerun(edits);
          if (rec.exit.status === 'edit_error') throw new SessionError(rec.exit.message ?? 'a condition is not a Python expression');
          return rec;
        });
      } catch (err) {
        this.conditions = oldConditions;
        throw err;
      }
      this.follower?.rerecorded(this.real);
    }
    // The re-run may have replaced the navigator: take it now.
    const nav = this.real.navigator;
    for (const line of [...nav.breakpoints]) if (!next.includes(line)) nav.removeBreakpoint(line);
    for (const line of next) if (!nav.breakpoints.has(line)) nav.addBreakpoint(line);
    for (const line of new Set([...oldConditions.keys(), ...this.conditions.keys(), ...next])) nav.setCondition(line, this.conditions.get(line));
    this.breakLines = next;
    this.follower?.setBreakpoints(next);
  }


  /** `expr` in the frame of event `at`: a local's repr at once, anything else by running the
   * program again with it as a watch expression (cached per recording). */
  async evaluate(expr: string, at: Position): Promise<WatchValue> {
    const rec = this.recording;
    const e = rec.events[at];
    if (!e) throw new SessionError('there is no frame to evaluate in: the program has not started or has ended');
    const text = expr.trim();
    if (text === '') throw new SessionError('nothing to evaluate');
    if (IDENTIFIER.test(text) && text in e.locals) return { value: e.locals[text]! };
    const bad = await this.host.expressionError(text);
    if (bad) return { error: bad };
    if (this.watchedFor !== rec) {
      this.watched.clear();
      this.watchedFor = rec;
    }
    let run = this.watched.get(text);
    if (!run) {
      run = await this.host.record(this.source, this.call, { ...this.recordOptions(this.real.history.edits), watch: [text] });
      if (this.watched.size >= 64) this.watched.clear();
      this.watched.set(text, run);
    }
    if (run.exit.status === 'edit_error') return { error: run.exit.message ?? 'it could not be evaluated' };
    const w = run.events[at];
    if (!w || w.frame !== e.frame || w.line !== e.line || w.event !== e.event) {
      return { error: 'the program ran differently when it was run again to evaluate this (it is not deterministic)' };
    }
    return w.watch?.[0] ?? { error: 'no value was recorded' };
  }

  /** What the model predicts for `action` from here, the real answer, and whether they agree;
   * nothing moves. A real session asks `model` from the current stop without a history. */
  async predict(action: Action, model?: LiveModel): Promise<Predicted> {
    let p: { state: ParseResult; confidence?: Confidence };
    if (this.follower) p = await this.follower.predict(action);
    else {
      if (!model) throw new SessionError('no model is loaded');
      const session = new NeuralSession(model.predictor, this.recording, this.position, this.breakLines);
      p = await session.predict(action);
    }
    const fork = this.real.fork();
    fork.apply(action);
    return { predicted: p.state, real: fork.state, comparison: compareStates(fork.state, p.state), confidence: p.confidence ?? NO_CONFIDENCE };
  }

  /** At a return: `k` calls sampled from the model (inv_step_call), each built from the
   * predicted arguments as the function takes them (its parameters, in order; a method through
   * its predicted object) and run to see whether it returns the value observed here. */
  async guessInputs(model: LiveModel, k: number, temperature = 0.8): Promise<GuessReport> {
    const here = this.recording.events[this.position];
    if (!here || here.event !== 'return' || here.raising) {
      throw new SessionError('guess_inputs works at a return: step to one first (e.g. step_return)');
    }
    const observed = here.value ?? 'None';
    const makeCall = guessedCallMaker(this.recording, this.position);
    const session = new NeuralSession(model.predictor, this.recording, this.position, []);
    const report: GuessReport = { candidates: [], drawn: 0, duplicates: 0, unusable: 0 };
    const calls = new Set<string>();
    for (let i = 0; i < k; i++) {
      report.drawn++;
      const p = await session.predict({ kind: 'inv_step_call' }, { temperature });
      const call = makeCall(p.state);
      if (call === null) {
        report.unusable++;
        continue;
      }
      if (calls.has(call)) {
        report.duplicates++;
        continue;
      }
      calls.add(call);
      const check = await this.host.record(this.source, call, { maxEvents: 20_000, timeLimit: 5, maxRepr: this.limits.maxRepr });
      // a predicted value that is not an expression (a repr such as `<Account object at …>`)
      // makes no call that can run: the tracer says so, and it is not offered
      if (check.exit.status === 'call_error') report.unusable++;
      else if (check.exit.status === 'normal') {
        const got = check.exit.value ?? 'None';
        report.candidates.push({ call, verified: got === observed, got });
      } else report.candidates.push({ call, verified: false, got: check.exit.message ?? check.exit.status });
    }
    return report;
  }

  private readonly rerun = async (edits: readonly Edit[]): Promise<Recording> => {
    const rec = await this.host.record(this.source, this.call, this.recordOptions(edits));
    // A run stopped from outside (see processHost.ts) has no events to compare with.
    if (rec.events.length === 0 && rec.exit.status === 'timeout') throw new SessionError(rec.exit.message ?? 'the run was stopped');
    return rec;
  };

  private recordOptions(edits: readonly Edit[]): RecordOptions {
    return { ...this.limits, edits, conditions: conditionTexts(this.conditions) };
  }
}

function conditionTexts(conditions: ReadonlyMap<number, BreakCondition>): Record<number, string> {
  const out: Record<number, string> = {};
  for (const [line, c] of conditions) if (c.condition) out[line] = c.condition;
  return out;
}
