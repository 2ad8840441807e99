// One engine process (engineProcess.mjs) seen from the parent: how it is started (bubblewrap, the
// permission model, no code from strings, no environment), its request/answer protocol
// (engineProcessProtocol.ts), and the deadline of each request. processHost.ts decides which process
// runs what, and replaces one that ran past a deadline or that another program used.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, sep } from 'node:path';
import { REPO_ROOT } from '../../util/repoRoot';
import { isReady, isReply, isSnapshotReply, type Answer, type EngineBoot, type EngineMessage, type EngineReply, type EngineRequest } from './engineProcessProtocol';
import type { SnapshotBoot, SnapshotClaim, SnapshotStore } from './engineSnapshot';
import { MemoryWatch } from './memoryWatch';
import { sweepLater, sweepOrphans } from './orphanSweep';
import { OutputBudget } from './outputBudget';
import { terminalSafe } from './terminalSafe';
import { bubblewrapArgs, engineEndedBeforeReady, INSIDE, limitedCommand, osBoundary, sandboxNotice, type EngineFiles, type OsBoundary } from './osSandbox';
import { seccompProgram } from './seccompFilter';

/** A request that ran past its deadline; the process was killed. */
export class HardStop extends Error {}

/** A request after which Pyodide could not go on, or the process ended; it is gone. */
export class EngineLost extends Error {}

interface Pending {
  resolve(value: Answer | Uint8Array): void;
  reject(err: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** How the engine process is started: the command and its arguments. */
export interface EngineCommand {
  command: string;
  args: string[];
  /** The process has a network namespace of its own (no network at all). */
  isolatedNetwork: boolean;
  /** The operating system's boundary it runs in (osSandbox.ts); 'none': Node's layers only. */
  boundary: OsBoundary['kind'];
  /** The seccomp filter bubblewrap reads from fd SECCOMP_FD (seccompFilter.ts). */
  seccomp?: Buffer;
}

/** The file descriptor of the engine process on which bubblewrap reads its seccomp filter. */
export const SECCOMP_FD = 4;

/** The first message of an engine that loads Python the plain way. */
export const PLAIN_BOOT: EngineBoot = { kind: 'boot', snapshot: null, make: false };

/** Starts an engine command: stdio as the engine expects it (stdout, stderr, the IPC channel on
 * fd 3), and the seccomp filter written on fd 4 where the command reads one; then its first
 * message, `boot` (how to start Python: engineProcessProtocol.ts), unless the caller sends it
 * 'later'. */
export function spawnEngine(command: EngineCommand, boot: EngineBoot | 'later' = PLAIN_BOOT): ChildProcess {
  const stdio: Array<'ignore' | 'pipe' | 'ipc'> = ['ignore', 'pipe', 'pipe', 'ipc'];
  if (command.seccomp) stdio.push('pipe');
  const child = spawn(command.command, command.args, { stdio, serialization: 'advanced', env: {} });
  if (command.seccomp) {
    const fd = child.stdio[SECCOMP_FD] as import('node:stream').Writable | null;
    fd?.on('error', () => undefined); // a process that failed to start: its own error says why
    fd?.end(command.seccomp);
  }
  if (boot !== 'later') child.send(boot, (err) => void err); // a process that failed to start: its own error says why
  return child;
}

let networkNamespace: string | null | undefined;

/** `unshare`, when this machine lets this user give a process a network namespace of its own. */
function unshareCommand(): string | null {
  if (networkNamespace !== undefined) return networkNamespace;
  networkNamespace = null;
  if (process.platform !== 'linux') return null;
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter)) {
    const candidate = join(dir, 'unshare');
    if (!existsSync(candidate)) continue;
    const probe = spawnSync(candidate, ['--net', '--map-root-user', 'true'], { stdio: 'ignore', timeout: 5_000 });
    if (probe.status === 0) networkNamespace = candidate;
    break;
  }
  return networkNamespace;
}

/** The engine process's script, found from the repository's root rather than beside this module:
 * the CLI also runs this code from its esbuild bundle (node_modules/.cache/ndb-cli/<dir>/: bin/cliBundle.mjs), where the script is not
 * beside the bundled module. */
function engineScript(): string {
  return join(REPO_ROOT, 'src/realEngine/node/engineProcess.mjs');
}

