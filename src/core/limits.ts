// Every limit a run of a program gets, in one place: the app's and the servers' debugging
// sessions, the calls Guess inputs checks, the evaluations. The tracer (tracer.py) has defaults of
// its own only for Python callers that pass none (training's dataset builder); every TypeScript
// caller passes one of these.

/** The limits of a run: events recorded and seconds of Python. */
export interface RunLimits {
  maxEvents: number;
  timeLimit: number;
}

/** What every debugging session's run starts with (the app, the CLI, DAP, MCP). */
export const DEFAULT_LIMITS: RunLimits = { maxEvents: 10_000, timeLimit: 8 };

/** The most a user may raise them to (README, "A short tour"): a recording of 100,000 events
 * with their locals is tens of megabytes in the page, and 30 s is as long as a lesson waits. */
export const LIMIT_CEILING: RunLimits = { maxEvents: 100_000, timeLimit: 30 };

/** The most an agent may ask of MCP's start_session (and an editor of a DAP launch): a server has
 * no page to fill; 45 s of Python, with an engine's start and the answer, stays within the 60 s
 * after which MCP clients give up on a request (issue 47). */
export const SERVER_LIMIT_CEILING: RunLimits = { maxEvents: 1_000_000, timeLimit: 45 };

/** The longest repr of a value a debugging session records (longer ones are cut, and say so). */
export const MAX_REPR = 1_000;

/** A debugging session's first run: the default limits and the repr cap; its recording also says
 * which names are one object and shows the module's variables in a function (views only). */
export const LIVE_LIMITS = { ...DEFAULT_LIMITS, maxRepr: MAX_REPR, objects: true } as const;

/** A guessed call checked by running it (Guess inputs, MCP's guess_inputs, CruxEval's baselines):
 * short, since a wrong guess may loop. */
export const CHECK_LIMITS: RunLimits = { maxEvents: 20_000, timeLimit: 5 };

/** A CruxEval item's own run (its states are what the model is asked about). */
export const CRUX_RUN_LIMITS: RunLimits = { maxEvents: 10_000, timeLimit: 5 };

/** An evaluation item's run when the item names no budget of its own, and a benchmark program's. */
export const EVAL_LIMITS: RunLimits = { maxEvents: 2_000, timeLimit: 5 };
