// Loads the real engine in Node (CLI and tests): Pyodide from node_modules, the tracer from
// src/realEngine/tracer.py.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';
import { ENGINE_MODULE_FILES, ENGINE_MODULES, RealEngine, sandboxJsGlobals, type EngineSources } from './realEngine';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function readRepoFile(relative: string): string {
  return readFileSync(new URL(`../../${relative}`, import.meta.url), 'utf8');
}

/** The engine's Python, read from this checkout. */
export function engineSources(): EngineSources {
  return Object.fromEntries(ENGINE_MODULES.map((name) => [name, readRepoFile(`src/realEngine/${ENGINE_MODULE_FILES[name]}`)])) as EngineSources;
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
