// What the long-lived servers (`ndb dap`, `ndb mcp`) ask of Python, behind one asynchronous
// interface: recording a run, and the small questions a front end asks about a program without
// running it. Asynchronous so that the engine can move into a worker without touching callers.

import type { Recording } from '../core/trace';
import { loadNodeEngine, readRepoFile } from './node';
import { installModule, type RealEngine, type RecordOptions } from './realEngine';

/** evaluate_on_locals's answer (values.py): a repr, the error raised, or why it is unknown. */
export type LocalsEvaluation = { value: string } | { error: string } | { unknown: string };

export type CodeLines = { lines: number[] } | { error: string; line: number };

export interface PythonHost {
  record(source: string, call: string, options?: RecordOptions): Promise<Recording>;
  /** The lines of the program that hold code (where a breakpoint can stop). */
  codeLines(source: string): Promise<CodeLines>;
  /** The SyntaxError of a condition or watch expression, or null when it parses. */
  expressionError(expr: string): Promise<string | null>;
  /** A watch expression on a model's predicted locals (reprs), without the program. */
  evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation>;
}

interface SourceInfoModule {
  executable_lines(source: string): string;
  expression_error(expr: string): string | null | undefined;
}

interface ValuesModule {
  evaluate_on_locals(expr: string, localsJson: string): string;
}

/** The real engine in this process (Pyodide under Node). */
export function inProcessHost(engine: RealEngine): PythonHost {
  installModule(engine.pyodide, 'ndb_source_info', readRepoFile('src/realEngine/sourceInfo.py'));
  installModule(engine.pyodide, 'ndb_values', readRepoFile('src/realEngine/values.py'));
  const info = engine.pyodide.pyimport('ndb_source_info') as unknown as SourceInfoModule;
  const values = engine.pyodide.pyimport('ndb_values') as unknown as ValuesModule;
  return {
    record: async (source, call, options = {}) => engine.record(source, call, options),
    codeLines: async (source) => JSON.parse(info.executable_lines(source)) as CodeLines,
    expressionError: async (expr) => info.expression_error(expr) ?? null,
    evaluateOnLocals: async (expr, locals) => JSON.parse(values.evaluate_on_locals(expr, JSON.stringify(locals))) as LocalsEvaluation,
  };
}

let host: Promise<PythonHost> | undefined;

/** The host of the long-running servers, one per process: Pyodide in a worker thread, so that a
 * run that never returns can be stopped (workerHost.ts). */
export function loadPythonHost(): Promise<PythonHost> {
  host ??= (async () => {
    const { WorkerHost } = await import('./workerHost');
    const worker = new WorkerHost();
    await worker.whenReady();
    return worker;
  })();
  // A failed load is not kept: the next request tries again.
  host.catch(() => (host = undefined));
  return host;
}

/** The host on this thread's Pyodide (the CLI's), for callers that need no hard stop. */
export async function loadInProcessHost(): Promise<PythonHost> {
  return inProcessHost(await loadNodeEngine());
}
