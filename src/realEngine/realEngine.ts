// The real engine: the tracer running in Pyodide. Used by the browser worker and by Node (CLI,
// tests); the caller loads Pyodide and the tracer's source its own way.

import type { PyodideInterface } from 'pyodide';
import type { Recording } from '../core/trace';
import type { Edit } from '../core/whatIf';

export interface RecordOptions {
  /** The event budget; the program is stopped past it (default 10,000). */
  maxEvents?: number;
  /** Longest repr kept for a value, in characters. */
  maxRepr?: number;
  /** Wall-clock limit in seconds, checked by the tracer between events. */
  timeLimit?: number;
  /** What-if: assignments made in the live frame at given events (core/whatIf.ts). */
  edits?: readonly Edit[];
  /** Breakpoint conditions (line → Python expression), evaluated in the frame. */
  conditions?: Readonly<Record<number, string>>;
  /** Watch expressions, evaluated in the frame at every event. */
  watch?: readonly string[];
  /** Other modules of the program (name → source), importable while it runs: written into
   * Python's own memory, never read from the host by the engine. */
  modules?: Readonly<Record<string, string>>;
  /** The program's input: `input()` reads it one line per call, echoed into the output, and
   * raises EOFError past its end. Absent: `input()` is refused with a message. */
  stdin?: string;
}

const USER_MODULES_DIR = '/ndb_program';

/** Python that makes `modules` importable for the next run (and forgets earlier ones). */
export function moduleFilesCode(modules: Readonly<Record<string, string>>): string {
  const names = JSON.stringify(Object.keys(modules));
  return [
    'import os, sys, importlib, shutil',
    `shutil.rmtree(${JSON.stringify(USER_MODULES_DIR)}, ignore_errors=True)`,
    `os.makedirs(${JSON.stringify(USER_MODULES_DIR)}, exist_ok=True)`,
    `for _ndb_name, _ndb_text in ${JSON.stringify(modules)}.items():`,
    `    with open(f"${USER_MODULES_DIR}/{_ndb_name}.py", "w", encoding="utf-8") as _ndb_file: _ndb_file.write(_ndb_text)`,
    `for _ndb_name in ${names}: sys.modules.pop(_ndb_name, None)`,
    `if ${JSON.stringify(USER_MODULES_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(USER_MODULES_DIR)})`,
    'importlib.invalidate_caches()',
  ].join('\n');
}

/** Python that takes the modules of `moduleFilesCode` away again after the run. */
export function moduleFilesCleanup(modules: Readonly<Record<string, string>>): string {
  return [
    'import sys, shutil',
    `for _ndb_name in ${JSON.stringify(Object.keys(modules))}: sys.modules.pop(_ndb_name, None)`,
    `shutil.rmtree(${JSON.stringify(USER_MODULES_DIR)}, ignore_errors=True)`,
    `if ${JSON.stringify(USER_MODULES_DIR)} in sys.path: sys.path.remove(${JSON.stringify(USER_MODULES_DIR)})`,
  ].join('\n');
}

const MODULE_DIR = '/ndb';

/** The engine's Python: the tracer and the sandbox it runs programs in (sandbox.py). */
export interface EngineSources {
  tracer: string;
  sandbox: string;
}

type PyCallable = ((...args: unknown[]) => unknown) & { destroy?: () => void };

/** The tracer's options as the JSON record_json reads. */
export function recordOptionsJson(options: RecordOptions): string {
  const py: Record<string, unknown> = {};
  if (options.maxEvents !== undefined) py.max_events = options.maxEvents;
  if (options.maxRepr !== undefined) py.max_repr = options.maxRepr;
  if (options.timeLimit !== undefined) py.time_limit = options.timeLimit;
  if (options.edits?.length) py.edits = options.edits;
  if (options.conditions && Object.keys(options.conditions).length > 0) py.conditions = options.conditions;
  if (options.watch?.length) py.watch = options.watch;
  if (options.stdin !== undefined) py.stdin = options.stdin;
  return JSON.stringify(py);
}

/** record_json's answer as a recording. */
export function parseRecording(text: unknown): Recording {
  if (typeof text !== 'string') throw new Error('the tracer returned no JSON');
  return JSON.parse(text) as Recording;
}

/** What user code sees as the `js` module: an empty namespace with no prototype, so that no
 * property of it leads to the JavaScript global object (loadPyodide's `jsglobals`). */
export function sandboxJsGlobals(): object {
  return Object.create(null) as object;
}

export class RealEngine {
  private constructor(
    readonly pyodide: PyodideInterface,
    private readonly recordJson: PyCallable,
  ) {}

  /** Installs the sandbox and the tracer; `options.keepLoaded` for an interpreter restored from a
   * snapshot that holds them. */
  static async create(pyodide: PyodideInterface, sources: EngineSources, options: InstallOptions = {}): Promise<RealEngine> {
    installModule(pyodide, 'ndb_sandbox', sources.sandbox, options);
    installModule(pyodide, 'ndb_tracer', sources.tracer, options);
    const tracer = pyodide.pyimport('ndb_tracer') as unknown as { record_json: PyCallable };
    return new RealEngine(pyodide, tracer.record_json);
  }

  record(source: string, call: string, options: RecordOptions = {}): Recording {
    const modules = options.modules && Object.keys(options.modules).length > 0 ? options.modules : null;
    if (modules) this.pyodide.runPython(moduleFilesCode(modules));
    try {
      return parseRecording(this.recordJson(source, call, recordOptionsJson(options)));
    } finally {
      if (modules) this.pyodide.runPython(moduleFilesCleanup(modules));
    }
  }
}

export interface InstallOptions {
  /** Keep the module when it is already imported: an interpreter restored from a memory snapshot
   * taken with this very source holds it (its file is written again: the file system is not in
   * the snapshot). */
  keepLoaded?: boolean;
}

/** Python that writes a module's file where the engine imports from and, unless `keepLoaded`,
 * makes the next import read it afresh: run by installModule here, and sent as it is to the
 * engine's own process (processHost.ts). */
export function installModuleCode(name: string, source: string, options: InstallOptions = {}): string {
  const path = JSON.stringify(`${MODULE_DIR}/${name}.py`);
  const fresh = options.keepLoaded ? '' : `\nimportlib.invalidate_caches()\nsys.modules.pop(${JSON.stringify(name)}, None)`;
  return (
    `import os, sys, importlib\nos.makedirs(${JSON.stringify(MODULE_DIR)}, exist_ok=True)\n` +
    `with open(${path}, "w", encoding="utf-8") as _ndb_file: _ndb_file.write(${JSON.stringify(source)})\n` +
    `if ${JSON.stringify(MODULE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})${fresh}`
  );
}

export function installModule(pyodide: PyodideInterface, name: string, source: string, options: InstallOptions = {}): void {
  pyodide.runPython(installModuleCode(name, source, options));
}
