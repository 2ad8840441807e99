// The `launch` request's arguments (the launch.json of the debug type `ndb`), checked.

import { cutOffNotice, type LimitOptions } from '../core/cutOff';
import { DEFAULT_LIMITS, SERVER_LIMIT_CEILING } from '../core/limits';
import { ENGINES, type EngineName, type LiveSession } from '../session/liveSession';

/** How a launch raises its run's limits: launch.json's "maxEvents" and "timeout" (MCP's ceiling). */
export const DAP_LIMIT_OPTIONS: LimitOptions = { maxEvents: '"maxEvents" in launch.json', timeLimit: '"timeout" in launch.json', ceiling: SERVER_LIMIT_CEILING };

/** What the console says of a recording a limit cut (at the launch and at its end); null when it ran to its end. */
export function dapCutNotice(live: LiveSession): string | null {
  return cutOffNotice(live.recording, live.runLimits, DAP_LIMIT_OPTIONS);
}

export interface NdbLaunchArgs {
  /** Path of the `.py` file. */
  program: string;
  /** The entry call, e.g. `f([3, 1, 2])`; empty: run the module. */
  call: string;
  engine: EngineName;
  stopOnEntry: boolean;
  /** A model folder; default: the one the app ships. */
  model?: string;
  /** The program's arguments (`sys.argv[1:]`). */
  args: string[];
  /** The run's event budget and time limit (s); absent: the defaults of every session. */
  maxEvents?: number;
  timeout?: number;
  /** What the program's input() calls read, one line per call (MCP's `stdin`); absent: input() is refused. */
  stdin?: string;
}

export class LaunchArgsError extends Error {}

/** Reads the client's arguments, or throws LaunchArgsError naming what is wrong. */
export function parseLaunchArgs(raw: unknown): NdbLaunchArgs {
  const a = (raw ?? {}) as Record<string, unknown>;
  if (typeof a.program !== 'string' || a.program.trim() === '') {
    throw new LaunchArgsError('launch needs "program": the path of a .py file');
  }
  if (a.call !== undefined && a.call !== null && typeof a.call !== 'string') {
    throw new LaunchArgsError('"call" must be a string, e.g. "f([3, 1, 2])" (empty: run the module)');
  }
  const engine = a.engine ?? 'real';
  if (typeof engine !== 'string' || !(ENGINES as readonly string[]).includes(engine)) {
    throw new LaunchArgsError(`"engine" must be one of ${ENGINES.join(', ')}, not ${JSON.stringify(engine)}`);
  }
  if (a.stopOnEntry !== undefined && typeof a.stopOnEntry !== 'boolean') {
    throw new LaunchArgsError('"stopOnEntry" must be true or false');
  }
  if (a.model !== undefined && a.model !== null && typeof a.model !== 'string') {
    throw new LaunchArgsError('"model" must be the path of a model folder');
  }
  if (a.args !== undefined && a.args !== null && !(Array.isArray(a.args) && a.args.every((x) => typeof x === 'string'))) {
    throw new LaunchArgsError('"args" must be a list of strings: the program\'s sys.argv[1:]');
  }
  const ceiling = SERVER_LIMIT_CEILING;
  if (a.maxEvents !== undefined && a.maxEvents !== null && !(Number.isInteger(a.maxEvents) && (a.maxEvents as number) >= 100 && (a.maxEvents as number) <= ceiling.maxEvents)) {
    throw new LaunchArgsError(`"maxEvents" must be a whole number from 100 to ${ceiling.maxEvents} (default ${DEFAULT_LIMITS.maxEvents})`);
  }
  if (a.timeout !== undefined && a.timeout !== null && !(typeof a.timeout === 'number' && a.timeout >= 0.5 && a.timeout <= ceiling.timeLimit)) {
    throw new LaunchArgsError(`"timeout" must be a number of seconds from 0.5 to ${ceiling.timeLimit} (default ${DEFAULT_LIMITS.timeLimit})`);
  }
  if (a.stdin !== undefined && a.stdin !== null && typeof a.stdin !== 'string') {
    throw new LaunchArgsError('"stdin" must be a string: what input() reads, one line per call (e.g. "3\\nyes\\n")');
  }
  const args: NdbLaunchArgs = {
    program: a.program,
    args: Array.isArray(a.args) ? (a.args as string[]) : [],
    call: typeof a.call === 'string' ? a.call.trim() : '',
    engine: engine as EngineName,
    stopOnEntry: a.stopOnEntry === true,
  };
  if (typeof a.model === 'string' && a.model.trim() !== '') args.model = a.model;
  if (typeof a.maxEvents === 'number') args.maxEvents = a.maxEvents;
  if (typeof a.timeout === 'number') args.timeout = a.timeout;
  if (typeof a.stdin === 'string') args.stdin = a.stdin;
  return args;
}
