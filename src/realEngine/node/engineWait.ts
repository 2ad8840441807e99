// "waiting for an engine (N s)": what a face says, once, when a request of its waits for a Python
// engine that is still loading (or, in a server's pool, for one to be free). The hosts
// (processHost.ts, processPool.ts, nodeHosts.ts) report each wait here; who hears it is the face:
// a command or a debug adapter (one program per process) sets one listener for the process
// (stderr; a DAP output event), a server runs each request with its own (MCP: the answer says it).
// A wait shorter than WAIT_NOTICE_MS is not worth a line; N is how long the engine has been
// starting when the line is said.

import { AsyncLocalStorage } from 'node:async_hooks';

/** A wait shorter than this says nothing. */
export const WAIT_NOTICE_MS = 1_000;

interface Listener {
  say: (text: string) => void;
  said: boolean;
  /** The longest wait reported to it (ms), once over. */
  waitedMs: number;
}

const perRequest = new AsyncLocalStorage<Listener>();
let perProcess: Listener | null = null;

/** The line a face says (without its "ndb: " prefix). */
export function waitingText(seconds: number): string {
  return `waiting for an engine (${seconds} s)`;
}

/** Where this process's waits are said, when no request-scoped listener is set (a command, a
 * debug adapter); null: nowhere. */
export function setEngineWaitNotice(say: ((text: string) => void) | null): void {
  perProcess = say ? { say, said: false, waitedMs: 0 } : null;
}

/** Runs `work` with its engine waits said to `say` (at most once); resolves with its result and
 * the longest wait it had (ms, 0 if none was reported). */
export async function withEngineWaits<T>(say: (text: string) => void, work: () => Promise<T>): Promise<{ result: T; waitedMs: number }> {
  const listener: Listener = { say, said: false, waitedMs: 0 };
  const result = await perRequest.run(listener, work);
  return { result, waitedMs: listener.waitedMs };
}

/** A host's request waits for `pending` (an engine loading since `since`, a Date.now() time):
 * past WAIT_NOTICE_MS its face is told, once. */
export function engineWaitHere(pending: Promise<unknown>, since: number): void {
  const listener = perRequest.getStore() ?? perProcess;
  if (!listener) return;
  const began = Date.now();
  const timer = setTimeout(() => {
    if (listener.said) return;
    listener.said = true;
    listener.say(waitingText(Math.max(1, Math.round((Date.now() - since) / 1000))));
  }, WAIT_NOTICE_MS);
  timer.unref?.();
  const over = () => {
    clearTimeout(timer);
    listener.waitedMs = Math.max(listener.waitedMs, Date.now() - began);
  };
  pending.then(over, over);
}
