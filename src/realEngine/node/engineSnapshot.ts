// The saved interpreter of the Node faces' engine, as the browser keeps one (pyodide.worker.ts):
// Python takes seconds to start (5 s on a quiet machine here, 20 s and more under load), while an
// interpreter restored from a memory snapshot (Pyodide's makeMemorySnapshot / _loadSnapshot) is
// ready in well under one.
//
// The first engine process of a machine (or of a server) loads Python the plain way, installs and
// imports the engine's modules, and, before any program has run in it, makes a snapshot of its
// memory and sends it over its IPC channel (engineProcess.mjs can write no file). This side keeps
// it: in memory for the life of the process (a server's later engines), and on disk in the user's
// cache folder ($XDG_CACHE_HOME/ndb or ~/.cache/ndb), named by a digest of Pyodide's version, the
// engine's script and Python modules and this format, so that a changed engine never restores an
// old one. Later engine processes get it in their first message and restore it (engineChild.ts);
// one that does not restore loads the plain way, said once on stderr, and the snapshot is made
// again.
//
// The file: 8 bytes of magic, the 32-byte digest it is named by, the SHA-256 of what follows, then
// the snapshot without its zero pages (snapshotPages.ts). It is written atomically (a temporary
// file in the same folder, renamed) with mode 0600, and read only if it is a plain file of this
// user that nobody else can read or write, in a folder nobody else can write; a file cut short or
// changed is ignored (and replaced by the next one made). The bytes restore inside the engine's
// sandbox only, where a program runs anyway: the checks keep a damaged file from costing a start.

import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { ENGINE_MODULES, type EngineSources } from '../realEngine';
import { packSnapshot, unpackSnapshot } from '../snapshotPages';

/** The layout of the file (and of what the engine restores): a new one names a new file. */
export const SNAPSHOT_FORMAT = 1;

const FILE_MAGIC = Buffer.from('NDBSNAP1', 'latin1');
const HEADER = FILE_MAGIC.length + 32 + 32;

/** How long an engine waits for the snapshot another one is making, before it loads the plain way
 * (the maker's own start bounds it: a maker that fails or ends gives the role to the next). */
const MAKER_WAIT_MS = 120_000;

/** What names a snapshot: it restores only into the very engine it was made of. */
export interface SnapshotInputs {
  pyodideVersion: string;
  /** engineProcess.mjs, which loads and locks the interpreter. */
  engineScript: string;
  sources: EngineSources;
}

/** The digest a snapshot is named and checked by (hex SHA-256). */
export function snapshotKey(inputs: SnapshotInputs): string {
  const hash = createHash('sha256');
  const part = (text: string) => hash.update(`${Buffer.byteLength(text)}:`).update(text);
  part(`ndb engine snapshot format ${SNAPSHOT_FORMAT}`);
  part(inputs.pyodideVersion);
  part(inputs.engineScript);
  for (const name of ENGINE_MODULES) {
    part(name);
    part(inputs.sources[name]);
  }
  return hash.digest('hex');
}

/** The folder of ndb's cache: $XDG_CACHE_HOME/ndb (an absolute one), else ~/.cache/ndb; null
 * where there is no home. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'ndb');
  let home: string;
  try {
    home = env.HOME && isAbsolute(env.HOME) ? env.HOME : homedir();
  } catch {
    return null;
  }
  return home ? join(home, '.cache', 'ndb') : null;
}

/** Whether engines start from snapshots here: NDB_ENGINE_SNAPSHOT=0 turns them off (every engine
 * loads the plain way; for measuring, or a machine where restoring misbehaves). */
export function snapshotsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NDB_ENGINE_SNAPSHOT !== '0';
}

/** Python that writes the engine's module files into an interpreter restored from a snapshot: the
 * modules are imported already (the snapshot holds them), but the file system is not in the
 * snapshot, and a traceback reads its lines from the files. Nothing is imported afresh. */
export function restoredSetupCode(sources: EngineSources, moduleDir = '/ndb'): string {
  const files = Object.fromEntries(ENGINE_MODULES.map((name) => [`${moduleDir}/${name}.py`, sources[name]]));
  return (
    `import os as _ndb_os\n_ndb_os.makedirs(${JSON.stringify(moduleDir)}, exist_ok=True)\n` +
    `for _ndb_path, _ndb_text in ${JSON.stringify(files)}.items():\n` +
    `    with open(_ndb_path, "w", encoding="utf-8") as _ndb_handle: _ndb_handle.write(_ndb_text)\n` +
    `del _ndb_os, _ndb_path, _ndb_text, _ndb_handle`
  );
}

