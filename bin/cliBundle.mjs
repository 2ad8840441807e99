// The CLI's bundle: src/cli/start.ts and everything it imports, built by esbuild into one folder of
// chunks (split where the CLI imports lazily, so `ndb debug` never loads the MCP SDK or the model's
// runtime). Loading the CLI through tsx costs every start ~0.18 s and ~0.37 s of CPU, the bundle
// ~0.03 s and ~0.09 s (measured here, 2026-11-28): on a loaded machine that CPU is what a first
// stop waits for (issue 47; `npm run bench:start`).
//
// The bundle is a cache of src/, never a second source: `current.json` names its folder and every
// file it was built from with that file's size and mtime; a start that finds any of them changed
// (or gone) builds it again before it runs (~0.4 s), so an edited src/ is always what runs. One
// process builds at a time (a lock file); the others meanwhile run through tsx. A bundled
// package's files are stood for by its package.json; the packages left out stay imports of
// node_modules, resolved from the folder as from src/. Built at `npm install` (the `prepare`
// script) so that a fresh machine's first start does not build; NDB_CLI_BUNDLE=0 turns it off.

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** Where bundles live: a cache folder that no commit and no fresh install carries. */
export const BUNDLE_DIR = join(ROOT, 'node_modules', '.cache', 'ndb-cli');
const ENTRY = 'src/cli/start.ts';
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 120_000;
/** A running `ndb` (a server, for hours) may still import the chunks of the bundle it started
 * from: the newest few are kept, and an older one is removed only past this age. */
const KEEP_NEWEST = 4;
const KEEP_OLD_MS = 30 * 60_000;

/** [size, mtimeMs] of a file, or null when it is gone. */
function stamp(file) {
  try {
    const st = statSync(file);
    return [st.size, st.mtimeMs];
  } catch {
    return null;
  }
}

/** The entry module's URL of the current bundle when it was built from src/ as it is now; else null. */
export function freshBundle(dir = BUNDLE_DIR) {
  let current;
  try {
    current = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
  } catch {
    return null;
  }
  if (typeof current?.dir !== 'string' || !/^b-[0-9a-z-]+$/.test(current.dir) || typeof current.inputs !== 'object' || current.inputs === null) return null;
  if (current.node !== process.version) return null;
  for (const [file, was] of Object.entries(current.inputs)) {
    const now = stamp(join(ROOT, file));
    if (!now || !Array.isArray(was) || now[0] !== was[0] || now[1] !== was[1]) return null;
  }
  const entry = join(dir, current.dir, 'start.js');
  return stamp(entry) ? pathToFileURL(entry).href : null;
}

/** Takes the build lock, or says another process holds it. */
function lock(file) {
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch {
    const held = stamp(file);
    if (held && Date.now() - held[1] < STALE_LOCK_MS) return false;
    rmSync(file, { force: true });
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch {
      return false;
    }
  }
}

/** Builds the bundle and makes it current; null when another process is building one now.
 * Throws what esbuild says when src/ does not build. */
export async function buildBundle(bundles = BUNDLE_DIR) {
  mkdirSync(bundles, { recursive: true });
  const lockFile = join(bundles, 'build.lock');
  if (!lock(lockFile)) return null;
  try {
    const { build } = await import('esbuild');
    const began = Date.now();
    const dir = `b-${began.toString(36)}-${process.pid.toString(36)}`;
    const result = await build({
      entryPoints: { start: join(ROOT, ENTRY) },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      // Packages that load files beside their own (Pyodide's WebAssembly, onnxruntime's native
      // addon) or are large and lazily loaded (the model's) stay imports of node_modules; the rest
      // (the MCP SDK, zod, ajv, the DAP library) are bundled: ~0.07 s and ~0.1 s of CPU less per
      // `ndb mcp` start (measured here). Their CommonJS needs a `require`.
      external: ['pyodide', 'onnxruntime-node', 'onnxruntime-common', 'onnxruntime-web', '@huggingface/transformers'],
      banner: { js: "import { createRequire as __ndbCreateRequire } from 'node:module'; const require = __ndbCreateRequire(import.meta.url);" },
      outdir: join(bundles, dir),
      metafile: true,
      sourcemap: 'linked', // read only under --enable-source-maps
      logLevel: 'silent',
    });
    const inputs = {};
    let changedMeanwhile = false;
    const files = new Set(Object.keys(result.metafile.inputs).map((input) => inputStamped(relative(ROOT, resolve(ROOT, input)))));
    files.add('bin/cliBundle.mjs'); // how it is built is an input too (its options, the externals)
    for (const file of files) {
      const now = stamp(join(ROOT, file));
      if (!now || now[1] >= began) changedMeanwhile = true;
      if (now) inputs[file] = now;
    }
    // A file edited while it was read may be in the bundle as it was: the next start builds again.
    if (!changedMeanwhile) {
      const current = join(bundles, 'current.json');
      const temp = `${current}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify({ dir, node: process.version, inputs }));
      renameSync(temp, current);
    }
    removeOld(bundles, dir);
    return pathToFileURL(join(bundles, dir, 'start.js')).href;
  } finally {
    rmSync(lockFile, { force: true });
  }
}

/** The file whose stamp stands for an input: itself, or for a file of a package its package's
 * package.json (an install or upgrade rewrites it), so that a start stats tens of files, not the
 * hundreds of the bundled packages. */
function inputStamped(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return file;
  const name = parts[at + 1]?.startsWith('@') ? 2 : 1;
  return [...parts.slice(0, at + 1 + name), 'package.json'].join('/');
}

function removeOld(bundles, keep) {
  const old = readdirSync(bundles)
    .filter((name) => name !== keep && name.startsWith('b-'))
    .map((name) => ({ name, made: stamp(join(bundles, name))?.[1] ?? 0 }))
    .sort((a, b) => b.made - a.made);
  for (const { name, made } of old.slice(KEEP_NEWEST)) {
    if (Date.now() - made > KEEP_OLD_MS) rmSync(join(bundles, name), { recursive: true, force: true });
  }
}

/** The URL of the CLI's start module to import: the bundle (built first when src/ changed), or
 * null where it is off, cannot be built here (a read-only install) or is being built by another
 * process: tsx then runs src/ as it is. */
export async function cliEntry(env = process.env, bundles = BUNDLE_DIR) {
  if (env.NDB_CLI_BUNDLE === '0') return null;
  const fresh = freshBundle(bundles);
  if (fresh) return fresh;
  try {
    return await buildBundle(bundles);
  } catch (err) {
    // src/ that does not build: tsx gives its own error where the faulty module is imported
    if (env.NDB_CLI_BUNDLE === '1') throw err;
    return null;
  }
}
