// `ndb debug --actions` and `--batch`: a list of moves and what-if edits, made on a LiveSession,
// the road every face moves on (moves.ts), whatever the engine; each stop in the shape `ndb debug
// --json` prints for the engine (LiveSession.cliState).

import { formatMoveStep, type MoveStep } from '../core/actions';
import { EditError } from '../core/whatIf';
import type { LiveSession } from './liveSession';
import { ProgramError } from './programSession';

/** Why a list cannot be made with this engine (reverse continue moves over the recording, which
 * engine neural does not show), or null. */
export function listProblem(engine: LiveSession['engine'], steps: readonly MoveStep[]): string | null {
  return engine === 'neural' && steps.some((s) => s.kind === 'inv_continue') ? 'inv_continue moves over the recording: use --engine real or both' : null;
}

/** The first stop, then the stop after each step (a `set:` step's is the same stop with the
 * edited locals); a bad `set:` item names its place in the list. */
export async function listStates(live: LiveSession, steps: readonly MoveStep[]): Promise<unknown[]> {
  const problem = listProblem(live.engine, steps);
  if (problem) throw new ProgramError(problem);
  const states: unknown[] = [live.cliState()];
  for (const [i, step] of steps.entries()) {
    try {
      await live.step(step);
    } catch (err) {
      if (step.kind === 'set' && err instanceof EditError) throw new ProgramError(`action ${i + 1} (${formatMoveStep(step)}): ${err.message}`);
      throw err;
    }
    states.push(live.cliState());
  }
  return states;
}
