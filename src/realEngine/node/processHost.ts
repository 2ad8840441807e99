// The real engine of the Node faces (the CLI, `ndb dap`, `ndb mcp`): Pyodide in a process of its
// own (engineProcess.mjs) that the operating system holds in (bubblewrap where the machine allows
// it: osSandbox.ts; how the process is started: engineChild.ts), under Node's permission model,
// with no code made from strings and no environment. A debugged program that reaches past
// Python's own sandbox (sandbox.py) and JavaScript meets these walls.
//
// Each request has a deadline: the tracer stops runs at the event budget and the time limit, but
// only between events, so a computation inside one C call (sum(range(10**12)), a huge power) would
// hold the engine forever. Past the deadline the process is killed and a fresh one started; the
// run ends as a timeout. A run that made Pyodide fail for good (e.g. a host command refused by the
// permission model) ends as an error, and the next request gets a fresh process too.
//
// One owner, one interpreter: a program could leave something behind in the interpreter it ran
// in (a patched `json.dumps`, an audit hook, a finalizer) that would run in or spy on the next
// program. Every request names an owner (`forOwner`: a session, a launch; the host's own methods
// use one default owner, for a command that runs one program or one evaluation file), and a
// process that ran one owner's requests never serves another's: it is replaced by a fresh one,
// started ahead once a second owner has shown up. A fresh process starts from the interpreter the
// first one saved before any program ran (engineSnapshot.ts): about a second where Python's
// own start takes several.

import { readFileSync } from 'node:fs';
import type { Recording } from '../../core/trace';
import { DefaultOwnerHost } from './defaultOwnerHost';
import { EngineChild, engineFiles, EngineLost, HardStop, MemoryExceeded, type Confinement } from './engineChild';
import { pyodideVersion, restoredSetupCode, sharedSnapshotStore, snapshotsWanted, type SnapshotStore } from './engineSnapshot';
import { engineWaitHere } from './engineWait';
import { parseAnswer, UntrustedAnswer } from '../answerCheck';
import { hostFromAsk, type AnswerTo, type Ask, type EngineQuestion, type PythonHost, type QuestionKind } from '../engineProtocol';
import type { Answer, EngineMessage } from './engineProcessProtocol';
import { engineSources } from './node';
import { ENGINE_MODULES, installModuleCode, type EngineSources } from '../realEngine';

export { ChannelForged, engineCommand, EngineLost, HardStop, MemoryExceeded, type EngineCommand } from './engineChild';

/** The tracer's own time limit when none is given (tracer.py). */
const TRACER_DEFAULT_LIMIT_S = 10;

/** The owner of the host's own methods. */
export const DEFAULT_OWNER = 'default';


export interface ProcessHostOptions {
  /** How long past a run's time limit the tracer gets to stop it itself. */
  graceMs?: number;
  /** The deadline of the requests that run no user program. */
  quickMs?: number;
  /** Starting the process and loading Pyodide, slow on a busy machine. */
  loadMs?: number;
  /** Keep a fresh process ready once a second owner has shown up (default true; a pool keeps
   * its own spares). */
  spare?: boolean;
  /** The memory limit of each engine process (MB; default ENGINE_MEMORY_MB). */
  memoryMb?: number;
  /** How far its processes are confined (default 'os': bubblewrap where the machine allows it;
   * lower ones for tests of the walls that hold without it). */
  confinement?: Confinement;
  /** The saved interpreter its processes start from (engineSnapshot.ts; default this process's
   * store for this engine, in memory and in the user's cache folder; null: every process loads
   * Python the plain way). */
  snapshots?: SnapshotStore | null;
  /** Where the processes' own stdout and stderr go, bounded per request (engineChild.ts). */
  output?: (text: string) => void;
}