/** The host files an engine process runs from. */
export function engineFiles(): EngineFiles {
  return {
    node: process.execPath,
    pyodide: dirname(createRequire(import.meta.url).resolve('pyodide')),
    script: engineScript(),
  };
}

/** Where the engine process may go, from the strongest wall down: `os` (bubblewrap, where the
 * machine allows it, else the next), `namespace` (a network namespace only), `none` (Node's
 * permission model alone: tests that show what each lower layer holds by itself). */
export type Confinement = 'os' | 'namespace' | 'none';

/** The node command line of the engine process: the permission model with reads of Pyodide's
 * folder and of the entry script only, and no code generated from strings; inside bubblewrap
 * where this machine allows it (osSandbox.ts), else a network namespace where one can be made. */
export function engineCommand(confinement: Confinement = 'os'): EngineCommand {
  const files = engineFiles();
  const flags = process.allowedNodeEnvironmentFlags;
  const nodeFlags = (paths: { pyodide: string; script: string }) => [
    flags.has('--permission') ? '--permission' : '--experimental-permission',
    `--allow-fs-read=${paths.pyodide}${sep}`,
    `--allow-fs-read=${paths.script}`,
    '--disallow-code-generation-from-strings',
    `--max-old-space-size=${JS_HEAP_MB}`,
    ...(flags.has('--disable-warning') ? ['--disable-warning=ExperimentalWarning'] : ['--no-warnings']),
    paths.script,
    paths.pyodide,
  ];
  if (confinement === 'os') {
    const boundary = osBoundary(files);
    if (boundary.kind === 'bubblewrap') {
      // Node tells the child where its IPC channel is through the environment, which bubblewrap
      // clears: these two (fd 3 is the 'ipc' entry of the spawn's stdio) are all the engine sees.
      const env = { NODE_CHANNEL_FD: '3', NODE_CHANNEL_SERIALIZATION_MODE: 'advanced' };
      // fd 4 carries the seccomp filter, written by the parent as the process starts (spawnEngine)
      const filter = seccompProgram();
      const limited = limitedCommand() ?? [];
      const [command, ...prefix] = [...limited, boundary.bwrap];
      return {
        command: command!,
        args: [...prefix, ...bubblewrapArgs(files, env, filter ? SECCOMP_FD : undefined), INSIDE.node, ...nodeFlags(INSIDE)],
        isolatedNetwork: true,
        boundary: 'bubblewrap',
        ...(filter ? { seccomp: filter } : {}),
      };
    }
  }
  const node = nodeFlags(files);
  const unshare = confinement !== 'none' ? unshareCommand() : null;
  if (unshare) return { command: unshare, args: ['--net', '--map-root-user', '--', process.execPath, ...node], isolatedNetwork: true, boundary: 'none' };
  return { command: process.execPath, args: node, isolatedNetwork: false, boundary: 'none' };
}

/** What a face says when it starts where debugged programs run without the operating system's
 * boundary (null where they have it). */
export function engineSandboxNotice(): string | null {
  return sandboxNotice(osBoundary(engineFiles()));
}

/** The JavaScript heap of an engine process (Pyodide's own JavaScript needs far less; Python's
 * memory is WebAssembly memory, outside it, and held by the memory watch). */
const JS_HEAP_MB = 512;

export interface EngineChildOptions {
  /** Starting the process and loading Pyodide, slow on a busy machine. */
  loadMs: number;
  /** The deadline of the engine's own setup requests. */
  quickMs: number;
  /** Python run once loaded, before the process counts as ready (the engine's modules). */
  setup: readonly string[];
  /** How far it is confined (default 'os'; lower ones for tests of the layers above). */
  confinement?: Confinement;
  /** Told once when the process is gone (killed, crashed, or lost by a fatal error). */
  onGone?: (child: EngineChild) => void;
  /** The memory limit of the process and everything in it (MB; default ENGINE_MEMORY_MB). */
  memoryMb?: number;
  /** Where the process's own stdout and stderr go, made safe for a terminal (default this
   * process's stderr). */
  output?: (text: string) => void;
  /** How much of it passes per request (bytes; default ENGINE_OUTPUT_BYTES). */
  outputBytes?: number;
  /** The saved interpreter to start from, and to save (engineSnapshot.ts); none: a plain load. */
  snapshots?: SnapshotStore | null;
  /** The setup of a process restored from a snapshot (which holds the modules `setup` installs). */
  restoredSetup?: readonly string[];
}

