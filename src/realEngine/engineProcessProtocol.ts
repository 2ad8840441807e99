// The messages between the Node faces and their engine process (engineProcess.mjs, which is plain
// JavaScript and mirrors these by hand): the engine's own setup as Python source, and the
// questions of engineProtocol.ts as JSON, answered by answers.py.

/** Messages to engineProcess.mjs. `run`: the engine's own Python (installing its modules), never
 * a user's program; `ask`: one question of engineProtocol.ts, as JSON. */
export type EngineRequest = { id: number; kind: 'run'; code: string } | { id: number; kind: 'ask'; question: string };

/** Messages from engineProcess.mjs: once `ready`, then one answer per request (`result`: the
 * answer's JSON, or nothing for a `run`), or an error; a `fatal` one ends the process. */
export type EngineReply =
  | { ready: true; loadMs: number }
  | { id: number; result: string | number | boolean | null }
  | { id: number; error: string; fatal: boolean };

export type Answer = string | number | boolean | null;

/** A request before it is given its id. */
export type EngineMessage = { kind: 'run'; code: string } | { kind: 'ask'; question: string };

/** A reply as the engine sends it (anything else on the channel is forged). */
export function isReply(msg: unknown): msg is Exclude<EngineReply, { ready: true }> {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as Record<string, unknown>;
  const keys = Object.keys(m).sort().join(',');
  if (typeof m.id !== 'number') return false;
  if (keys === 'id,result') return m.result === null || ['string', 'number', 'boolean'].includes(typeof m.result);
  return keys === 'error,fatal,id' && typeof m.error === 'string' && typeof m.fatal === 'boolean';
}

export function isReady(msg: unknown): msg is Extract<EngineReply, { ready: true }> {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as Record<string, unknown>;
  return Object.keys(m).sort().join(',') === 'loadMs,ready' && m.ready === true && typeof m.loadMs === 'number';
}
