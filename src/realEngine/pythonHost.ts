// What the Node faces (the CLI, `ndb dap`, `ndb mcp`) ask of Python, behind one asynchronous
// interface: recording a run, the small questions a front end asks about a program without running
// it, and comparing values written as text (evaluation). Asynchronous because the engine lives in a
// sandboxed process of its own (processHost.ts).

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
  /** Whether two reprs denote equal Python values (values.py same_value). */
  sameValue(predicted: string, expected: string): Promise<boolean>;
  /** The first argument of a call's argument list as written, or null (values.py). */
  firstArgument(args: string): Promise<string | null>;
  /** Predicted argument reprs joined into an argument list, or null if one is no literal. */
  callArguments(values: readonly string[]): Promise<string | null>;
  /** The host as one owner (a session, a launch) sees it: its requests never share an
   * interpreter with another owner's, so that nothing a program leaves behind reaches another's
   * (processHost.ts). */
  forOwner(owner: string): PythonHost;
  /** This owner is done (a session ended, a launch disconnected): the interpreter its programs
   * ran in ends, so nothing of it stays in memory or is handed on. */
  release(): Promise<void>;
}

interface SourceInfoModule {
  executable_lines(source: string): string;
  expression_error(expr: string): string | null | undefined;
}

interface ValuesModule {
  evaluate_on_locals(expr: string, localsJson: string): string;
  same_value(predicted: string, expected: string): boolean;
  first_argument(args: string): string | null | undefined;
  call_arguments_json(valuesJson: string): string | null | undefined;
}

/** The real engine in this process (tests only: a user's program runs in the engine process). */
export function inProcessHost(engine: RealEngine): PythonHost {
  installModule(engine.pyodide, 'ndb_source_info', readRepoFile('src/realEngine/sourceInfo.py'));
  installModule(engine.pyodide, 'ndb_values', readRepoFile('src/realEngine/values.py'));
  const info = engine.pyodide.pyimport('ndb_source_info') as unknown as SourceInfoModule;
  const values = engine.pyodide.pyimport('ndb_values') as unknown as ValuesModule;
  const host: PythonHost = {
    // one interpreter for everything: tests only, never a user's program
    forOwner: () => host,
    release: async () => undefined,
    record: async (source, call, options = {}) => engine.record(source, call, options),
    codeLines: async (source) => JSON.parse(info.executable_lines(source)) as CodeLines,
    expressionError: async (expr) => info.expression_error(expr) ?? null,
    evaluateOnLocals: async (expr, locals) => JSON.parse(values.evaluate_on_locals(expr, JSON.stringify(locals))) as LocalsEvaluation,
    sameValue: async (a, b) => Boolean(values.same_value(a, b)),
    firstArgument: async (args) => values.first_argument(args) ?? null,
    callArguments: async (list) => values.call_arguments_json(JSON.stringify(list)) ?? null,
  };
  return host;
}

let host: Promise<PythonHost> | undefined;
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
