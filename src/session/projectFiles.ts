// A program of several files, read from its project folder for the engine (Node faces only): the
// main file, every other `.py` file below the folder (recorded too, so stepping enters them) and
// the other files as data the program may open. The engine never reads the host: these copies are
// handed in with each run (RecordOptions.files/blobs) and written into Python's own memory,
// read-only. What does not fit the caps is left out and said (`leftOut`), never dropped silently.

import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { RecordOptions } from '../realEngine/recordOptions';
import { ProgramError } from './programSession';
import { nameTable } from '../core/names';

/** The largest source file read (main file or module). */
export const MAX_SOURCE_BYTES = 200_000;
/** The largest data file handed in. */
export const MAX_DATA_FILE_BYTES = 1_000_000;
/** All files together (they travel to the engine with every run). */
export const MAX_PROJECT_BYTES = 4_000_000;
/** Files of either kind, the main file included. */
export const MAX_PROJECT_FILES = 200;
/** How deep below the folder, and how many entries, the walk looks (a file in a home folder or in
 * /tmp must not make ndb read the disk). */
export const MAX_WALK_DEPTH = 6;
export const MAX_WALK_ENTRIES = 2_000;
/** Folders never walked: caches, version control, environments, dependencies. */
const SKIPPED_DIRS = new Set(['__pycache__', 'node_modules', 'venv', 'env', 'site-packages', 'dist', 'build']);

export interface LeftOut {
  file: string;
  reason: string;
}

export interface Project {
  /** The project's folder (the main file's), as the host names it. */
  folder: string;
  /** The main file relative to the folder. */
  main: string;
  source: string;
  /** The other files, relative path → text (`.py` modules first, then data). */
  files: Record<string, string>;
  /** Data files that are not UTF-8 text, relative path → base64. */
  blobs: Record<string, string>;
  /** Files not handed in, with why (too large, too many, unreadable). */
  leftOut: LeftOut[];
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep));
}

/** The one rule of what a program may read, for every face (the CLI, DAP and MCP): a file under
 * the program's own folder, not hidden, reached without leaving the folder. A link is followed
 * only where its target is under the folder too and no part of the target's path below it is
 * hidden (`notes.txt -> ../../.ssh/id_rsa`, `up -> ../..` and `env.txt -> .env` are all left out,
 * and said); null when `path` may be read, else why not. */
export function whyNotReadable(folder: string, path: string): string | null {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return 'a link to nothing, or unreadable';
  }
  if (!inside(folder, real)) return 'a link out of the program\'s folder';
  const below = relative(folder, real);
  if (below !== '' && below.split(sep).some((part) => part.startsWith('.'))) return 'a link to a hidden file or folder';
  return null;
}

/** Every file below `folder` (sorted, hidden entries and caches skipped) that `whyNotReadable`
 * allows; what it refuses is left out with its reason. */
function walk(folder: string, out: string[], leftOut: LeftOut[], root: string, depth = 0, seen = { entries: 0 }): void {
  if (depth > MAX_WALK_DEPTH) {
    leftOut.push({ file: relative(root, folder), reason: `deeper than ${MAX_WALK_DEPTH} folders` });
    return;
  }
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue;
    const path = join(folder, name);
    if (++seen.entries > MAX_WALK_ENTRIES) {
      leftOut.push({ file: relative(root, path), reason: `past the first ${MAX_WALK_ENTRIES} entries of the folder (and what follows)` });
      return;
    }
    const refused = whyNotReadable(root, path);
    if (refused !== null) {
      leftOut.push({ file: relative(root, path), reason: refused });
      continue;
    }
    const real = realpathSync(path);
    const stat = lstatSync(real);
    if (stat.isDirectory()) {
      if (!SKIPPED_DIRS.has(name)) walk(path, out, leftOut, root, depth + 1, seen);
      if (seen.entries > MAX_WALK_ENTRIES) return;
    } else if (stat.isFile()) out.push(path);
  }
}

/** Reads the project of `mainPath` (a .py file): its folder, walked below, by the one rule of
 * `whyNotReadable` (a face that limits where a main file may be, as MCP's roots do, checks that
 * before). Throws ProgramError when the main file cannot be read. */
export function readProject(mainPath: string): Project {
  const real = realpathSync(mainPath);
  const folder = dirname(real);
  const leftOut: LeftOut[] = [];
  const mainStat = lstatSync(real);
  if (mainStat.size > MAX_SOURCE_BYTES) throw new ProgramError(`${mainPath} is larger than ${MAX_SOURCE_BYTES} bytes`);
  const source = readFileSync(real, 'utf8');
  let total = Buffer.byteLength(source);
  const paths: string[] = [];
  walk(folder, paths, leftOut, folder);
  // Modules first: the program cannot run without them; data as room allows.
  const rel = (p: string) => relative(folder, p).split(sep).join('/');
  const others = paths.filter((p) => realpathSync(p) !== real);
  const modules = others.filter((p) => p.endsWith('.py'));
  const data = others.filter((p) => !p.endsWith('.py') && !p.endsWith('.pyc'));
  // keyed by the project's file names (a data file may be called `__proto__`): no prototype
  const files: Record<string, string> = nameTable();
  const blobs: Record<string, string> = nameTable();
  let count = 1;
  for (const path of [...modules, ...data]) {
    const name = rel(path);
    const size = lstatSync(realpathSync(path)).size;
    const cap = path.endsWith('.py') ? MAX_SOURCE_BYTES : MAX_DATA_FILE_BYTES;
    if (size > cap) {
      leftOut.push({ file: name, reason: `larger than ${cap} bytes (${size})` });
      continue;
    }
    if (count >= MAX_PROJECT_FILES) {
      leftOut.push({ file: name, reason: `past ${MAX_PROJECT_FILES} files` });
      continue;
    }
    if (total + size > MAX_PROJECT_BYTES) {
      leftOut.push({ file: name, reason: `past ${MAX_PROJECT_BYTES} bytes for the whole project` });
      continue;
    }
    const bytes = readFileSync(path);
    const text = utf8(bytes);
    if (text !== undefined) files[name] = text;
    else if (path.endsWith('.py')) {
      leftOut.push({ file: name, reason: 'not UTF-8 text' });
      continue;
    } else blobs[name] = bytes.toString('base64');
    total += size;
    count++;
  }
  return { folder, main: basename(real), source, files, blobs, leftOut };
}

function utf8(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The run options that hand a project to the engine. */
export function projectOptions(project: Project): Pick<RecordOptions, 'files' | 'blobs' | 'mainFile'> {
  return {
    mainFile: project.main,
    ...(Object.keys(project.files).length ? { files: project.files } : {}),
    ...(Object.keys(project.blobs).length ? { blobs: project.blobs } : {}),
  };
}

/** What a face says of a project: its files, and those left out with why. */
export function projectSummary(project: Project): { files: string[]; data: string[]; left_out?: LeftOut[] } {
  const names = Object.keys(project.files);
  return {
    files: [project.main, ...names.filter((f) => f.endsWith('.py'))],
    data: [...names.filter((f) => !f.endsWith('.py')), ...Object.keys(project.blobs)],
    ...(project.leftOut.length ? { left_out: project.leftOut } : {}),
  };
}
