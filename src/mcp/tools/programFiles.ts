// start_session's `path`: a .py file the server reads for the agent, only under the roots it was
// given (`ndb mcp --root DIR`, default its working directory), with its project (the other files of
// its folder, read by the session layer: session/projectFiles.ts). The engine never reads the host:
// these files are handed to it.

import { existsSync, realpathSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { readProject, type Project } from '../../session/projectFiles';
import { ToolError } from '../toolKit';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

export function readProgramFile(path: string, roots: readonly string[]): Project {
  const wanted = resolve(path);
  if (!wanted.endsWith('.py')) throw new ToolError(`${path}: not a .py file`);
  if (!existsSync(wanted) || !statSync(wanted).isFile()) throw new ToolError(`${path}: no such file`);
  // Links are followed before the check, so that none leads out of the roots.
  const real = realpathSync(wanted);
  const realRoots = roots.map((r) => realpathSync(resolve(r)));
  if (!realRoots.some((r) => inside(r, real))) {
    throw new ToolError(`${path} is outside the folders this server may read (${realRoots.join(', ')}; start it with --root DIR for another)`);
  }
  // Its project is read by the rule every face uses: the main file's own folder, no link out of it.
  return readProject(real);
}
