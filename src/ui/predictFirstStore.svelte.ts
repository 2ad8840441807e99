// "Predict first", the teaching mode, as the page holds it: the learner's guess before a step, the
// reveal after it (the learner's guess, the model's and the truth side by side, predictFirst.ts)
// and both scores over this run of the program. The learner picks the move a guess is checked
// with (Step into at first), and a reveal belongs to the stop it was made for: one for a stop the
// page has left (steps that came faster than the model) is counted, never shown as current.

import { FORWARD_ACTIONS, type Action } from '../core/actions';
import type { DebugState } from '../core/state';
import type { Position, Recording } from '../core/trace';
import type { ShownPrediction } from './modelFollower.svelte';
import { NO_GUESSES, revealOf, tallyGuess, type GuessScore, type LearnerGuess, type Reveal } from './predictFirst';
import type { Prefs } from './prefs.svelte';

/** The stop a step reached: the recording and the position in it. */
export interface StopKey {
  recording: Recording;
  position: Position;
}

/** The moves a guess can be checked with (the forward moves of the toolbar). */
export const CHECK_MOVES: readonly Action[] = FORWARD_ACTIONS.map((kind) => ({ kind }));

export function sameStop(a: StopKey | null | undefined, b: StopKey | null | undefined): boolean {
  return a != null && b != null && a.recording === b.recording && a.position === b.position;
}

export class PredictFirst {
  on = $state(false);
  guess = $state<LearnerGuess>({ line: '', value: '' });
  /** The latest reveal, with the stop it belongs to (shown only while the page stands there). */
  revealed = $state.raw<{ reveal: Reveal; at: StopKey } | null>(null);
  learnerScore = $state<GuessScore>(NO_GUESSES);
  modelScore = $state<GuessScore>(NO_GUESSES);
  /** The move Check (and Enter in a guess field) takes: the learner's choice, Step into at first.
   * Raw, not a deep proxy: the action travels to the model worker, and postMessage cannot clone a
   * proxy. */
  move = $state.raw<Action>({ kind: 'step_into' });

  /** The guesses made before steps whose answers have not come yet, oldest first. */
  private pending: Array<{ at: StopKey; guess: LearnerGuess }> = [];

  constructor(private readonly prefs: Prefs | null) {
    // A reload keeps the teaching mode.
    this.on = prefs?.predictFirst ?? false;
  }

  set(on: boolean): void {
    this.on = on;
    this.prefs?.setPredictFirst(on);
    this.revealed = null;
  }

  /** The learner picks the move their guesses are checked with. */
  setMove(kind: string): void {
    const move = CHECK_MOVES.find((m) => m.kind === kind);
    if (move) this.move = { ...move };
  }

  /** The reveal of the stop `at`, if it is the latest one (null: none, or it is another stop's). */
  revealAt(at: StopKey | null): Reveal | null {
    const r = this.revealed;
    return r && sameStop(r.at, at) ? r.reveal : null;
  }

  /** A step was made to `at`: the guess typed for it is taken (the fields empty for the next one). */
  stepped(at: StopKey): void {
    if (!this.on) return;
    this.pending.push({ at, guess: { ...this.guess } });
    if (this.pending.length > 50) this.pending.splice(0, this.pending.length - 50);
    this.guess = { line: '', value: '' };
  }

  /** The truth (and the model's state, when it predicted one) after the step to `at`: the reveal.
   * Guesses for earlier stops still waiting are dropped (their steps got no answer). */
  answered(action: Action, real: DebugState, model: ShownPrediction | null, at: StopKey): void {
    const i = this.pending.findIndex((p) => sameStop(p.at, at));
    if (i < 0) return;
    const { guess } = this.pending[i]!;
    this.pending.splice(0, i + 1);
    const reveal = revealOf(action, guess, real, model);
    this.revealed = { reveal, at };
    if (!reveal.scored) return;
    this.learnerScore = tallyGuess(this.learnerScore, reveal.learner, reveal.learner);
    if (reveal.model) this.modelScore = tallyGuess(this.modelScore, reveal.learner, reveal.model);
  }

  /** The same run recorded again (a watch or a condition changed): its stops are the same. */
  rerecorded(from: Recording | undefined, to: Recording): void {
    const r = this.revealed;
    if (r && r.at.recording === from) this.revealed = { ...r, at: { ...r.at, recording: to } };
    for (const p of this.pending) if (p.at.recording === from) p.at = { ...p.at, recording: to };
  }

  /** A new run of the program: the scores start again (the chosen move stays). */
  reset(): void {
    this.learnerScore = NO_GUESSES;
    this.modelScore = NO_GUESSES;
    this.revealed = null;
    this.pending = [];
  }
}
