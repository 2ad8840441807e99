// Loads the real engine in Node (CLI and tests): Pyodide from node_modules, the tracer from
// src/realEngine/python/tracer.py.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPyodide } from 'pyodide';
import { REPO_ROOT } from '../../util/repoRoot';
import { ENGINE_MODULE_FILES, ENGINE_MODULES, RealEngine, sandboxJsGlobals, type EngineSources } from '../realEngine';

/** A file of this checkout, by its path from the repository's root. */
export function readRepoFile(relative: string): string {
  return readFileSync(join(REPO_ROOT, relative), 'utf8');
}

/** Where the engine's Python lives, from the repository's root. */
export const ENGINE_PYTHON_DIR = 'src/realEngine/python';

/** The engine's Python, read from this checkout. */
export function engineSources(): EngineSources {
  return Object.fromEntries(ENGINE_MODULES.map((name) => [name, readRepoFile(`${ENGINE_PYTHON_DIR}/${ENGINE_MODULE_FILES[name]}`)])) as EngineSources;
}

let engine: Promise<RealEngine> | undefined;

/** One Pyodide in this process: loading takes seconds. Only for tests and the training tracer
 * (which run ndb's own programs and the corpus): the faces that run a user's program use the
 * sandboxed engine process (processHost.ts). */
export function loadNodeEngine(): Promise<RealEngine> {
  engine ??= (async () => {
    const pyodide = await loadPyodide({
      jsglobals: sandboxJsGlobals(),
      stdout: (line: string) => process.stderr.write(`${line}\n`),
      stderr: (line: string) => process.stderr.write(`${line}\n`),
    });
    return RealEngine.create(pyodide, engineSources());
  })();
  return engine;
}
