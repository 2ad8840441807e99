// The files an evaluation reads: sets of items (JSONL), their labels, the gallery's programs.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProgramHeader } from '../core/programHeader';
import { REPO_ROOT } from '../util/repoRoot';
import type { BenchProgram } from './bench';

/** A set file that cannot be read or parsed, or labels that do not fit the files: the user's
 * mistake (the CLI shows its usage). */
export class SetFileError extends Error {}

/** The gallery's programs (examples/*.py) in file order, their header lines taken off. */
export function examplePrograms(): BenchProgram[] {
  const dir = join(REPO_ROOT, 'examples');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.py'))
    .sort()
    .map((f) => {
      const { call, body } = parseProgramHeader(readFileSync(join(dir, f), 'utf8'));
      return { id: f.replace(/\.py$/, ''), source: body, call };
    });
}

/** A name for each evaluation set: `--label a,b` in file order, else the file name without .jsonl. */
export function setLabels(files: readonly string[], option: string | undefined): string[] {
  const given = option === undefined ? [] : option.split(',');
  if (option !== undefined && given.length !== files.length) throw new SetFileError('--label needs one name per FILE');
  return files.map((f, i) => given[i] ?? f.replace(/^.*\//, '').replace(/\.jsonl$/, ''));
}

/** The first `limit` items of a JSONL file. */
export function readJsonl<T>(path: string, limit: number | undefined): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new SetFileError(`cannot read ${path}`);
  }
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch {
        throw new SetFileError(`${path}:${i + 1} is not JSON`);
      }
    })
    .slice(0, limit);
}

