// How a run of the program ended, in the words a teacher uses: finished, or cut off by a limit
// (the event budget, the time limit, the user's Stop) at an event, with what the recording says
// about why (the same values came back: an endless loop; a deep recursion), and the limits a
// user may raise up to a ceiling. Pure functions of the recording.

import type { Recording, TraceEvent } from '../core/trace';

import { DEFAULT_LIMITS, LIMIT_CEILING, type RunLimits } from '../core/limits';

export { DEFAULT_LIMITS, LIMIT_CEILING, type RunLimits };

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

/** A number as people write it: 10,000. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export interface CutOff {
  status: 'budget' | 'timeout';
  /** The user pressed Stop (a timeout then). */
  byUser: boolean;
  /** The number of events recorded: the run was cut off at this event. */
  at: number;
  /** The last event reached (null when none was). */
  last: TraceEvent | null;
  /** A line that came back with the same values in the same frame: the run loops (null: the
   * recording does not show one). */
  loopLine: number | null;
  /** How deep the calls were at the cut (0: not a deep recursion). */
  depth: number;
}

/** How many of the last events are searched for a state that comes back. */
const LOOP_WINDOW = 2_000;
/** From this depth on, a cut-off run is called a deep recursion. */
const DEEP = 100;

/** The run was stopped by a limit (not by its own end); null otherwise. */
export function cutOffOf(rec: Recording): CutOff | null {
  const status = rec.exit.status;
  if (status !== 'budget' && status !== 'timeout') return null;
  const last = rec.events[rec.events.length - 1] ?? null;
  return {
    status,
    byUser: status === 'timeout' && /as you asked/i.test(rec.exit.message ?? ''),
    at: rec.events.length,
    last,
    loopLine: loopLine(rec),
    depth: last && last.depth >= DEEP ? last.depth : 0,
  };
}

/** A line event that came back in the same frame with the same locals and nothing printed in
 * between: a deterministic program in the same state does the same again. (A loop that changes a
 * counter each time is not seen as one: it may still end.) */
function loopLine(rec: Recording): number | null {
  const seen = new Map<string, number>();
  const from = Math.max(0, rec.events.length - LOOP_WINDOW);
  for (let i = rec.events.length - 1; i >= from; i--) {
    const e = rec.events[i]!;
    if (e.event !== 'line') continue;
    const key = `${e.frame}:${e.line}:${e.out}:${JSON.stringify(e.locals)}`;
    if (seen.has(key)) return e.line;
    seen.set(key, i);
  }
  return null;
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
