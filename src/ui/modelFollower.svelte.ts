// The model beside the app's debugger: after each move it asks the session layer's NeuralFollower
// (src/session/neuralFollower.ts, over the model worker) for the state the model predicted, shows
// it against the truth and keeps the running scores. It never blocks the real engine: a prediction
// that arrives after a newer recording, a jump or another mode is dropped, and one for a stop the
// debugger has left since (steps faster than the model) is scored but never shown as current.

import type { Action } from '../core/actions';
import type { StateComparison } from '../core/compare';
import type { Confidence } from '../core/confidence';
import { EvalStats, type ActionTally } from '../core/evalStats';
import type { ParseResult } from '../core/format';
import { stateAt, type DebugState } from '../core/state';
import type { Position, Recording } from '../core/trace';
import { ModelError } from '../neuralEngine/modelClient';
import { NeuralFollower, type FollowedStep } from '../session/neuralFollower';
import type { DebuggerEvent } from './debugger.svelte';
import type { ModelLoader } from './modelLoader.svelte';
import type { Mode } from './modes';

export interface ShownPrediction {
  action: Action;
  /** The stop it was made for: shown only while the debugger stands there. */
  recording: Recording;
  position: Position;
  /** The parsed prediction (or why it could not be parsed). */
  state: ParseResult;
  text: string;
  /** The real state after the same action, and the field-by-field comparison. */
  real: DebugState;
  comparison: StateComparison;
  ms: number;
  newTokens: number;
  prefillTokens: number;
  /** How sure the model was of the state and each field. */
  confidence?: Confidence;
  /** The answer ran past the app's length or time limit and was ended by the decoder. */
  cut?: true;
  /** Counted in the scores: not when the real state is the entry, the start of the module or the
   * exit, which any answer of the right kind matches (a step back to the entry, Back to call at the
   * module's level, the end of the program). */
  scored: boolean;
}

/** Whether a prediction of `real` counts in the scores: not at the entry, the start of the
 * module (a call at line 0) or the exit, which any answer of the right kind matches. */
export function isScoredStop(real: DebugState): boolean {
  if (real.event === 'entry' || real.event === 'exit') return false;
  return !(real.event === 'call' && real.function === '<module>' && real.line < 1);
}

export class ModelFollower {
  mode = $state<Mode>('both');
  prediction = $state.raw<ShownPrediction | null>(null);
  predicting = $state(false);
  /** Why the last prediction failed (null: it did not); it belongs to that step and goes with the next. */
  failure = $state<string | null>(null);
  /** Scores per action kind over this run of the program (a new program or Restart starts them
   * again), in the order the kinds were first seen. */
  scores = $state.raw<ActionTally[]>([]);
  /** The call (or "the module") the scores belong to. */
  scoredRun = $state<string>('');
  totalTokens = $state(0);
  totalMs = $state(0);
  states = $state(0);

  /** Told after each move with the model's state beside the truth (null: none was predicted), and
   * the stop it reached. */
  onStep: ((action: Action, real: DebugState, shown: ShownPrediction | null, at: { recording: Recording; position: Position }) => void) | null = null;

  /** Where the debugger stands (state: what is current follows it). */
  private recording = $state.raw<Recording | null>(null);
  private position = $state<Position>(0);
  private breakpoints: number[] = [];
  private stats = new EvalStats();
  private follower: NeuralFollower | null = null;
  /** Bumped whenever the model's history starts again (a recording, a jump, a mode, a model): an
   * answer for an older history is dropped. */
  private history = 0;
  private stepSeq = 0;
  /** The last step taken while the model was loading (it had no history yet to predict it in). */
  private missed: { action: Action; recording: Recording; from: Position; to: Position } | null = null;

  constructor(private readonly loader: ModelLoader) {}

  readonly tokensPerS = $derived(this.totalMs > 0 ? (1000 * this.totalTokens) / this.totalMs : 0);
  readonly msPerState = $derived(this.states > 0 ? this.totalMs / this.states : 0);
  /** The model is loaded and follows (not Real only). */
  get active(): boolean {
    return this.loader.status === 'ready' && this.mode !== 'real';
  }

  /** The recording the debugger stands in, and where (for Guess inputs). */
  get at(): { recording: Recording; position: Position } | null {
    return this.recording ? { recording: this.recording, position: this.position } : null;
  }

  /** The prediction of the stop the debugger stands at (null: none, or it is for a stop left since). */
  readonly current = $derived.by<ShownPrediction | null>(() => {
    const p = this.prediction;
    return p && p.recording === this.recording && p.position === this.position ? p : null;
  });

  setMode(mode: Mode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.prediction = null;
    this.failure = null;
    // Compare and Neural only start again from the real state the debugger stands at.
    void this.begin();
  }

  /** A model is ready (or went): its history starts at the real state the debugger stands at;
   * when the debugger got there by a step the model missed (it was still loading), the model
   * predicts that step now, from the stop before it, instead of waiting for another one. */
  modelChanged(): void {
    this.prediction = null;
    // (a load that starts again keeps the missed step for the model it will load)
    if (!this.active) return void this.begin();
    const missed = this.missed;
    this.missed = null;
    if (missed && missed.recording === this.recording && missed.to === this.position && missed.from >= 0) {
      void this.begin(missed.from);
      // begin() set the follower at once; the worker takes this step after the beginning
      this.step(missed.action, missed.recording, missed.to);
      return;
    }
    void this.begin();
  }