function writeStderr(text: string): void {
  process.stderr.write(text);
}

/** The default memory limit of one engine process, Pyodide's ~160 MB included. */
export const ENGINE_MEMORY_MB = 1024;

/** The process went over its memory limit and was killed. */
export class MemoryExceeded extends EngineLost {
  constructor(readonly limitMb: number, readonly usedMb: number) {
    super(`the program used more than ${limitMb} MB of memory (${usedMb} MB measured)`);
  }
}

/** Something in the process wrote on the engine's channel what the engine never sends, or closed
 * it: a program that broke out of Python and JavaScript's layers. */
export class ChannelForged extends EngineLost {}

/** Request ids no program can guess: a forged answer has to name the request it answers. */
function freshId(): number {
  return randomInt(1, 2 ** 47);
}

/** The engines this process started that have not ended. Bubblewrap's first process clones the
 * sandbox's and sets it up; killed in that moment, it can leave the clone waiting for good (its
 * --die-with-parent not set yet, and a session of its own). So an engine is ended as a tree, from
 * a frozen root (killTree), here and at this process's exit, however it exits short of SIGKILL
 * (where --die-with-parent holds). */
const liveRoots = new Set<number>();
process.on('exit', () => {
  for (const pid of liveRoots) killTree(pid);
  sweepOrphans(killTree);
});

/** The state letter of a process (null: gone). */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone, or no /proc (not Linux): the root alone
  }
  return out;
}

/** SIGKILL to a process and all its descendants. The root is stopped first, so that a clone in
 * flight completes before its children are read (a stop takes effect on the way out of it). */
function killTree(root: number): void {
  try {
    process.kill(root, 'SIGSTOP');
  } catch {
    return; // gone
  }
  const until = Date.now() + 200;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let s = stateOf(root); s !== null && s !== 'T' && s !== 't' && s !== 'Z' && Date.now() < until; s = stateOf(root)) Atomics.wait(pause, 0, 0, 1);
  const tree: number[] = [];
  for (let todo = [root]; todo.length > 0; ) {
    const pid = todo.pop()!;
    tree.push(pid);
    todo.push(...childrenOf(pid));
  }
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

export class EngineChild {
  /** Who ran code in this process (processHost.ts); null while no program has run in it. */
  owner: string | null = null;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  /** Ids of requests answered already: a second answer is forged. */
  private readonly answered = new Set<number>();
  private readonly memory: MemoryWatch;
  private readonly output: OutputBudget;
  private inFlight = 0;
  private readyNow = false;
  private gone = false;
  /** Resolves once Pyodide is loaded and the setup has run (rejects when it cannot be). */
  readonly ready: Promise<void>;
  /** Kill the process once its last request is answered (another owner took over). */
  private retiring = false;
  /** When the process was started (Date.now()). */
  readonly startedAt = Date.now();
  /** Python was restored from a snapshot (rather than loaded the plain way). */
  restored = false;
  /** From the spawn to `ready`, its setup (and the snapshot it made) included (ms; null until then). */
  readyMs: number | null = null;
  /** How it was started (null until the first message is sent). */
  private booted: { snapshot: Uint8Array | null } | null = null;
  /** This process makes the store's snapshot and has not yet said whether it did. */
  private making: SnapshotClaim | null = null;
  /** It was given a snapshot it could not restore (and loaded so that it can make one). */
  private couldNotRestore = false;
  /** The id of the snapshot request in flight: its answer is the only snapshot the engine sends. */
  private snapshotId: number | null = null;

