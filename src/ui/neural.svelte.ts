// The neural engine's side of the app, put together from its parts: loading the model
// (modelLoader.svelte.ts), following the debugger with it (modelFollower.svelte.ts), the "Predict
// first" teaching mode (predictFirstStore.svelte.ts) and "Guess inputs" (guessInputs.svelte.ts).
// The debugger (debugger.svelte.ts) tells it what it did; it never blocks the real engine. The
// components read it through the names below.

import type { Action } from '../core/actions';
import type { DebugState } from '../core/state';
import type { Backend } from '../neuralEngine/modelClient';
import type { LiveSession } from '../session/liveSession';
import type { DebuggerEvent } from './debugger.svelte';
import { GuessInputs, type Candidate } from './guessInputs.svelte';
import { ModelFollower, type ShownPrediction } from './modelFollower.svelte';
import { ModelLoader } from './modelLoader.svelte';
import { MODES, type Mode } from './modes';
import type { NeuralEnvironment } from './neuralEnvironment';
import type { GuessScore, LearnerGuess, Reveal } from './predictFirst';
import { PredictFirst } from './predictFirstStore.svelte';
import type { Prefs } from './prefs.svelte';

export type { Candidate, GuessScore, LearnerGuess, Mode, NeuralEnvironment, Reveal, ShownPrediction };
export { MODES };

export class Neural {
  readonly loader: ModelLoader;
  readonly follower: ModelFollower;
  readonly teaching: PredictFirst;
  readonly guesses = new GuessInputs();
  /** The debugging session Guess inputs runs its calls in (the debugger's current one). */
  private session: () => LiveSession | null = () => null;

  constructor(
    env: NeuralEnvironment,
    private readonly prefs: Prefs | null = null,
  ) {
    this.loader = new ModelLoader(env);
    this.follower = new ModelFollower(this.loader);
    this.teaching = new PredictFirst(prefs);
    // The model's modes wait until it has loaded; a reload keeps Real only at once.
    if (prefs?.mode === 'real') this.follower.mode = 'real';
    this.loader.onChange = () => {
      const saved = this.prefs?.mode;
      if (this.loader.status === 'ready' && saved && saved !== 'real' && this.follower.mode !== 'real') this.follower.mode = saved;
      if (this.loader.status === 'off') this.follower.mode = 'real';
      this.follower.modelChanged();
    };
    this.follower.onStep = (action, real, shown, at) => this.teaching.answered(action, real, shown, at);
  }

  /** Starts loading the model (see ModelLoader.start); `session` gives the debugger's session. */
  async start(session: () => LiveSession | null, first?: Promise<unknown>): Promise<void> {
    this.session = session;
    await this.loader.start(first);
    if (this.loader.status === 'off') this.follower.mode = 'real';
  }

  /** The debugger's report of what it did. */
  onDebugger(ev: DebuggerEvent): void {
    if (ev.kind === 'action') this.teaching.stepped({ recording: ev.recording, position: ev.position });
    if (ev.kind === 'recorded' || ev.kind === 'cleared') this.teaching.reset();
    if (ev.kind === 'rerecorded') this.teaching.rerecorded(this.follower.at?.recording, ev.recording);
    if (ev.kind !== 'rerecorded') this.guesses.clear();
    this.follower.onDebugger(ev);
  }

  setMode(mode: Mode): void {
    this.prefs?.setMode(mode);
    this.follower.setMode(mode);
  }

  setBackend(backend: Backend): Promise<void> {
    return this.loader.setBackend(backend);
  }

  setPredictFirst(on: boolean): void {
    this.teaching.set(on);
  }

  guessInputs(k = 4, temperature = 0.8): Promise<void> {
    return this.guesses.guess(this.loader.status === 'ready' ? this.loader.client : null, this.session(), k, temperature);
  }

  // ---- what the components read ----

  get status() {
    return this.loader.status;
  }
  get progress() {
    return this.loader.progress;
  }
  get error() {
    return this.loader.error;
  }
  get info() {
    return this.loader.info;
  }
  /** A note about the model, or why the last prediction failed (that one goes with the next step). */
  get note(): string | null {
    return this.follower.failure ?? this.loader.note;
  }
  get backend() {
    return this.loader.backend;
  }
  get webgpuAvailable() {
    return this.loader.webgpuAvailable;
  }
  get webgpuReason() {
    return this.loader.webgpuReason;
  }
  get mode() {
    return this.follower.mode;
  }
  /** The prediction of the stop the debugger stands at (never one for a stop it has left). */
  get prediction() {
    return this.follower.current;
  }
  get predicting() {
    return this.follower.predicting;
  }
  get scores() {
    return this.follower.scores;
  }
  get scoredRun() {
    return this.follower.scoredRun;
  }
  get states() {
    return this.follower.states;
  }
  get tokensPerS() {
    return this.follower.tokensPerS;
  }
  get msPerState() {
    return this.follower.msPerState;
  }
  get active(): boolean {
    return this.follower.active;
  }
  get predictFirst() {
    return this.teaching.on;
  }
  get guess(): LearnerGuess {
    return this.teaching.guess;
  }
  set guess(value: LearnerGuess) {
    this.teaching.guess = value;
  }
  /** Predict first's reveal of the stop the debugger stands at (never one for a stop it has left). */
  get reveal() {
    return this.teaching.revealAt(this.follower.at);
  }
  get learnerScore() {
    return this.teaching.learnerScore;
  }
  get modelScore() {
    return this.teaching.modelScore;
  }
  /** The move Predict first's Check takes (the learner's choice; Step into at first). */
  get checkMove(): Action {
    return this.teaching.move;
  }
  setCheckMove(kind: string): void {
    this.teaching.setMove(kind);
  }
  get candidates() {
    return this.guesses.candidates;
  }
  get guessing() {
    return this.guesses.guessing;
  }
  get guessNote() {
    return this.guesses.note;
  }

  /** The locals of the predicted state at the current stop (for watch expressions), if any. */
  get predictedLocals(): Record<string, string> | null {
    const p = this.prediction;
    if (!p || !this.active || this.predicting || 'unparseable' in p.state) return null;
    const s = p.state;
    if (s.event === 'exit' || s.event === 'entry' || s.event === 'return' || !s.locals) return null;
    return s.locals;
  }

  /** The line of the predicted state (the editor's ghost marker): the current stop's only, and
   * none once the program has ended (no line is running then). */
  get ghostLine(): number | null {
    const p = this.prediction;
    if (!p || !this.active || p.real.event === 'exit' || 'unparseable' in p.state || p.state.event === 'exit' || p.state.event === 'entry') return null;
    return p.state.line > 0 ? p.state.line : null;
  }

  /** How sure the model is of the predicted stop's line (the ghost marker's note), if it says. */
  get ghostConfidence(): number | null {
    return this.ghostLine === null ? null : (this.prediction?.confidence?.position ?? null);
  }

  /** The real state the last prediction was compared with (the panel's truth column). */
  get real(): DebugState | null {
    return this.prediction?.real ?? null;
  }
}
