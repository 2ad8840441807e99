// `ndb debug --engine neural|both`: the states of one request with the model beside the real
// session, in the shape the CLI prints.

import type { Step } from '../core/actions';
import { DebugSession, type Rerun } from '../core/debugSession';
import type { Recording } from '../core/trace';
import { LocalModelHistory } from '../neuralEngine/modelHistory';
import type { LoadedModel } from '../neuralEngine/nodeModel';
import { cliState, NeuralFollower, type NeuralMode } from './neuralFollower';
import { applyEdit } from './programSession';

/** `neural`: the model goes on from its own predictions; `both`: one-step predictions against the
 * real history, each state carrying real, neural and match. */
export async function neuralDebugStates(
  model: LoadedModel,
  rec: Recording,
  steps: readonly Step[],
  breakpoints: readonly number[],
  mode: NeuralMode,
  rerun: Rerun,
): Promise<unknown[]> {
  const real = new DebugSession(rec, breakpoints);
  const follower = await NeuralFollower.start(new LocalModelHistory(model.predictor), mode, real, breakpoints);
  const states: unknown[] = [cliState(mode, real.state)];
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'set') {
      // Both engines go on from the edited real stop; the edit itself is given, not predicted.
      await applyEdit(real, step, i, rerun);
      await follower.edited(real);
      states.push(cliState(mode, real.state, undefined, true));
      continue;
    }
    real.apply(step);
    const followed = await follower.follow(step, real);
    states.push(cliState(mode, real.state, followed ?? undefined));
  }
  return states;
}
