// The operating system's boundary around an engine process: on Linux, bubblewrap (Debian's
// `bubblewrap`) gives it its own user, mount, PID, network, IPC, UTS and cgroup namespaces, a
// read-only root that holds only the Node binary and its libraries, Pyodide's files and the
// engine script (under /ndb, so that no host path shows), no /tmp, no home, no /run and no
// project folder, an empty environment, no capabilities, a session of its own (no terminal) and
// death with its parent. JavaScript that a program reaches past Python's layer then finds no host
// socket to connect to, no file to write, no network, and nothing that outlives the debugger.
//
// Where bubblewrap is missing or the machine refuses it (macOS, a locked-down Linux) the engine
// runs under the layers above it only (Node's permission model, no code from strings, a network
// namespace where one can be made), and every face says so when it starts (`sandboxNotice`).

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { distrust, knownToWork, probeFacts, rememberWorks } from './sandboxProbeCache';
import { seccompProgram } from './seccompFilter';

/** Where the engine's files appear inside the sandbox. */
export const INSIDE = { node: '/ndb/node', pyodide: '/ndb/pyodide', script: '/ndb/engine.mjs' } as const;

/** The files an engine process needs, as they are on the host. */
export interface EngineFiles {
  node: string;
  pyodide: string;
  script: string;
}

export type OsBoundary =
  | { kind: 'bubblewrap'; bwrap: string }
  | { kind: 'none'; reason: string };

let detected: OsBoundary | undefined;
/** The digest of what the probe's answer rests on, and whether that answer came from the cache
 * (sandboxProbeCache.ts) instead of a probe of this process. */
let detectedFacts: string | null = null;
let fromCache = false;

/** Whether this machine can hold an engine in bubblewrap: probed with the very arguments an engine
 * gets, running the Node binary inside, once per process, and not at all where an earlier probe on
 * the same facts found it working (sandboxProbeCache.ts). */
export function osBoundary(files: EngineFiles): OsBoundary {
  if (detected) return detected;
  const bwrap = process.platform === 'linux' ? findOnPath('bwrap') : null;
  const prlimit = limitedCommand()?.[0];
  const facts = bwrap ? probeFacts([bwrap, files.node, ...(prlimit ? [prlimit] : [])], [seccompProgram() ?? 'no seccomp filter', files.pyodide, files.script]) : null;
  detectedFacts = facts;
  if (bwrap && knownToWork(facts)) {
    fromCache = true;
    detected = { kind: 'bubblewrap', bwrap };
    return detected;
  }
  detected = probe(files, bwrap);
  if (detected.kind === 'bubblewrap') rememberWorks(facts);
  return detected;
}

/** An engine process ended before it was ready. Where this process took "bubblewrap works" from
 * the cache without probing, the cache is wrong or the engine failed for another reason: either
 * way the next start probes again (this process keeps the boundary it said at its start). */
export function engineEndedBeforeReady(): boolean {
  if (!fromCache) return false;
  distrust(detectedFacts);
  fromCache = false;
  return true;
}

function probe(files: EngineFiles, bwrap: string | null): OsBoundary {
  if (process.platform !== 'linux') return { kind: 'none', reason: `${process.platform} has no bubblewrap (Linux only)` };
  if (!bwrap) return { kind: 'none', reason: 'bubblewrap is not installed (Debian: apt-get install bubblewrap)' };
  const filter = seccompProgram();
  const args = [...bubblewrapArgs(files, {}, filter ? 0 : undefined), INSIDE.node, '-e', `process.exit(require("node:fs").existsSync(${JSON.stringify(files.script)}) ? 3 : 0)`];
  const limited = limitedCommand();
  const [command, ...prefix] = limited ? [...limited, bwrap] : [bwrap];
  const res = spawnSync(command!, [...prefix, ...args], { stdio: ['pipe', 'ignore', 'pipe'], input: filter ?? Buffer.alloc(0), timeout: 20_000, env: {} });
  if (res.status === 0) return { kind: 'bubblewrap', bwrap };
  const why = String(res.stderr ?? '').trim().split('\n')[0] || res.error?.message || `exit ${res.status ?? res.signal}`;
  return { kind: 'none', reason: `bubblewrap could not start a sandbox here (${why})` };
}

