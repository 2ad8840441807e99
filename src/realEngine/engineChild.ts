// One engine process (engineProcess.mjs) seen from the parent: how it is started (bubblewrap, the
// permission model, no code from strings, no environment), its request/answer protocol
// (engineProcessProtocol.ts), and the deadline of each request. processHost.ts decides which process
// runs what, and replaces one that ran past a deadline or that another program used.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isReady, isReply, type Answer, type EngineMessage, type EngineReply, type EngineRequest } from './engineProcessProtocol';
import { MemoryWatch } from './memoryWatch';
import { terminalSafe } from './terminalSafe';
import { bubblewrapArgs, INSIDE, osBoundary, sandboxNotice, type EngineFiles, type OsBoundary } from './osSandbox';

/** A request that ran past its deadline; the process was killed. */
export class HardStop extends Error {}

/** A request after which Pyodide could not go on, or the process ended; it is gone. */
export class EngineLost extends Error {}

interface Pending {
  resolve(value: Answer): void;
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

/** The host files an engine process runs from. */
export function engineFiles(): EngineFiles {
  return {
    node: process.execPath,
    pyodide: dirname(createRequire(import.meta.url).resolve('pyodide')),
    script: fileURLToPath(new URL('./engineProcess.mjs', import.meta.url)),
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
      return {
        command: boundary.bwrap,
        args: [...bubblewrapArgs(files, env), INSIDE.node, ...nodeFlags(INSIDE)],
        isolatedNetwork: true,
        boundary: 'bubblewrap',
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
  private inFlight = 0;
  private readyNow = false;
  private gone = false;
  /** Resolves once Pyodide is loaded and the setup has run (rejects when it cannot be). */
  readonly ready: Promise<void>;
  /** Kill the process once its last request is answered (another owner took over). */
  private retiring = false;

  constructor(private readonly options: EngineChildOptions) {
    const { command, args } = engineCommand(options.confinement ?? 'os');
    // No environment: nothing of the user's (tokens, paths) is there to read.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced', env: {} });
    if (child.pid !== undefined) liveRoots.add(child.pid);
    // A server's stdout carries only its protocol: the engine's output goes to stderr, with what a
    // terminal would execute escaped (a program that reached JavaScript can write there).
    child.stdout?.pipe(terminalSafe()).pipe(process.stderr);
    child.stderr?.pipe(terminalSafe()).pipe(process.stderr);
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
        if (!loaded && isReady(msg)) {
          loaded = true;
          clearTimeout(timer);
          void this.install().then(() => {
            this.readyNow = true;
            resolve();
          }, reject);
          return;
        }
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
        const err = new EngineLost(`the Python engine stopped (${signal ?? `exit code ${code}`})`);
        reject(err);
        this.lost(err);
      });
    });
    this.ready.catch(() => undefined);
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

  /** Sends one request; past `deadlineMs` the process is killed and the request rejected with
   * HardStop. */
  send(request: EngineMessage, deadlineMs: number, what: string): Promise<Answer> {
    if (this.gone) return Promise.reject(new EngineLost('the Python engine is not running'));
    let id = freshId();
    while (this.pending.has(id) || this.answered.has(id)) id = freshId();
    this.inFlight++;
    const settled = new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HardStop(`${what} ran past ${Math.round(deadlineMs / 1000)} s`));
        this.kill();
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, timer });
      this.child.send({ ...request, id } as EngineRequest);
    });
    return settled.finally(() => {
      this.inFlight--;
      if (this.retiring && this.inFlight === 0) this.kill();
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

  /** Ends the process and every process under it (bubblewrap's). */
  private killProcess(): void {
    if (this.child.pid !== undefined) killTree(this.child.pid);
    else this.child.kill('SIGKILL');
  }

  private answer(msg: Exclude<EngineReply, { ready: true }>): void {
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
    if (!('error' in msg)) p.resolve(msg.result);
    else if (!msg.fatal) p.reject(new Error(msg.error));
    else {
      // This process is ending: the host starts a fresh one for the next request.
      p.reject(new EngineLost(msg.error));
      this.kill();
    }
  }

  /** The engine's Python modules, installed in the fresh process. */
  private async install(): Promise<void> {
    for (const code of this.options.setup) await this.send({ kind: 'run', code }, this.options.quickMs, 'installing the tracer');
  }

  private lost(err: Error): void {
    const first = !this.gone;
    this.gone = true;
    this.memory.stop();
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
    if (first) this.options.onGone?.(this);
  }
}