  /** The debugger's report of what it did. */
  onDebugger(ev: DebuggerEvent): void {
    if (ev.kind === 'cleared') {
      // No recording (the engine was restarted, a link shows other code): the old run's scores go.
      this.history++;
      this.follower = null;
      this.predicting = false;
      this.failure = null;
      this.recording = null;
      this.prediction = null;
      this.resetScores(null);
      return;
    }
    if (ev.kind === 'rerecorded') {
      // the same stops, recorded again: the prediction shown stays the current stop's
      const p = this.prediction;
      if (p && p.recording === this.recording) this.prediction = { ...p, recording: ev.recording };
      this.recording = ev.recording;
      this.follower?.rerecorded({ recording: ev.recording, position: this.position });
      return;
    }
    this.failure = null;
    if (ev.kind === 'edit') {
      this.recording = ev.recording;
      this.breakpoints = ev.breakpoints;
      this.position = ev.position;
      this.prediction = null;
      void this.acceptEdit();
      return;
    }
    const fresh = ev.recording !== this.recording;
    const from = this.position;
    if (ev.kind === 'recorded' && !ev.replay) this.resetScores(ev.recording);
    this.recording = ev.recording;
    this.breakpoints = ev.breakpoints;
    this.position = ev.position;
    this.missed = null;
    if (ev.kind === 'action' && !fresh) {
      this.step(ev.action, ev.recording, ev.position, from);
      return;
    }
    this.prediction = null;
    void this.begin();
  }

  /** Scores belong to one run of one program: a new recording (a new program, Restart, a link)
   * starts them again. What-if edits keep them: they go on from a stop of the same run. */
  private resetScores(rec: Recording | null): void {
    this.stats = new EvalStats();
    this.scores = [];
    this.scoredRun = rec === null ? '' : rec.call.trim() !== '' ? rec.call.trim() : 'the module';
  }

  /** Starts the model's history at the real stop `at` (default: where the debugger stands). */
  private async begin(at: Position = this.position): Promise<void> {
    const history = ++this.history;
    this.follower = null;
    this.predicting = false;
    const client = this.loader.client;
    const rec = this.recording;
    if (!client || !rec || this.mode === 'real' || rec.events.length === 0) return;
    const position = Math.min(Math.max(at, 0), rec.events.length - 1);
    // At once: the worker takes the next step after this beginning, in order.
    const { follower, begun } = NeuralFollower.startNow(client, this.mode, { recording: rec, position }, this.breakpoints);
    this.follower = follower;
    try {
      await begun;
    } catch {
      // a newer recording took over
      if (history === this.history) this.follower = null;
    }
  }

  /** What-if: the model's newest state becomes the edited real state; it goes on from there, and
   * its next predictions are compared with the new run. */
  private async acceptEdit(): Promise<void> {
    const follower = this.follower;
    const rec = this.recording;
    if (!follower || !rec) return void this.begin();
    try {
      await follower.edited({ recording: rec, position: this.position });
    } catch (err) {
      if (err instanceof ModelError && err.kind === 'superseded') return;
      // No history to edit (the model had not begun): start it at the edited state.
      await this.begin();
    }
  }

  private step(action: Action, rec: Recording, to: Position, from: Position = -1): void {
    const real = stateAt(rec, to);
    const follower = this.follower;
    if (!follower || !this.active) {
      // Still loading: the model predicts this step once it is ready (modelChanged).
      if (this.loader.status === 'loading' && this.mode !== 'real') this.missed = { action, recording: rec, from, to };
      this.onStep?.(action, real, null, { recording: rec, position: to });
      return;
    }
    const history = this.history;
    const mine = ++this.stepSeq;
    this.predicting = true;
    follower.setBreakpoints(this.breakpoints);
    follower
      .follow(action, { recording: rec, position: to })
      .then((step) => {
        if (history !== this.history) return;
        // not predicted (a later step was already queued): the learner's guess is still judged
        if (!step) return void this.onStep?.(action, real, null, { recording: rec, position: to });
        this.show(step, real, rec, to);
        this.onStep?.(action, real, this.prediction, { recording: rec, position: to });
      })
      .catch((err: unknown) => {
        if (err instanceof ModelError && err.kind === 'superseded') return;
        if (history !== this.history) return;
        this.onStep?.(action, real, null, { recording: rec, position: to });
        this.failure = `The prediction failed: ${err instanceof Error ? err.message : String(err)}`;
        // The model's history may have missed this step: it starts again at the real stop, so
        // the next step is predicted from where the program stands (the message stays until then).
        void this.begin();
      })
      .finally(() => {
        if (mine === this.stepSeq) this.predicting = false;
      });
  }

  private show(step: FollowedStep, real: DebugState, recording: Recording, position: Position): void {
    const p = step.result;
    if (performance.getEntriesByName('ndb:first-prediction').length === 0) performance.mark('ndb:first-prediction');
    // One mark per state shown, with the model's time for it (`npm run bench:web` reads them).
    performance.mark('ndb:prediction', { detail: { ms: p.ms, newTokens: p.newTokens, prefillTokens: p.prefillTokens } });
    const scored = isScoredStop(real);
    this.prediction = {
      action: p.action,
      recording,
      position,
      state: p.state,
      text: p.text,
      real,
      comparison: step.comparison,
      ms: p.ms,
      newTokens: p.newTokens,
      prefillTokens: p.prefillTokens,
      ...(p.confidence ? { confidence: p.confidence } : {}),
      ...(p.closedEarly ? { cut: true as const } : {}),
      scored,
    };
    if (scored) {
      this.stats.add(p.action, step.comparison);
      this.scores = this.stats.perAction();
    }
    this.totalTokens += p.newTokens;
    this.totalMs += p.ms;
    this.states++;
  }
}