  constructor(private readonly options: EngineChildOptions) {
    // No environment: nothing of the user's (tokens, paths) is there to read.
    const child = spawnEngine(engineCommand(options.confinement ?? 'os'), 'later');
    if (child.pid !== undefined) liveRoots.add(child.pid);
    // A server's stdout carries only its protocol: the engine's output goes to stderr, with what a
    // terminal would execute escaped (a program that reached JavaScript can write there), and
    // bounded per request (outputBudget.ts). The pipes are always drained, so that a program
    // that floods them never blocks on a full pipe either.
    const safe = terminalSafe();
    safe.on('data', (text: Buffer | string) => (options.output ?? writeStderr)(String(text)));
    this.output = new OutputBudget((chunk) => safe.write(chunk), options.outputBytes);
    child.stdout?.on('data', (chunk: Buffer) => this.output.take(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.output.take(chunk));
    this.child = child;
    const limitMb = options.memoryMb ?? ENGINE_MEMORY_MB;
    this.memory = new MemoryWatch(child.pid, {
      limit: limitMb * 1024 * 1024,
      onExceeded: (bytes) => {
        if (!this.gone) this.killProcess();
        this.lost(new MemoryExceeded(limitMb, Math.round(bytes / 1024 / 1024)));
      },
    });
    // The engine must not keep a finished CLI alive: pending requests hold their own timers.
    child.unref();
    child.channel?.unref();
    (child.stdout as { unref?: () => void } | null)?.unref?.();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Python engine did not load in ${options.loadMs / 1000} s`)), options.loadMs);
      let loaded = false;
      child.on('message', (msg: unknown) => {
        if (!loaded && this.booted && isReady(msg)) {
          loaded = true;
          clearTimeout(timer);
          this.restored = msg.restored;
          if (msg.restoreError !== undefined) {
            // it loaded the plain way, ready to make a snapshot (engineProcess.mjs)
            this.couldNotRestore = true;
            this.options.snapshots?.failed(this.booted.snapshot, msg.restoreError);
          }
          this.booted.snapshot = null;
          void this.install().then(() => {
            this.readyMs = Date.now() - this.startedAt;
            this.readyNow = true;
            resolve();
          }, reject);
          return;
        }
        if (isSnapshotReply(msg) && msg.id === this.snapshotId) return this.answer(msg);
        if (!isReply(msg)) return this.forged('a message the engine never sends');
        this.answer(msg);
      });
      // The engine never closes its channel; a program that reached it might.
      child.on('disconnect', () => {
        if (!this.gone) this.forged('the channel closed');
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`the Python engine could not start: ${err.message}`));
        this.lost(err);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (child.pid !== undefined) liveRoots.delete(child.pid);
        // ended before ready on its own: where the sandbox was taken as working from the probe
        // cache (sandboxProbeCache.ts), the next start checks it again
        const recheck = !this.readyNow && signal === null && code !== 0 && engineEndedBeforeReady();
        const err = new EngineLost(`the Python engine stopped (${signal ?? `exit code ${code}`})${recheck ? '; the sandbox is checked again at the next start' : ''}`);
        reject(err);
        this.lost(err);
      });
    });
    this.ready.catch(() => this.giveUpMaking());
    void this.boot();
  }

  /** Sends the first message: the snapshot to restore (waiting while another engine makes it),
   * or a plain load. */
  private async boot(): Promise<void> {
    const store = this.options.snapshots;
    let boot: SnapshotBoot = { snapshot: null, make: null };
    try {
      if (store) boot = await store.boot();
    } catch {
      // no snapshot: a plain load
    }
    if (this.gone) {
      if (boot.make) store?.unmade(boot.make);
      return;
    }
    this.making = boot.make;
    this.booted = { snapshot: boot.snapshot };
    const message: EngineBoot = { kind: 'boot', snapshot: boot.snapshot, make: boot.make !== null, ...(boot.snapshot ? { setup: this.options.restoredSetup ?? [] } : {}) };
    this.child.send(message, (err) => void err); // a process gone meanwhile: its exit says so
  }

  /** Requests sent and not yet answered. */
  get busy(): number {
    return this.inFlight;
  }

  /** Loaded and waiting, and not gone. */
  get isReady(): boolean {
    return this.readyNow && !this.gone;
  }

  get isGone(): boolean {
    return this.gone;
  }

  /** Sends one request once the process is ready; past `deadlineMs` (from the sending) the
   * process is killed and the request rejected with HardStop. It counts as in flight from this
   * call on, so that a process still loading for one owner is never taken as idle (issue 44). */
  send(request: EngineMessage, deadlineMs: number, what: string): Promise<Answer> {
    if (this.gone) return Promise.reject(new EngineLost('the Python engine is not running'));
    this.inFlight++;
    const sent = this.readyNow ? this.dispatch(request, deadlineMs, what) : this.ready.then(() => this.dispatch(request, deadlineMs, what));
    return sent.finally(() => {
      this.inFlight--;
      if (this.retiring && this.inFlight === 0) this.kill();
    });
  }

  /** Writes one request on the channel now (the setup's, before the process counts as ready). */
  private dispatch(request: EngineMessage, deadlineMs: number, what: string): Promise<Answer> {
    return this.request(request, deadlineMs, what) as Promise<Answer>;
  }

  private request(request: EngineMessage, deadlineMs: number, what: string): Promise<Answer | Uint8Array> {
    if (this.gone) return Promise.reject(new EngineLost('the Python engine is not running'));
    let id = freshId();
    while (this.pending.has(id) || this.answered.has(id)) id = freshId();
    this.output.reset();
    if (request.kind === 'snapshot') this.snapshotId = id;
    return new Promise<Answer | Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HardStop(`${what} ran past ${Math.round(deadlineMs / 1000)} s`));
        this.kill();
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, timer });
      this.child.send({ ...request, id } as EngineRequest);
    });
  }

  /** Kills the process once nothing is pending on it (at once when nothing is). */
  retire(): void {
    this.retiring = true;
    if (this.inFlight === 0) this.kill();
  }

  /** Kills the process now; whatever is pending fails. */
  kill(): void {
    if (!this.gone) this.killProcess();
    this.lost(new EngineLost('the Python engine was closed'));
  }

  /** Something wrote on the channel that the engine did not: everything pending fails, the
   * process ends. */
  private forged(what: string): void {
    if (!this.gone) this.killProcess();
    this.lost(new ChannelForged(`it wrote on the engine's channel (${what})`));
  }

  /** Ends the process and every process under it (bubblewrap's), then looks for a clone that a
   * kill in the middle of its start left behind (orphanSweep.ts). */
  private killProcess(): void {
    if (this.child.pid !== undefined) killTree(this.child.pid);
    else this.child.kill('SIGKILL');
    sweepLater(killTree);
  }

  private answer(msg: Exclude<EngineReply, { ready: true }>): void {
    if (msg.id === this.snapshotId) this.snapshotId = null;
    const p = this.pending.get(msg.id);
    if (!p) {
      // An answer to no request: either late (its deadline passed and the process was killed,
      // so nothing more comes from it) or forged.
      if (!this.gone) this.forged(this.answered.has(msg.id) ? 'a second answer to one request' : 'an answer to no request');
      return;
    }
    this.pending.delete(msg.id);
    this.answered.add(msg.id);
    clearTimeout(p.timer);
    if ('snapshot' in msg) p.resolve(msg.snapshot);
    else if (!('error' in msg)) p.resolve(msg.result);
    else if (!msg.fatal) p.reject(new Error(msg.error));
    else {
      // This process is ending: the host starts a fresh one for the next request.
      p.reject(new EngineLost(msg.error));
      this.kill();
    }
  }

  /** The engine's Python modules, installed in the fresh process (a restored one holds them
 * imported: only their files are written); then, by the engine that makes the store's snapshot,
 * the snapshot, before any program has run. */
  private async install(): Promise<void> {
    // a restored process ran its setup before it said ready (the boot message carried it)
    const setup = this.restored ? [] : this.options.setup;
    for (const code of setup) await this.dispatch({ kind: 'run', code }, this.options.quickMs, 'installing the tracer');
    const store = this.options.snapshots;
    if (!store || this.restored) return;
    // a process that could not restore the store's snapshot makes the next one, if nobody does
    if (!this.making && this.couldNotRestore) this.making = store.claim();
    const claim = this.making;
    if (!claim) return;
    try {
      const snapshot = await this.request({ kind: 'snapshot' }, this.options.quickMs, 'saving the interpreter');
      this.making = null;
      if (snapshot instanceof Uint8Array) store.made(claim, snapshot);
      else store.unmade(claim);
    } catch (err) {
      this.giveUpMaking();
      // an engine that could not make one still serves; one that is gone does not
      if (this.gone) throw err;
    }
  }

  /** A maker that cannot make the snapshot hands the role on. */
  private giveUpMaking(): void {
    const claim = this.making;
    this.making = null;
    if (claim) this.options.snapshots?.unmade(claim);
  }

  private lost(err: Error): void {
    const first = !this.gone;
    this.gone = true;
    this.giveUpMaking();
    this.memory.stop();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
    if (first) this.options.onGone?.(this);
  }
}
