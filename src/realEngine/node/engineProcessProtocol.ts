// The messages between the Node faces and their engine process (engineProcess.mjs, which is plain
// JavaScript and mirrors these by hand): the engine's own setup as Python source, and the
// questions of engineProtocol.ts as JSON, answered by answers.py.

/** The first message to engineProcess.mjs, before it loads Pyodide: the interpreter to restore (a
 * memory snapshot that an earlier engine made: engineSnapshot.ts), or null for a plain load;
 * `make`: load so that a snapshot can be made (Pyodide's `_makeSnapshot`). A process restored from
 * a snapshot it cannot use loads the plain way (with `make`) and says why in its `ready`. */
export interface EngineBoot {
  kind: 'boot';
  snapshot: Uint8Array | null;
  make: boolean;
  /** Python run in a restored interpreter before it says `ready` (the engine's module files). */
  setup?: readonly string[];
}

/** Messages to engineProcess.mjs. `run`: the engine's own Python (installing its modules), never
 * a user's program; `ask`: one question of engineProtocol.ts, as JSON; `snapshot`: the memory
 * snapshot of the interpreter, which the process makes only before its first `ask` (a program's
 * leftovers never reach another engine). */
export type EngineRequest =
  | { id: number; kind: 'run'; code: string }
  | { id: number; kind: 'ask'; question: string }
  | { id: number; kind: 'snapshot' };

/** Messages from engineProcess.mjs: once `ready`, then one answer per request (`result`: the
 * answer's JSON, or nothing for a `run`), or an error; a `fatal` one ends the process. */
export type EngineReply =
  | { ready: true; loadMs: number; restored: boolean; restoreError?: string }
  | { id: number; result: string | number | boolean | null }
  | { id: number; error: string; fatal: boolean }
  | { id: number; snapshot: Uint8Array };

export type Answer = string | number | boolean | null;

/** A request before it is given its id. */
export type EngineMessage = { kind: 'run'; code: string } | { kind: 'ask'; question: string } | { kind: 'snapshot' };

/** A reply as the engine sends it (anything else on the channel is forged). */
export function isReply(msg: unknown): msg is Exclude<EngineReply, { ready: true } | { snapshot: Uint8Array }> {
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
  const keys = Object.keys(m).sort().join(',');
  if (keys !== 'loadMs,ready,restored' && !(keys === 'loadMs,ready,restoreError,restored' && typeof m.restoreError === 'string')) return false;
  return m.ready === true && typeof m.loadMs === 'number' && typeof m.restored === 'boolean';
}

/** A snapshot as the engine sends it (the answer to a `snapshot` request). */
export function isSnapshotReply(msg: unknown): msg is Extract<EngineReply, { snapshot: Uint8Array }> {
  if (typeof msg !== 'object' || msg === null) return false;
  const m = msg as Record<string, unknown>;
  return Object.keys(m).sort().join(',') === 'id,snapshot' && typeof m.id === 'number' && m.snapshot instanceof Uint8Array;
}
