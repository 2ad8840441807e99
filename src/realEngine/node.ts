// Loads the real engine in Node (CLI and tests): Pyodide from node_modules, the tracer from
// src/realEngine/tracer.py.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadPyodide } from 'pyodide';
import { RealEngine } from './realEngine';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function readRepoFile(relative: string): string {
  return readFileSync(new URL(`../../${relative}`, import.meta.url), 'utf8');
}

let engine: Promise<RealEngine> | undefined;

/** One Pyodide per process: loading takes seconds. */
export function loadNodeEngine(): Promise<RealEngine> {
  engine ??= (async () => {
    const pyodide = await loadPyodide({
      stdout: (line: string) => process.stderr.write(`${line}\n`),
      stderr: (line: string) => process.stderr.write(`${line}\n`),
    });
    return RealEngine.create(pyodide, readRepoFile('src/realEngine/tracer.py'));
  })();
  return engine;
}
