// "Predict first", the teaching mode, as the page holds it: the learner's guess before a step, the
// reveal after it (the learner's guess, the model's and the truth side by side, predictFirst.ts)
// and both scores over this run of the program.

import { isInverse, type Action } from '../core/actions';
import type { DebugState } from '../core/state';
import type { ShownPrediction } from './modelFollower.svelte';
import { NO_GUESSES, revealOf, tallyGuess, type GuessScore, type LearnerGuess, type Reveal } from './predictFirst';
import type { Prefs } from './prefs.svelte';

export class PredictFirst {
  on = $state(false);
  guess = $state<LearnerGuess>({ line: '', value: '' });
  reveal = $state.raw<Reveal | null>(null);
  learnerScore = $state<GuessScore>(NO_GUESSES);
  modelScore = $state<GuessScore>(NO_GUESSES);
  /** The last forward action taken in this run: what Enter in the guess fields takes next. Raw, not
   * a deep proxy: the action travels to the model worker, and postMessage cannot clone a proxy. */
  lastForward = $state.raw<Action>({ kind: 'step_into' });

  /** The guess made before the step in flight (taken when the step was made). */
  private pending: LearnerGuess | null = null;

  constructor(private readonly prefs: Prefs | null) {
    // A reload keeps the teaching mode.
    this.on = prefs?.predictFirst ?? false;
  }

  set(on: boolean): void {
    this.on = on;
    this.prefs?.setPredictFirst(on);
    this.reveal = null;
  }

  /** A step was made: the guess typed for it is taken (the fields empty for the next one). */
  stepped(action: Action): void {
    if (!isInverse(action)) this.lastForward = action;
    this.pending = this.on ? { ...this.guess } : null;
    if (this.on) this.guess = { line: '', value: '' };
  }

  /** The truth (and the model's state, when it predicted one) after the step: the reveal. */
  answered(action: Action, real: DebugState, model: ShownPrediction | null): void {
    const guess = this.pending;
    this.pending = null;
    if (!guess) return;
    const reveal = revealOf(action, guess, real, model);
    this.reveal = reveal;
    if (!reveal.scored) return;
    this.learnerScore = tallyGuess(this.learnerScore, reveal.learner, reveal.learner);
    if (reveal.model) this.modelScore = tallyGuess(this.modelScore, reveal.learner, reveal.model);
  }

  /** A new run of the program: the scores start again. */
  reset(): void {
    this.learnerScore = NO_GUESSES;
    this.modelScore = NO_GUESSES;
    this.reveal = null;
    this.pending = null;
    this.lastForward = { kind: 'step_into' };
  }
}
