// The real engine of the Node faces (the CLI, `ndb dap`, `ndb mcp`): Pyodide in a process of its
// own (engineProcess.mjs) that the operating system holds in: Node's permission model (no file
// writes, no child processes, no workers, no addons, file reads of Pyodide's folder only), no code
// made from strings, no environment variables and, where Linux lets an unprivileged user make one,
// a network namespace with no network. A debugged program that reaches past Python's own sandbox
// (sandbox.py) meets these walls.
//
// Each request has a deadline: the tracer stops runs at the event budget and the time limit, but
// only between events, so a computation inside one C call (sum(range(10**12)), a huge power) would
// hold the engine forever. Past the deadline the process is killed and a fresh one started; the
// run ends as a timeout. A run that made Pyodide fail for good (e.g. a host command refused by the
// permission model) ends as an error, and the next request gets a fresh process too.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Recording } from '../core/trace';
import { readRepoFile } from './node';
import type { CodeLines, LocalsEvaluation, PythonHost } from './pythonHost';
import { installModuleCode, moduleFilesCleanup, moduleFilesCode, parseRecording, recordOptionsJson, type RecordOptions } from './realEngine';

/** The tracer's own time limit when none is given (tracer.py). */
const TRACER_DEFAULT_LIMIT_S = 10;

/** The Python modules the engine installs, by the names the tracer and the host import. */
const MODULES: readonly (readonly [string, string])[] = [
  ['ndb_sandbox', 'src/realEngine/sandbox.py'],
  ['ndb_tracer', 'src/realEngine/tracer.py'],
  ['ndb_source_info', 'src/realEngine/sourceInfo.py'],
  ['ndb_values', 'src/realEngine/values.py'],
];

export interface ProcessHostOptions {
  /** How long past a run's time limit the tracer gets to stop it itself. */
  graceMs?: number;
  /** The deadline of the requests that run no user program. */
  quickMs?: number;
  /** Starting the process and loading Pyodide, slow on a busy machine. */
  loadMs?: number;
}

/** A request that ran past its deadline; the process was replaced. */
export class HardStop extends Error {}

/** A request after which Pyodide could not go on; the process was replaced. */
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

type Answer = string | number | boolean | null;

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
 * folder and of the entry script only, and no code generated from strings. */
export function engineCommand(): EngineCommand {
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
  const unshare = unshareCommand();
  if (unshare) return { command: unshare, args: ['--net', '--map-root-user', '--', process.execPath, ...node], isolatedNetwork: true };
  return { command: process.execPath, args: node, isolatedNetwork: false };
}

export class ProcessHost implements PythonHost {
  private child: ChildProcess | null = null;
  private ready: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly graceMs: number;
  private readonly quickMs: number;
  private readonly loadMs: number;
  private readonly setup: string[];
  private inFlight = 0;
  private readyNow = false;

  constructor(options: ProcessHostOptions = {}) {
    this.graceMs = options.graceMs ?? 4_000;
    this.quickMs = options.quickMs ?? 10_000;
    this.loadMs = options.loadMs ?? 120_000;
    this.setup = MODULES.map(([name, file]) => installModuleCode(name, readRepoFile(file)));
    this.start();
  }

  /** Requests sent and not yet answered (a pool sends the next one elsewhere). */
  get busy(): number {
    return this.inFlight;
  }

  /** Python is loaded and waiting. */
  get isReady(): boolean {
    return this.readyNow && this.child !== null;
  }

  /** Resolves once Pyodide is loaded and the engine installed (rejects when it cannot be). */
  whenReady(): Promise<void> {
    return this.ready;
  }

  async record(source: string, call: string, options: RecordOptions = {}): Promise<Recording> {
    const limitS = options.timeLimit ?? TRACER_DEFAULT_LIMIT_S;
    const modules = options.modules && Object.keys(options.modules).length > 0 ? options.modules : null;
    try {
      if (!modules) return parseRecording(await this.call('ndb_tracer', 'record_json', [source, call, recordOptionsJson(options)], limitS * 1000 + this.graceMs));
      return parseRecording(
        await this.call('ndb_tracer', 'record_json', [source, call, recordOptionsJson(options)], limitS * 1000 + this.graceMs, [moduleFilesCode(modules), moduleFilesCleanup(modules)]),
      );
    } catch (err) {
      const stopped = (message: string): Recording => ({ source, call, events: [], codes: [], stdout: '', exit: { status: 'timeout', message } });
      if (err instanceof HardStop) {
        return stopped(`Stopped: the program ran past the time limit (${limitS} s) inside one call that cannot be interrupted; the Python engine was restarted`);
      }
      if (err instanceof EngineLost) {
        return {
          ...stopped(''),
          exit: { status: 'error', message: `The program reached outside ndb's sandbox and was stopped (${err.message}); the Python engine was restarted` },
        };
      }
      throw err;
    }
  }

