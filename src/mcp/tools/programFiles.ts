// start_session's `path`: a .py file the server reads for the agent, only under the roots it was
// given (`ndb mcp --root DIR`, default its working directory), with the other .py files of its
// folder as importable modules. The engine never reads the host: these sources are handed to it.

import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { ToolError } from '../toolKit';

export const MAX_FILE_BYTES = 200_000;
export const MAX_MODULES = 50;

export interface ProgramFile {
  source: string;
  /** The name the program goes by in messages (its file name). */
  file: string;
  /** Module name → source, for the other .py files of the folder. */
  modules: Record<string, string>;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

export function readProgramFile(path: string, roots: readonly string[]): ProgramFile {
  const wanted = resolve(path);
  if (!wanted.endsWith('.py')) throw new ToolError(`${path}: not a .py file`);
  if (!existsSync(wanted) || !statSync(wanted).isFile()) throw new ToolError(`${path}: no such file`);
  // Links are followed before the check, so that none leads out of the roots.
  const real = realpathSync(wanted);
  const realRoots = roots.map((r) => realpathSync(resolve(r)));
  if (!realRoots.some((r) => inside(r, real))) {
    throw new ToolError(`${path} is outside the folders this server may read (${realRoots.join(', ')}; start it with --root DIR for another)`);
  }
  const read = (file: string): string => {
    if (statSync(file).size > MAX_FILE_BYTES) throw new ToolError(`${file} is larger than ${MAX_FILE_BYTES} bytes`);
    return readFileSync(file, 'utf8');
  };
  const modules: Record<string, string> = {};
  const folder = dirname(real);
  const siblings = readdirSync(folder)
    .filter((f) => f.endsWith('.py') && f !== basename(real) && /^[A-Za-z_][A-Za-z0-9_]*\.py$/.test(f))
    .sort()
    .slice(0, MAX_MODULES);
  for (const f of siblings) {
    const file = realpathSync(join(folder, f));
    if (realRoots.some((r) => inside(r, file)) && statSync(file).isFile()) modules[f.slice(0, -3)] = read(file);
  }
  return { source: read(real), file: basename(real), modules };
}
