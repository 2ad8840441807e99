// The root of this checkout, for Node code that reads the repository's own files (the engine's
// Python and script, the shipped models, fixtures). It is found by walking up from this module to
// the first folder whose package.json names this project, never by a fixed number of `../`: the
// same code also runs from the CLI's esbuild bundle (node_modules/.cache/ndb-cli/<dir>/: bin/cliBundle.mjs), at another depth.

import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `name` of this project's package.json. */
const PROJECT_NAME = 'ndb';

let found: string | undefined;

/** The repository's root folder, with a trailing separator; looked up once. */
export function repoRoot(): string {
  if (found !== undefined) return found;
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    if (isProjectRoot(dir)) return (found = dir.endsWith(sep) ? dir : dir + sep);
    if (dirname(dir) === dir) throw new Error(`no package.json named "${PROJECT_NAME}" in ${start} or above it`);
  }
}

function isProjectRoot(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === PROJECT_NAME;
  } catch {
    return false; // no package.json here, or not one that parses: not the root
  }
}

export const REPO_ROOT = repoRoot();
