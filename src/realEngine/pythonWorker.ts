// The Python worker thread: Pyodide and the tracer behind the PythonHost interface, so that the
// main thread can stop a run that never returns (a long computation inside one C call, which
// the tracer's time limit cannot interrupt) by ending the thread.

import { parentPort } from 'node:worker_threads';
import { loadNodeEngine } from './node';
import { inProcessHost, type PythonHost } from './pythonHost';

export type HostMethod = 'record' | 'codeLines' | 'expressionError' | 'evaluateOnLocals';

export type WorkerRequest = { id: number; method: HostMethod; args: unknown[] };

export type WorkerReply = { ready: true } | { id: number; result: unknown } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('pythonWorker.ts runs as a worker thread (see workerHost.ts)');

const host: PythonHost = inProcessHost(await loadNodeEngine());

port.on('message', (msg: WorkerRequest) => {
  void (async () => {
    try {
      const method = host[msg.method] as (...args: unknown[]) => Promise<unknown>;
      port.postMessage({ id: msg.id, result: await method(...msg.args) } satisfies WorkerReply);
    } catch (err) {
      port.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) } satisfies WorkerReply);
    }
  })();
});

port.postMessage({ ready: true } satisfies WorkerReply);