function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}

/** A folder only this user can write to (null: it is not one). */
export function privateFolder(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    const uid = currentUid();
    return st.isDirectory() && (uid === null || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The snapshot a file holds, if it is one of this key, whole, of this user and private; else null.
 * Read synchronously (~30 ms for 16 MB here): it is read as a command starts, and an engine waits
 * for it; read in chunks between the turns of a main thread busy loading the CLI's modules, it
 * reached the engine only ~300 ms after its spawn (a CPU profile of `ndb mcp`, 2026-11-28). */
export function readSnapshotFile(file: string, key: string): Uint8Array | null {
  try {
    const st = lstatSync(file);
    const uid = currentUid();
    if (!st.isFile() || (uid !== null && st.uid !== uid) || (st.mode & 0o077) !== 0) return null;
    if (!privateFolder(join(file, '..'))) return null;
    const bytes = readFileSync(file);
    if (bytes.length <= HEADER || !bytes.subarray(0, FILE_MAGIC.length).equals(FILE_MAGIC)) return null;
    if (bytes.subarray(FILE_MAGIC.length, FILE_MAGIC.length + 32).toString('hex') !== key) return null;
    const packed = bytes.subarray(HEADER);
    const digest = createHash('sha256').update(packed).digest();
    if (!digest.equals(bytes.subarray(FILE_MAGIC.length + 32, HEADER))) return null;
    return unpackSnapshot(packed);
  } catch {
    return null;
  }
}

/** Writes a snapshot file atomically, mode 0600, in a folder made private (0700) if it is new. */
export async function writeSnapshotFile(file: string, key: string, snapshot: Uint8Array): Promise<void> {
  const dir = join(file, '..');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!privateFolder(dir)) throw new Error(`${dir} can be written by other users: the engine's snapshot is not kept there`);
  const packed = packSnapshot(snapshot);
  const digest = createHash('sha256').update(packed).digest();
  const temporary = join(dir, `.${randomBytes(6).toString('hex')}.${process.pid}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(Buffer.concat([FILE_MAGIC, Buffer.from(key, 'hex'), digest]));
    await handle.writeFile(packed);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
  await handle.close();
  try {
    await rename(temporary, file);
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
  await prune(dir, file);
}

/** Snapshots of other engines kept beside the newest (another checkout, the version before). */
const OTHERS_KEPT = 2;

/** Each change of the engine names a new file: all but the newest few of the others go, and
 * temporary files that a process ended before it renamed them. */
async function prune(dir: string, kept: string): Promise<void> {
  try {
    const names = await readdir(dir);
    const found: Array<{ path: string; mtime: number; temporary: boolean }> = [];
    for (const name of names) {
      const temporary = /^\.[0-9a-f]+\.\d+\.tmp$/.test(name);
      if (!temporary && !/^engine-[0-9a-f]{32}\.snapshot$/.test(name)) continue;
      const path = join(dir, name);
      if (path === kept) continue;
      const st = await lstat(path).catch(() => null);
      if (st?.isFile()) found.push({ path, mtime: st.mtimeMs, temporary });
    }
    const old = found.filter((f) => !f.temporary).sort((a, b) => b.mtime - a.mtime).slice(OTHERS_KEPT);
    const stale = found.filter((f) => f.temporary && Date.now() - f.mtime > 3_600_000);
    await Promise.all([...old, ...stale].map((f) => unlink(f.path).catch(() => undefined)));
  } catch {
    // a folder that cannot be listed keeps what it has
  }
}

/** The role of the engine that makes the snapshot (SnapshotStore.claim). */
export interface SnapshotClaim {
  readonly done: Promise<void>;
  readonly finish: () => void;
}

/** How an engine process starts: the snapshot to restore, or none; `make`: this engine makes the
 * snapshot (after its setup, before any program), and says when it did (`made`) or could not
 * (`unmade`). */
export interface SnapshotBoot {
  snapshot: Uint8Array | null;
  make: SnapshotClaim | null;
}

export interface SnapshotStoreOptions {
  /** The cache folder (null: memory only). */
  dir: string | null;
  /** Where the one notice of a snapshot that did not restore goes (default stderr). */
  say?: (line: string) => void;
}

/** The snapshot of one engine (one key), in memory and on disk, and which engine makes it. */
export class SnapshotStore {
  readonly file: string | null;
  private memory: Uint8Array | null = null;
  /** Whether the cache file was read (or made moot: a snapshot made or refused here). */
  private diskRead = false;
  private making: SnapshotClaim | null = null;
  private saidFailure = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly say: (line: string) => void;

  constructor(
    readonly key: string,
    options: SnapshotStoreOptions,
  ) {
    this.file = options.dir ? join(options.dir, `engine-${key.slice(0, 32)}.snapshot`) : null;
    this.say = options.say ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /** The snapshot held in memory now (null: none yet). */
  get current(): Uint8Array | null {
    return this.memory;
  }

  /** How the next engine starts: from the snapshot (memory, else the file); else, while another
   * engine makes it, once that one has (or has given up); else as the one that makes it. */
  async boot(): Promise<SnapshotBoot> {
    const until = Date.now() + MAKER_WAIT_MS;
    for (;;) {
      const have = this.memory ?? this.fromDisk();
      if (have) return { snapshot: have, make: null };
      const make = this.claim();
      if (make) return { snapshot: null, make };
      const left = until - Date.now();
      if (left <= 0 || !this.making) return { snapshot: null, make: null };
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([this.making.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
  }

  /** Takes the role of the engine that makes the snapshot, if none is held and nobody has it. */
  claim(): SnapshotClaim | null {
    if (this.memory || this.making) return null;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.making = { done, finish };
    return this.making;
  }

  /** The maker's snapshot: kept in memory at once, and written to the cache folder. */
  made(claim: SnapshotClaim, snapshot: Uint8Array): void {
    this.release(claim);
    if (this.memory) return; // one made meanwhile (a maker that had given up)
    this.memory = snapshot;
    this.diskRead = true;
    const file = this.file;
    if (!file) return;
    this.writing = this.writing.then(() => writeSnapshotFile(file, this.key, snapshot)).catch(() => undefined);
  }

  /** The maker could not make it (it ended, or its Pyodide refused): the next engine may. */
  unmade(claim: SnapshotClaim): void {
    this.release(claim);
  }

  /** An engine could not restore `snapshot` (it loaded the plain way): said once, and the snapshot
   * is forgotten here and on disk, so that it is made again. */
  failed(snapshot: Uint8Array | null, reason: string): void {
    if (!this.saidFailure) {
      this.saidFailure = true;
      this.say(`ndb: the saved Python engine could not be restored (${reason}); Python starts the plain way, and the engine is saved again`);
    }
    if (snapshot && this.memory === snapshot) {
      this.memory = null;
      this.diskRead = true;
      const file = this.file;
      if (file) this.writing = this.writing.then(() => unlink(file)).catch(() => undefined);
    }
  }

  /** Resolves once what was to be written to disk is (tests, and a command about to exit). */
  flushed(): Promise<void> {
    return this.writing;
  }

  private release(claim: SnapshotClaim): void {
    if (this.making === claim) this.making = null;
    claim.finish();
  }

  private fromDisk(): Uint8Array | null {
    if (!this.diskRead) {
      this.diskRead = true;
      const file = this.file;
      if (file) this.memory ??= readSnapshotFile(file, this.key);
    }
    return this.memory;
  }
}

const stores = new Map<string, SnapshotStore>();

/** The store of this process for an engine (one per key): every host of the process shares it. */
export function sharedSnapshotStore(inputs: SnapshotInputs): SnapshotStore {
  const key = snapshotKey(inputs);
  let store = stores.get(key);
  if (!store) {
    store = new SnapshotStore(key, { dir: defaultCacheDir() });
    stores.set(key, store);
  }
  return store;
}

/** Pyodide's version, from its package (a new one names a new snapshot). */
export function pyodideVersion(pyodideDir: string): string {
  try {
    return String((JSON.parse(readFileSync(join(pyodideDir, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '?');
  } catch {
    return '?';
  }
}
