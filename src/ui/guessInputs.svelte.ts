// "Guess inputs" in the app: at a return, k calls sampled from the model (inv_step_call) and checked
// by the session layer (src/session/guesses.ts: the same calls as MCP's guess_inputs, each run to
// see whether it returns the value observed there), shown as their verdicts come in.

import type { ModelClient } from '../neuralEngine/modelClient';
import { guessProblem, guessSummary, type Candidate } from '../session/guesses';
import type { LiveSession } from '../session/liveSession';

export type { Candidate };

export class GuessInputs {
  candidates = $state.raw<readonly Candidate[]>([]);
  guessing = $state(false);
  note = $state<string | null>(null);

  /** The debugger moved: the candidates belonged to the stop it left. */
  clear(): void {
    this.candidates = [];
    this.note = null;
  }

  async guess(model: ModelClient | null, live: LiveSession | null, k = 4, temperature = 0.8): Promise<void> {
    if (!model || !live) return;
    const problem = guessProblem(live.recording, live.position);
    if (problem) {
      this.note = 'Guess inputs works at a return: step to one first.';
      return;
    }
    const observed = live.recording.events[live.position]!.value ?? 'None';
    this.guessing = true;
    this.note = null;
    this.candidates = [];
    try {
      const samples = await model.sample(live.position, { kind: 'inv_step_call' }, k, temperature);
      const report = await live.checkGuesses(
        samples.map((p) => p.state),
        (shown) => (this.candidates = [...shown]),
      );
      this.candidates = report.candidates;
      this.note = guessSummary(report, observed);
    } catch (err) {
      this.note = `Guessing failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.guessing = false;
    }
  }
}
