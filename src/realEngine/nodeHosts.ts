// Where the Node faces get their real engine (the interface is engineProtocol.ts's PythonHost):
// one sandboxed engine process for a command, a pool for a server, and the in-process engine of
// the tests.

import { hostFromAsk, type PythonHost } from './engineProtocol';
import { loadNodeEngine } from './node';
import type { RealEngine } from './realEngine';

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

let host: Promise<PythonHost> | undefined;

/** The engine of the Node faces, one per process: Pyodide in a sandboxed process of its own that
 * is replaced when a run holds it past its deadline (processHost.ts). */
export function loadPythonHost(): Promise<PythonHost> {
  host ??= (async () => {
    const { ProcessHost } = await import('./processHost');
    noticeOnce();
    const engine = new ProcessHost();
    await engine.whenReady();
    return engine;
  })();
  // A failed load is not kept: the next request tries again.
  host.catch(() => (host = undefined));
  return host;
}

let pool: Promise<PythonHost> | undefined;

/** The engine of a server that holds many sessions (`ndb mcp`): several processes, so that a run
 * stuck in one holds no other session (processPool.ts). */
export function loadPythonPool(): Promise<PythonHost> {
  pool ??= (async () => {
    const { ProcessPool } = await import('./processPool');
    noticeOnce();
    const engines = new ProcessPool();
    await engines.whenReady();
    return engines;
  })();
  pool.catch(() => (pool = undefined));
  return pool;
}

/** The in-process host on this thread's Pyodide, for tests. */
export async function loadInProcessHost(): Promise<PythonHost> {
  return inProcessHost(await loadNodeEngine());
}
