// How an agent raises a run's limits in MCP: start_session's `max_events` and `timeout_s`, up to
// the servers' ceiling; and what a state says of a recording a limit cut (core/cutOff.ts).

import { cutOffNotice, type LimitOptions } from '../core/cutOff';
import { SERVER_LIMIT_CEILING } from '../core/limits';
import type { LiveSession } from '../session/liveSession';

export const MCP_LIMIT_OPTIONS: LimitOptions = {
  maxEvents: "start_session's max_events",
  timeLimit: "start_session's timeout_s",
  ceiling: SERVER_LIMIT_CEILING,
};

/** The sentence for the session's recording when a limit cut it; null when the program ran to its end. */
export function mcpCutNotice(live: LiveSession): string | null {
  return cutOffNotice(live.recording, live.runLimits, MCP_LIMIT_OPTIONS);
}