export class ProcessHost extends DefaultOwnerHost {
  private current: EngineChild | null = null;
  private spareChild: EngineChild | null = null;
  private readonly graceMs: number;
  private readonly quickMs: number;
  private readonly loadMs: number;
  private readonly keepSpare: boolean;
  private readonly confinement: Confinement;
  private readonly memoryMb: number | undefined;
  private readonly output: ((text: string) => void) | undefined;
  private readonly setup: string[];
  private readonly restoredSetup: string[];
  private readonly snapshots: SnapshotStore | null;
  /** More than one owner has used this host: keep a fresh process ready. */
  private shared = false;
  private closed = false;
  protected readonly byDefault: PythonHost;

  constructor(options: ProcessHostOptions = {}) {
    super();
    // The tracer stops a run at its limit, early enough to send what it recorded within this
    // (tracer.py, ANSWER_SECONDS_PER_EVENT): only a call Python cannot interrupt runs past it.
    this.graceMs = options.graceMs ?? 1_000;
    this.quickMs = options.quickMs ?? 10_000;
    this.loadMs = options.loadMs ?? 120_000;
    this.keepSpare = options.spare ?? true;
    this.confinement = options.confinement ?? 'os';
    this.memoryMb = options.memoryMb;
    this.output = options.output;
    const sources = engineSources();
    // imported before any program, so that a snapshot holds the engine ready to answer
    this.setup = [...ENGINE_MODULES.map((name) => installModuleCode(name, sources[name])), 'import ndb_answers'];
    this.restoredSetup = [restoredSetupCode(sources)];
    this.snapshots = options.snapshots !== undefined ? options.snapshots : defaultSnapshots(sources);
    this.byDefault = this.forOwner(DEFAULT_OWNER);
    this.current = this.spawn();
  }

  /** Requests taken and not yet answered, those waiting for the process to load included (a
   * pool sends the next one elsewhere). */
  get busy(): number {
    return this.current?.busy ?? 0;
  }

  /** Python is loaded and waiting. */
  get isReady(): boolean {
    return this.current?.isReady ?? false;
  }

  /** Who ran code in the current process (null: nobody yet, or no process). */
  get owner(): string | null {
    return this.current && !this.current.isGone ? this.current.owner : null;
  }

  /** Resolves once Pyodide is loaded and the engine installed (rejects when it cannot be). */
  whenReady(): Promise<void> {
    return (this.current ??= this.spawn()).ready;
  }

  /** When the current process was started (Date.now(); now when there is none). */
  get startedAt(): number {
    return this.current?.startedAt ?? Date.now();
  }

  /** The current process was restored from the saved interpreter (engineSnapshot.ts). */
  get restored(): boolean {
    return this.current?.restored ?? false;
  }

  /** The host as seen by one owner: its requests never run in a process that served another. */
  forOwner(owner: string): PythonHost {
    // Ask is generic over the question's kind; each branch answers its own kind, so one widening
    // cast of the whole function is exact.
    const ask = (async (question: EngineQuestion): Promise<AnswerTo<QuestionKind>> => {
      const json = JSON.stringify(question);
      if (question.kind === 'record') return this.recordAs(owner, question, json);
      return this.call(owner, { kind: 'ask', question: json }, this.quickMs, question.kind, (text) => parseAnswer(question, text));
    }) as Ask;
    return hostFromAsk(ask, { forOwner: (other) => this.forOwner(other), release: async () => this.releaseOwner(owner) });
  }

  /** Ends the process that ran `owner`'s programs (once its last answer is in); the next
   * request, of anyone, gets a fresh one. */
  releaseOwner(owner: string): void {
    const child = this.current;
    if (child && !child.isGone && child.owner === owner) {
      this.current = null; // first: a process gone while current is replaced at once (onGone)
      child.retire();
    }
  }

  /** Whether a process is running or starting here. */
  get hasProcess(): boolean {
    return this.current !== null && !this.current.isGone;
  }

  /** Starts a fresh process now if none is running (a pool's warm spare). */
  warm(): void {
    if (!this.closed && !this.hasProcess) this.current = this.takeSpare();
  }

  /** Ends the processes (the host is not used again). */
  async close(): Promise<void> {
    this.closed = true;
    this.current?.kill();
    this.spareChild?.kill();
    this.current = this.spareChild = null;
  }

