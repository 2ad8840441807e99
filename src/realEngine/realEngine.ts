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
}

const MODULE_DIR = '/ndb';

type PyCallable = ((...args: unknown[]) => unknown) & { destroy?: () => void };

export class RealEngine {
  private constructor(
    readonly pyodide: PyodideInterface,
    private readonly recordJson: PyCallable,
  ) {}

  /** Installs Python modules (name → source) next to the tracer, e.g. test oracles. */
  static async create(pyodide: PyodideInterface, tracerSource: string, options: InstallOptions = {}): Promise<RealEngine> {
    installModule(pyodide, 'ndb_tracer', tracerSource, options);
    const tracer = pyodide.pyimport('ndb_tracer') as unknown as { record_json: PyCallable };
    return new RealEngine(pyodide, tracer.record_json);
  }

  record(source: string, call: string, options: RecordOptions = {}): Recording {
    const py: Record<string, unknown> = {};
    if (options.maxEvents !== undefined) py.max_events = options.maxEvents;
    if (options.maxRepr !== undefined) py.max_repr = options.maxRepr;
    if (options.timeLimit !== undefined) py.time_limit = options.timeLimit;
    if (options.edits?.length) py.edits = options.edits;
    if (options.conditions && Object.keys(options.conditions).length > 0) py.conditions = options.conditions;
    if (options.watch?.length) py.watch = options.watch;
    const text = this.recordJson(source, call, JSON.stringify(py));
    if (typeof text !== 'string') throw new Error('the tracer returned no JSON');
    return JSON.parse(text) as Recording;
  }
}

export interface InstallOptions {
  /** Keep the module when it is already imported: an interpreter restored from a memory snapshot
   * taken with this very source holds it (its file is written again: the file system is not in
   * the snapshot). */
  keepLoaded?: boolean;
}

export function installModule(pyodide: PyodideInterface, name: string, source: string, options: InstallOptions = {}): void {
  const fs = pyodide.FS as { mkdirTree: (p: string) => void; writeFile: (p: string, d: string) => void };
  fs.mkdirTree(MODULE_DIR);
  fs.writeFile(`${MODULE_DIR}/${name}.py`, source);
  const fresh = options.keepLoaded ? '' : `\nimportlib.invalidate_caches()\nsys.modules.pop(${JSON.stringify(name)}, None)`;
  pyodide.runPython(`import sys, importlib\nif ${JSON.stringify(MODULE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})${fresh}`);
}
