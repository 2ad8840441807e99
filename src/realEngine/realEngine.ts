// The real engine in one Pyodide: the engine's Python modules installed, and questions answered
// through answers.py. Used by the browser worker and by Node's tests and training tracer; the
// caller loads Pyodide and the modules' sources its own way. (The Node faces run it in a process
// of their own: processHost.ts.)

import type { PyodideInterface } from 'pyodide';
import type { Recording } from '../core/trace';
import { parseAnswer } from './answerCheck';
import type { AnswerTo, EngineQuestions, QuestionKind } from './engineProtocol';
import { tracerOptions, type RecordOptions } from './recordOptions';

export type { RecordOptions };

const MODULE_DIR = '/ndb';

/** The engine's Python modules, by the names they import each other by, in the order they are
 * installed (each imports only those before it). */
export const ENGINE_MODULES = ['ndb_sandbox', 'ndb_tracer', 'ndb_source_info', 'ndb_values', 'ndb_answers'] as const;

export type EngineModule = (typeof ENGINE_MODULES)[number];

/** Each module's file, under src/realEngine/. */
export const ENGINE_MODULE_FILES: Readonly<Record<EngineModule, string>> = {
  ndb_sandbox: 'sandbox.py',
  ndb_tracer: 'tracer.py',
  ndb_source_info: 'sourceInfo.py',
  ndb_values: 'values.py',
  ndb_answers: 'answers.py',
};

/** The engine's Python, each module's source by its name. */
export type EngineSources = Readonly<Record<EngineModule, string>>;

type PyCallable = ((...args: unknown[]) => unknown) & { destroy?: () => void };

/** What user code sees as the `js` module: an empty namespace with no prototype, so that no
 * property of it leads to the JavaScript global object (loadPyodide's `jsglobals`). */
export function sandboxJsGlobals(): object {
  return Object.create(null) as object;
}

export class RealEngine {
  private constructor(
    readonly pyodide: PyodideInterface,
    private readonly answer: PyCallable,
    private readonly checked: boolean,
  ) {}

  /** Installs the engine's modules; `options.keepLoaded` for an interpreter restored from a
   * snapshot that holds them. */
  static async create(pyodide: PyodideInterface, sources: EngineSources, options: EngineOptions = {}): Promise<RealEngine> {
    for (const name of ENGINE_MODULES) installModule(pyodide, name, sources[name], options);
    const answers = pyodide.pyimport('ndb_answers') as unknown as { answer: PyCallable };
    return new RealEngine(pyodide, answers.answer, options.checkAnswers ?? true);
  }

  /** One question of engineProtocol.ts, answered in this interpreter (and checked: answerCheck.ts). */
  ask<K extends QuestionKind>(question: { kind: K } & EngineQuestions[K]['ask']): AnswerTo<K> {
    const text = this.answer(JSON.stringify(question));
    if (this.checked) return parseAnswer(question, text);
    if (typeof text !== 'string') throw new Error(`the engine's answer to ${question.kind} was not JSON text`);
    return JSON.parse(text) as AnswerTo<K>;
  }

  record(source: string, call: string, options: RecordOptions = {}): Recording {
    return this.ask({ kind: 'record', source, call, options: tracerOptions(options) });
  }
}

export interface EngineOptions extends InstallOptions {
  /** Check each answer before it is returned (default true). The browser's worker does not: the
   * page checks what it posts (client.ts), and a check in the realm a program may have taken
   * over would prove nothing. */
  checkAnswers?: boolean;
}

export interface InstallOptions {
  /** Keep the module when it is already imported: an interpreter restored from a memory snapshot
   * taken with this very source holds it (its file is written again: the file system is not in
   * the snapshot). */
  keepLoaded?: boolean;
}

/** Python that writes a module's file where the engine imports from and makes the next import read
 * it afresh: run by installModule here, and sent as it is to the engine's own process
 * (processHost.ts). */
export function installModuleCode(name: string, source: string): string {
  const path = JSON.stringify(`${MODULE_DIR}/${name}.py`);
  return (
    `import os, sys, importlib\nos.makedirs(${JSON.stringify(MODULE_DIR)}, exist_ok=True)\n` +
    `with open(${path}, "w", encoding="utf-8") as _ndb_file: _ndb_file.write(${JSON.stringify(source)})\n` +
    `if ${JSON.stringify(MODULE_DIR)} not in sys.path: sys.path.insert(0, ${JSON.stringify(MODULE_DIR)})\n` +
    `importlib.invalidate_caches()\nsys.modules.pop(${JSON.stringify(name)}, None)`
  );
}

export function installModule(pyodide: PyodideInterface, name: string, source: string, options: InstallOptions = {}): void {
  if (!options.keepLoaded) {
    pyodide.runPython(installModuleCode(name, source));
    return;
  }
  // A restored interpreter has the module imported and its folder on sys.path; only the file is
  // gone (the file system is not in a memory snapshot): written straight, with no Python to parse
  // (Python reads it again only for a traceback's lines).
  pyodide.FS.mkdirTree(MODULE_DIR);
  pyodide.FS.writeFile(`${MODULE_DIR}/${name}.py`, source, { encoding: 'utf8' });
}