  async codeLines(source: string): Promise<CodeLines> {
    return JSON.parse(String(await this.call('ndb_source_info', 'executable_lines', [source], this.quickMs))) as CodeLines;
  }

  async expressionError(expr: string): Promise<string | null> {
    const answer = await this.call('ndb_source_info', 'expression_error', [expr], this.quickMs);
    return typeof answer === 'string' ? answer : null;
  }

  async evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation> {
    return JSON.parse(String(await this.call('ndb_values', 'evaluate_on_locals', [expr, JSON.stringify(locals)], this.quickMs))) as LocalsEvaluation;
  }

  async sameValue(predicted: string, expected: string): Promise<boolean> {
    return (await this.call('ndb_values', 'same_value', [predicted, expected], this.quickMs)) === true;
  }

  async firstArgument(args: string): Promise<string | null> {
    const answer = await this.call('ndb_values', 'first_argument', [args], this.quickMs);
    return typeof answer === 'string' ? answer : null;
  }

  async callArguments(values: readonly string[]): Promise<string | null> {
    const answer = await this.call('ndb_values', 'call_arguments_json', [JSON.stringify(values)], this.quickMs);
    return typeof answer === 'string' ? answer : null;
  }

  /** Ends the process (the host is not used again). */
  async close(): Promise<void> {
    const child = this.child;
    this.child = null;
    this.failAll(new Error('the Python engine was closed'));
    child?.kill('SIGKILL');
  }

  /** A function of an installed module; `around`: Python run just before and after it in the
   * same process (setting up and taking away what the call needs). */
  private async call(module: string, fn: string, args: string[], deadlineMs: number, around?: [string, string]): Promise<Answer> {
    this.inFlight++;
    try {
      if (!this.child) this.start();
      await this.ready;
      if (!around) return await this.send({ kind: 'call', module, fn, args }, deadlineMs, fn);
      await this.send({ kind: 'run', code: around[0] }, this.quickMs, 'setting up the program');
      try {
        return await this.send({ kind: 'call', module, fn, args }, deadlineMs, fn);
      } finally {
        if (this.child) await this.send({ kind: 'run', code: around[1] }, this.quickMs, 'cleaning up').catch(() => undefined);
      }
    } finally {
      this.inFlight--;
    }
  }

  private send(request: Omit<Extract<EngineRequest, { kind: 'call' }>, 'id'> | Omit<Extract<EngineRequest, { kind: 'run' }>, 'id'>, deadlineMs: number, what: string): Promise<Answer> {
    const child = this.child;
    if (!child) return Promise.reject(new Error('the Python engine is not running'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new HardStop(`${what} ran past ${Math.round(deadlineMs / 1000)} s`));
        this.restart();
      }, deadlineMs);
      this.pending.set(id, { resolve, reject, timer });
      child.send({ ...request, id } as EngineRequest);
    });
  }

  private start(): void {
    this.readyNow = false;
    const { command, args } = engineCommand();
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
      const timer = setTimeout(() => reject(new Error(`the Python engine did not load in ${this.loadMs / 1000} s`)), this.loadMs);
      child.on('message', (msg: EngineReply) => {
        if ('ready' in msg) {
          clearTimeout(timer);
          void this.install().then(() => {
            this.readyNow = true;
            resolve();
          }, reject);
          return;
        }
        const p = this.pending.get(msg.id);
        if (!p) return; // answered after its deadline
        this.pending.delete(msg.id);
        clearTimeout(p.timer);
        if (!('error' in msg)) p.resolve(msg.result);
        else if (!msg.fatal) p.reject(new Error(msg.error));
        else {
          // This process is ending: the next request starts a fresh one.
          if (this.child === child) this.child = null;
          child.kill('SIGKILL');
          p.reject(new EngineLost(msg.error));
        }
      });
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`the Python engine could not start: ${err.message}`));
        if (this.child === child) this.lost(err);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        const err = new EngineLost(`the Python engine stopped (${signal ?? `exit code ${code}`})`);
        reject(err);
        if (this.child === child) this.lost(err);
      });
    });
    this.ready.catch(() => undefined);
  }

  /** The engine's Python modules, installed in the fresh process. */
  private async install(): Promise<void> {
    for (const code of this.setup) await this.send({ kind: 'run', code }, this.quickMs, 'installing the tracer');
  }

  private restart(): void {
    const old = this.child;
    this.child = null;
    old?.kill('SIGKILL');
    this.start();
  }

  private lost(err: Error): void {
    this.child = null;
    this.failAll(err);
  }

  private failAll(err: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(err);
      this.pending.delete(id);
    }
  }
}
