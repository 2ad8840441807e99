// The command line's bounds of a run: `--max-events N` and `--timeout S` (`ndb trace`, `ndb debug`
// in every form), with DAP's and MCP's range and every session's defaults; and what a recording a
// limit cut says on the command line (core/cutOff.ts).

import { cutOffNotice, type LimitOptions } from '../core/cutOff';
import type { Recording } from '../core/trace';
import { DEFAULT_LIMITS, SERVER_LIMIT_CEILING, type RunLimits } from '../core/limits';
import { stringOption, UsageError, type ParsedArgs } from './args';

/** The fewest events a run may be given (DAP's and MCP's floor too). */
export const MIN_EVENTS = 100;
/** The shortest time limit, in seconds. */
export const MIN_TIMEOUT_S = 0.5;

export const CLI_LIMIT_OPTIONS: LimitOptions = { maxEvents: '--max-events', timeLimit: '--timeout', ceiling: SERVER_LIMIT_CEILING };

/** The options' lines of `--help`. */
export const LIMITS_HELP =
  `  --max-events N   the run's event budget: ${MIN_EVENTS} to ${SERVER_LIMIT_CEILING.maxEvents.toLocaleString('en-US')} events ` +
  `(default ${DEFAULT_LIMITS.maxEvents.toLocaleString('en-US')})\n` +
  `  --timeout S      the run's time limit: ${MIN_TIMEOUT_S} to ${SERVER_LIMIT_CEILING.timeLimit} seconds of Python (default ${DEFAULT_LIMITS.timeLimit})\n`;

/** `--max-events` and `--timeout`, checked; the defaults where absent. */
export function limitsFromArgs(args: ParsedArgs): RunLimits {
  const events = stringOption(args, 'max-events');
  const seconds = stringOption(args, 'timeout');
  const maxEvents = events === undefined ? DEFAULT_LIMITS.maxEvents : Number(events);
  const timeLimit = seconds === undefined ? DEFAULT_LIMITS.timeLimit : Number(seconds);
  if (!Number.isInteger(maxEvents) || maxEvents < MIN_EVENTS || maxEvents > SERVER_LIMIT_CEILING.maxEvents) {
    throw new UsageError(`--max-events must be a whole number from ${MIN_EVENTS} to ${SERVER_LIMIT_CEILING.maxEvents} (default ${DEFAULT_LIMITS.maxEvents})`);
  }
  if (seconds?.trim() === '' || !Number.isFinite(timeLimit) || timeLimit < MIN_TIMEOUT_S || timeLimit > SERVER_LIMIT_CEILING.timeLimit) {
    throw new UsageError(`--timeout must be a number of seconds from ${MIN_TIMEOUT_S} to ${SERVER_LIMIT_CEILING.timeLimit} (default ${DEFAULT_LIMITS.timeLimit})`);
  }
  return { maxEvents, timeLimit };
}

/** What the command line says of a recording a limit cut; null when the program ran to its end. */
export function cliCutNotice(rec: Recording, limits: RunLimits): string | null {
  return cutOffNotice(rec, limits, CLI_LIMIT_OPTIONS);
}
