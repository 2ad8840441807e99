// A recording cut off by a limit (the event budget, the time limit, the user's Stop), with what the
// recording says about why: the same state came back (an endless loop), a deep recursion, or
// nothing (it may still finish). One sentence for every face, each naming its own options (issue
// 47: "may not terminate" only where a state repeats). Pure functions of the recording.

import type { RunLimits } from './limits';
import type { Recording, TraceEvent } from './trace';

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
  const seen = new Set<string>();
  const from = Math.max(0, rec.events.length - LOOP_WINDOW);
  for (let i = rec.events.length - 1; i >= from; i--) {
    const e = rec.events[i]!;
    if (e.event !== 'line') continue;
    const key = `${e.frame}:${e.line}:${e.out}:${JSON.stringify(e.locals)}`;
    if (seen.has(key)) return e.line;
    seen.add(key);
  }
  return null;
}

/** A number as people write it: 10,000. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** How a face raises a run's limits: the names of its two options (`max_events` in MCP's
 * start_session, `maxEvents` in a DAP launch, `--max-events` of `ndb debug`) and their ceiling. */
export interface LimitOptions {
  maxEvents: string;
  timeLimit: string;
  ceiling: RunLimits;
}

/** What a face says of a recording cut off by a limit, naming the face's own options: where the
 * cut is, and either why the program may not terminate (the same state came back), that the calls
 * were deep, or how to raise the limit that cut it. */
export function cutOffSentence(cut: CutOff, limits: RunLimits, options: LimitOptions): string {
  const where = cut.last ? ` in ${cut.last.function}, line ${cut.last.line}` : '';
  if (cut.byUser) return `The recording was stopped as you asked, at event ${count(cut.at)}${where}.`;
  const limit = cut.status === 'budget' ? `${count(limits.maxEvents)} events (the event budget)` : `${limits.timeLimit} s (the time limit)`;
  const head = `The recording was cut at ${limit}, at event ${count(cut.at)}${where}, before the program ended.`;
  if (cut.loopLine !== null) {
    return `${head} Line ${cut.loopLine} came back in the same frame with the same locals: the program is in a loop that repeats a state, so it may not terminate.`;
  }
  const [name, now, most, unit] =
    cut.status === 'budget' ? [options.maxEvents, limits.maxEvents, options.ceiling.maxEvents, ' events'] : [options.timeLimit, limits.timeLimit, options.ceiling.timeLimit, ' s'];
  const raise = now < most ? ` To record more, raise ${name} (up to ${count(most)}${unit}).` : ` ${name} is at its ceiling (${count(most)}${unit}): a shorter input may end within it.`;
  const deep = cut.depth > 0 ? ` The calls were ${count(cut.depth + 1)} deep: check that the recursion ends.` : '';
  return `${head}${deep}${raise}`;
}

/** The sentence for a recording, or null when the program ran to its end. */
export function cutOffNotice(rec: Recording, limits: RunLimits, options: LimitOptions): string | null {
  const cut = cutOffOf(rec);
  return cut ? cutOffSentence(cut, limits, options) : null;
}