  private async recordAs(owner: string, question: Extract<EngineQuestion, { kind: 'record' }>, json: string): Promise<Recording> {
    const limitS = question.options.time_limit ?? TRACER_DEFAULT_LIMIT_S;
    const { source, call: program } = question;
    try {
      return await this.call(owner, { kind: 'ask', question: json }, limitS * 1000 + this.graceMs, 'the program', (text) => parseAnswer(question, text));
    } catch (err) {
      const stopped = (message: string): Recording => ({ source, call: program, events: [], codes: [], stdout: '', exit: { status: 'timeout', message } });
      if (err instanceof HardStop) {
        return stopped(`Stopped: the program ran past the time limit (${limitS} s) inside one call that cannot be interrupted; the Python engine was restarted`);
      }
      if (err instanceof MemoryExceeded) {
        return {
          ...stopped(''),
          exit: { status: 'error', message: `Stopped: ${err.message}, the limit of one program; the Python engine was restarted` },
        };
      }
      if (err instanceof EngineLost) {
        return {
          ...stopped(''),
          exit: { status: 'error', message: `The program reached outside ndb's sandbox and was stopped (${err.message}); the Python engine was restarted` },
        };
      }
      if (err instanceof UntrustedAnswer) return { ...stopped(''), exit: { status: 'error', message: `${err.message}; the Python engine was restarted` } };
      throw err;
    }
  }

  /** One request of `owner`'s, in the process that serves it, its answer read by `read`
   * (answerCheck.ts): an answer that fails its check ends the process that wrote it. */
  private async call<T>(owner: string, message: EngineMessage, deadlineMs: number, what: string, read: (answer: Answer) => T): Promise<T> {
    // counted as busy from here, while it waits for the process to load (EngineChild.send)
    const child = this.processFor(owner);
    if (!child.isReady) engineWaitHere(child.ready, child.startedAt); // the face says so once (engineWait.ts)
    const answer = await child.send(message, deadlineMs, what);
    try {
      return read(answer);
    } catch (err) {
      if (err instanceof UntrustedAnswer) child.kill();
      throw err;
    }
  }

  /** The process that serves `owner` now: the current one if it is fresh or already theirs, else
   * a fresh one (the spare, when one is ready) while the old one ends after its last answer. */
  private processFor(owner: string): EngineChild {
    if (this.closed) throw new EngineLost('the Python engine was closed');
    let child = this.current;
    if (!child || child.isGone) child = this.takeSpare();
    else if (child.owner !== null && child.owner !== owner) {
      this.shared = true;
      this.current = null; // first: else its end (onGone) would start a process nobody holds
      child.retire();
      child = this.takeSpare();
    }
    child.owner = owner;
    this.current = child;
    if (this.shared && this.keepSpare && (!this.spareChild || this.spareChild.isGone)) this.spareChild = this.spawn();
    return child;
  }

  private takeSpare(): EngineChild {
    const spare = this.spareChild && !this.spareChild.isGone ? this.spareChild : null;
    this.spareChild = null;
    return spare ?? this.spawn();
  }

  private spawn(): EngineChild {
    return new EngineChild({
      loadMs: this.loadMs,
      quickMs: this.quickMs,
      setup: this.setup,
      restoredSetup: this.restoredSetup,
      snapshots: this.snapshots,
      confinement: this.confinement,
      memoryMb: this.memoryMb,
      ...(this.output ? { output: this.output } : {}),
      // A process that ran past a deadline or was lost is replaced at once, so that the next
      // request does not wait for Python to load.
      onGone: (gone) => {
        if (!this.closed && gone === this.current) this.current = this.takeSpare();
      },
    });
  }
}

/** This process's saved interpreter for these sources, unless NDB_ENGINE_SNAPSHOT=0. */
function defaultSnapshots(sources: EngineSources): SnapshotStore | null {
  if (!snapshotsWanted()) return null;
  const files = engineFiles();
  return sharedSnapshotStore({ pyodideVersion: pyodideVersion(files.pyodide), engineScript: readFileSync(files.script, 'utf8'), sources });
}