function findOnPath(name: string): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/bin', '/usr/local/bin']);
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** The shared libraries the Node binary loads, with the dynamic loader (from `ldd`); null when
 * they cannot be listed (then the system's library folders are bound, read-only). */
function nodeLibraries(node: string): string[] | null {
  const res = spawnSync('ldd', [node], { encoding: 'utf8', timeout: 10_000 });
  if (res.status !== 0) return /not a dynamic executable/.test(res.stderr ?? res.stdout ?? '') ? [] : null;
  const libs: string[] = [];
  for (const line of res.stdout.split('\n')) {
    const m = /=>\s*(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) libs.push(m[1]!);
  }
  return libs;
}

let libraries: string[] | null | undefined;

/** A host path bound read-only at `inside`, following a symlink on the host side. */
function bind(host: string, inside: string): string[] {
  return ['--ro-bind', realpathSync(host), inside];
}

/** A system folder bound as it is, or the symlink it is (Debian's /lib -> usr/lib). */
function systemFolder(path: string): string[] {
  if (!existsSync(path)) return [];
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return ['--symlink', readlinkSync(path), path];
  return ['--ro-bind', path, path];
}

export interface SandboxEnv {
  [name: string]: string;
}

/** The open files an engine process may hold at once (Node with Pyodide holds ~20): pipes and
 * eventfds keep kernel memory that no resident-memory reading shows, so their number is bounded. */
export const ENGINE_MAX_FILES = 64;

/** The command that starts bubblewrap with the engine's limits of the kernel's own: `prlimit` sets
 * the open-file limit, which bubblewrap and the engine inherit (null: no prlimit here; the face
 * then runs without that bound and says so in its notice). */
export function limitedCommand(): string[] | null {
  const prlimit = findOnPath('prlimit');
  return prlimit ? [prlimit, `--nofile=${ENGINE_MAX_FILES}:${ENGINE_MAX_FILES}`, '--'] : null;
}

/** bubblewrap's arguments up to (not including) the command: the namespaces, the files, and the
 * environment (`env`: the only variables the engine sees, e.g. Node's IPC channel). `seccompFd`:
 * the file descriptor from which bubblewrap reads the filter of seccompFilter.ts (which it closes
 * once read). */
export function bubblewrapArgs(files: EngineFiles, env: SandboxEnv, seccompFd?: number): string[] {
  libraries ??= nodeLibraries(files.node);
  const libs = libraries
    ? libraries.flatMap((lib) => ['--ro-bind', realpathSync(lib), lib])
    : [...systemFolder('/usr'), ...systemFolder('/lib'), ...systemFolder('/lib64')];
  const args = [
    '--unshare-all', // user, IPC, PID, network, UTS, cgroup
    '--unshare-user',
    '--uid', '65534',
    '--gid', '65534',
    '--cap-drop', 'ALL',
    '--die-with-parent', // and, being PID 1's child in its own namespace, nothing outlives it
    '--new-session', // no controlling terminal: nothing typed into the user's
    '--clearenv',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    ...libs,
    ...bind(files.node, INSIDE.node),
    ...bind(files.pyodide, INSIDE.pyodide),
    ...bind(files.script, INSIDE.script),
    '--proc', '/proc', // this PID namespace's own
    '--dev', '/dev', // null, zero, random and a few others; no host devices
    '--remount-ro', '/',
    // /dev (and its /dev/shm) is a tmpfs of its own: written, it would hold files and bound sockets
    // in memory no resident-memory reading shows
    '--remount-ro', '/dev',
    ...(seccompFd !== undefined ? ['--seccomp', String(seccompFd)] : []),
    '--chdir', '/',
    '--',
  ];
  return args;
}

/** What a face prints when it starts without the operating system's boundary (null when it has it). */
export function sandboxNotice(boundary: OsBoundary): string | null {
  if (boundary.kind === 'bubblewrap') {
    const missing = [
      ...(seccompProgram() ? [] : [`a seccomp filter for ${process.arch} (sockets and memory files are not refused)`]),
      ...(limitedCommand() ? [] : ['prlimit (util-linux: the open-file limit is not set)']),
    ];
    return missing.length ? `ndb: the sandbox of debugged programs runs without ${missing.join(' and without ')}.` : null;
  }
  return (
    `ndb: no operating-system sandbox for debugged programs: ${boundary.reason}. ` +
    "Programs still run inside Python and Node's permission model, but a program that breaks out of both could reach this machine's " +
    'Unix sockets and keep running after ndb ends. Install bubblewrap to close that.'
  );
}

/** For tests: forget what was probed. */
export function resetOsBoundary(): void {
  detected = undefined;
  detectedFacts = null;
  fromCache = false;
  libraries = undefined;
}

/** For tests: whether this process's boundary came from the probe cache. */
export function osBoundaryFromCache(): boolean {
  return fromCache;
}

