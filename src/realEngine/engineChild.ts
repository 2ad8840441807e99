// One engine process (engineProcess.mjs) seen from the parent: how it is started (the permission
// model, no code from strings, no environment, a network namespace where Linux allows one), its
// request/answer protocol, and the deadline of each request. processHost.ts decides which process
// runs what, and replaces one that ran past a deadline or that another program used.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A request that ran past its deadline; the process was killed. */
export class HardStop extends Error {}

/** A request after which Pyodide could not go on, or the process ended; it is gone. */
export class EngineLost extends Error {}

/** Messages to engineProcess.mjs. */
export type EngineRequest =
  | { id: number; kind: 'run'; code: string }
  | { id: number; kind: 'call'; module: string; fn: string; args: string[] };

/** Messages from engineProcess.mjs. */
export type EngineReply =
  | { ready: true; loadMs: number }
  | { id: number; result: string | number | boolean | null }
  | { id: number; error: string; fatal: boolean };

export type Answer = string | number | boolean | null;

export type EngineMessage = Omit<Extract<EngineRequest, { kind: 'call' }>, 'id'> | Omit<Extract<EngineRequest, { kind: 'run' }>, 'id'>;

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

/** The node command line of the engine process: the permission model with reads of Pyodide's
 * folder and of the entry script only, and no code generated from strings; inside a network
 * namespace of its own unless `namespace` is false (a test of the walls that hold without one). */
export function engineCommand(namespace = true): EngineCommand {
  const pyodideDir = dirname(createRequire(import.meta.url).resolve('pyodide'));
  const script = fileURLToPath(new URL('./engineProcess.mjs', import.meta.url));
  const flags = process.allowedNodeEnvironmentFlags;
  const node = [
    flags.has('--permission') ? '--permission' : '--experimental-permission',
    `--allow-fs-read=${pyodideDir}${sep}`,
    `--allow-fs-read=${script}`,
    '--disallow-code-generation-from-strings',
    ...(flags.has('--disable-warning') ? ['--disable-warning=ExperimentalWarning'] : ['--no-warnings']),
    script,
    pyodideDir,
  ];
  const unshare = namespace ? unshareCommand() : null;
  if (unshare) return { command: unshare, args: ['--net', '--map-root-user', '--', process.execPath, ...node], isolatedNetwork: true };
  return { command: process.execPath, args: node, isolatedNetwork: false };
}

export interface EngineChildOptions {
  /** Starting the process and loading Pyodide, slow on a busy machine. */
  loadMs: number;
  /** The deadline of the engine's own setup requests. */
  quickMs: number;
  /** Python run once loaded, before the process counts as ready (the engine's modules). */
  setup: readonly string[];
  /** Start it without a network namespace even where one could be made (tests). */
  noNamespace?: boolean;
  /** Told once when the process is gone (killed, crashed, or lost by a fatal error). */
  onGone?: (child: EngineChild) => void;
}

export class EngineChild {
  /** Who ran code in this process (processHost.ts); null while no program has run in it. */
  owner: string | null = null;
  private readonly child: ChildProcess;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private inFlight = 0;
  private readyNow = false;
  private gone = false;
  /** Resolves once Pyodide is loaded and the setup has run (rejects when it cannot be). */
  readonly ready: Promise<void>;
  /** Kill the process once its last request is answered (another owner took over). */
  private retiring = false;

  constructor(private readonly options: EngineChildOptions) {
    const { command, args } = engineCommand(!options.noNamespace);
    // No environment: nothing of the user's (tokens, paths) is there to read.
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'advanced', env: {} });
    // A server's stdout carries only its protocol: the engine's output goes to stderr.
    child.stdout?.pipe(process.stderr);
    child.stderr?.pipe(process.stderr);
    this.child = child;
    // The engine must not keep a finished CLI alive: pending requests hold their own timers.
    child.unref();
    child.channel?.unref();
    (child.stdout as { unref?: () => void } | null)?.unref?.();
    (child.stderr as { unref?: () => void } | null)?.unref?.();
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the Python engine did not load in ${options.loadMs / 1000} s`)), options.loadMs);
      child.on('message', (msg: EngineReply) => {
        if ('ready' in msg) {
          clearTimeout(timer);
          void this.install().then(() => {
            this.readyNow = true;
            resolve();
          }, reject);
          return;
        }
        this.answer(msg);
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`the Python engine could not start: ${err.message}`));
        this.lost(err);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
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
    const id = this.nextId++;
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
    if (!this.gone) this.child.kill('SIGKILL');
    this.lost(new EngineLost('the Python engine was closed'));
  }

  private answer(msg: Exclude<EngineReply, { ready: true }>): void {
    const p = this.pending.get(msg.id);
    if (!p) return; // answered after its deadline
    this.pending.delete(msg.id);
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
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
    if (first) this.options.onGone?.(this);
  }
}
