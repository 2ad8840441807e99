// How a run of the program ended, in the words a teacher uses: finished, or cut off by a limit
// (the event budget, the time limit, the user's Stop) at an event, with what the recording says
// about why (the same values came back: an endless loop; a deep recursion), and the limits a
// user may raise up to a ceiling. Pure functions of the recording (what it says: core/cutOff.ts).

import { count, cutOffOf, type CutOff } from '../core/cutOff';
import { DEFAULT_LIMITS, LIMIT_CEILING, type RunLimits } from '../core/limits';

export { count, cutOffOf, DEFAULT_LIMITS, LIMIT_CEILING, type CutOff, type RunLimits };

/** The limits after "Raise the limit" for a run cut off by `status`; null when that limit is at
 * its ceiling already. */
export function raisedLimits(limits: RunLimits, status: 'budget' | 'timeout'): RunLimits | null {
  if (status === 'budget') {
    if (limits.maxEvents >= LIMIT_CEILING.maxEvents) return null;
    return { ...limits, maxEvents: Math.min(LIMIT_CEILING.maxEvents, limits.maxEvents * 10) };
  }
  if (limits.timeLimit >= LIMIT_CEILING.timeLimit) return null;
  return { ...limits, timeLimit: Math.min(LIMIT_CEILING.timeLimit, Math.max(limits.timeLimit * 2, 15)) };
}

/** The status line at the end of a run that was cut off. */
export function describeCutOff(cut: CutOff, limits: RunLimits): string {
  const where = cut.last ? ` in ${cut.last.function}, line ${cut.last.line}` : '';
  const at = `at event ${count(cut.at)}${where}`;
  if (cut.byUser) return `Stopped as you asked, ${at}.`;
  const limit = cut.status === 'budget' ? `the event budget of ${count(limits.maxEvents)}` : `the time limit of ${limits.timeLimit} s`;
  const why =
    cut.loopLine !== null
      ? ` Line ${cut.loopLine} came back with the same values: this looks like an endless loop.`
      : cut.depth > 0
        ? ` The calls were ${count(cut.depth + 1)} deep: check that the recursion ends.`
        : ' It may still finish: raise the limit.';
  return `The run was cut off ${at} (${limit}).${why}`;
}
