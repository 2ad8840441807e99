// Where the Node faces get their real engine (the interface is engineProtocol.ts's PythonHost):
// one sandboxed engine process for a command, a pool for a server, and the in-process engine of
// the tests.

import { hostFromAsk, type PythonHost } from '../engineProtocol';
import { engineWaitHere } from './engineWait';
import { loadNodeEngine } from './node';
import type { RealEngine } from '../realEngine';

/** The real engine in this process (tests only: a user's program runs in the engine process). */
export function inProcessHost(engine: RealEngine): PythonHost {
  // one interpreter for everything: tests only, never a user's program
  const host: PythonHost = hostFromAsk(async (question) => engine.ask(question), { forOwner: () => host, release: async () => undefined });
  return host;
}

let noticed = false;

/** Says on stderr, once, when programs run without the operating system's boundary (every face
 * writes its protocol on stdout, never there). */
function noticeOnce(): void {
  if (noticed) return;
  noticed = true;
  void import('./engineChild').then(({ engineSandboxNotice }) => {
    const notice = engineSandboxNotice();
    if (notice) process.stderr.write(`${notice}\n`);
  });
}

/** A host of engine processes as nodeHosts hands it out: ready once its first process is. */
interface StartedHost extends PythonHost {
  whenReady(): Promise<void>;
  readonly startedAt: number;
  close(): Promise<void>;
}

/** The started host once it is ready; the wait is reported where the caller is (engineWait.ts: a
 * face says "waiting for an engine" once). A failed load is not kept: the next call starts again. */
async function whenLoaded<H extends StartedHost>(started: Promise<H>, forget: () => void): Promise<H> {
  let engine: H;
  try {
    engine = await started;
  } catch (err) {
    forget();
    throw err;
  }
  const ready = engine.whenReady();
  engineWaitHere(ready, engine.startedAt);
  try {
    await ready;
  } catch (err) {
    forget();
    void engine.close();
    throw err;
  }
  return engine;
}

let host: Promise<StartedHost> | undefined;

function startHost(): Promise<StartedHost> {
  host ??= import('./processHost').then(({ ProcessHost }) => {
    noticeOnce();
    return new ProcessHost();
  });
  return host;
}

/** Starts this process's engine now without waiting for it: a command's first act, so that Python
 * loads while the command reads its files and its model (bin/ndb.mjs). */
export function prestartPythonHost(): void {
  const started = startHost();
  started.catch(() => {
    if (host === started) host = undefined;
  });
}

/** The engine of the Node faces, one per process: Pyodide in a sandboxed process of its own that
 * is replaced when a run holds it past its deadline (processHost.ts). */
export function loadPythonHost(): Promise<PythonHost> {
  const started = startHost();
  return whenLoaded(started, () => {
    if (host === started) host = undefined;
  });
}

let pool: Promise<StartedHost> | undefined;

function startPool(): Promise<StartedHost> {
  pool ??= import('./processPool').then(({ ProcessPool }) => {
    noticeOnce();
    return new ProcessPool();
  });
  return pool;
}

/** Starts this server's pool now without waiting for it (`ndb mcp`'s first act: bin/ndb.mjs). */
export function prestartPythonPool(): void {
  const started = startPool();
  started.catch(() => {
    if (pool === started) pool = undefined;
  });
}

/** The engine of a server that holds many sessions (`ndb mcp`): several processes, so that a run
 * stuck in one holds no other session (processPool.ts). */
export function loadPythonPool(): Promise<PythonHost> {
  const started = startPool();
  return whenLoaded(started, () => {
    if (pool === started) pool = undefined;
  });
}

/** The in-process host on this thread's Pyodide, for tests. */
export async function loadInProcessHost(): Promise<PythonHost> {
  return inProcessHost(await loadNodeEngine());
}
