// The real engine's side of the app: the Python engine, the recording, and where the debugger
// stands in it. Every move is reported as a DebuggerEvent (the neural engine follows the debugger
// through them) and to `onMove` (the share link follows the position).

import { isInverse, type Action } from '../core/actions';
import { DebugSession } from '../core/debugSession';
import type { BreakCondition } from '../core/navigator';
import { changedLocals, stateAt, type DebugState, type EventState, type StackFrame } from '../core/state';
import type { Position, Recording } from '../core/trace';
import { tracebackOf, type TracebackEntry } from '../core/traceback';
import { EditError, type Edit } from '../core/whatIf';
import { EngineClient, EngineError, type EngineInfo, type EngineStage, type EvaluationResult, type RecordOptions } from '../realEngine/client';
import type { Program } from './program.svelte';
import { currentLineOf, errorMarkerOf, framesShown, frameViewOf, lastReachedAt, watchRowsAt, type ErrorMarker, type FrameView, type WatchRow } from './debuggerViews';
import { cutOffOf, DEFAULT_LIMITS, raisedLimits, type CutOff, type RunLimits } from './runEnd';

export type { ErrorMarker, FrameView, WatchRow };

/** What a toolbar button does: a debugger action, or re-running the program. */
export type Command = Action | { kind: 'restart' };

export type CommandKind = Command['kind'];

/** The toolbar's commands, in its order. */
const TOOLBAR: readonly Command[] = [
  { kind: 'step_into' },
  { kind: 'step_over' },
  { kind: 'step_return' },
  { kind: 'continue' },
  { kind: 'inv_step_into' },
  { kind: 'inv_step_over' },
  { kind: 'inv_step_call' },
  { kind: 'restart' },
];

export type EngineStatus = 'loading' | 'ready' | 'failed';

/** What the debugger asks of the Python engine: EngineClient, or a test's stand-in (which may
 * not know how to stop). */
export type RealEngine = Pick<EngineClient, 'ready' | 'record' | 'evaluate'> & Partial<Pick<EngineClient, 'stop'>>;

/** Makes the engine; it calls `onReady` whenever a worker has loaded (after a restart too), and
 * `onStage` as a worker's start goes on. */
export type ConnectEngine = (onReady: (info: EngineInfo) => void, onStage: (stage: EngineStage) => void) => RealEngine;

/** What every run gets beyond its limits (runEnd.ts: DEFAULT_LIMITS, raised by the user). */
export const RECORD_OPTIONS = { maxEvents: DEFAULT_LIMITS.maxEvents, maxRepr: 1_000, timeLimit: DEFAULT_LIMITS.timeLimit } as const;

/** What the debugger reports after each move. */
export type DebuggerEvent =
  | { kind: 'recorded'; recording: Recording; position: Position; breakpoints: number[] }
  | { kind: 'action'; recording: Recording; action: Action; position: Position; breakpoints: number[] }
  | { kind: 'jump'; recording: Recording; position: Position; breakpoints: number[] }
  /** What-if: the program ran again with an edit at `position` (the current stop). */
  | { kind: 'edit'; recording: Recording; position: Position; breakpoints: number[] }
  /** The same run recorded again (new breakpoint conditions or watches): the states are the same. */
  | { kind: 'rerecorded'; recording: Recording }
  | { kind: 'cleared' };




export class Debugger {
  engine = $state<EngineStatus>('loading');
  engineInfo = $state.raw<EngineInfo | null>(null);
  /** How far Python's start has come (while `engine` is 'loading'). */
  loadStage = $state<EngineStage | null>(null);
  busy = $state(false);
  /** An engine failure, shown in the status line until the next recording. */
  error = $state<string | null>(null);

  recording = $state.raw<Recording | null>(null);
  position = $state<Position>(0);
  /** The edits the current recording was made with. */
  edits = $state.raw<readonly Edit[]>([]);
  /** The limits the next run gets ("Raise the limit" raises them, up to LIMIT_CEILING). */
  limits = $state.raw<RunLimits>(DEFAULT_LIMITS);
  /** The limits the current recording was made with. */
  recordedLimits = $state.raw<RunLimits>(DEFAULT_LIMITS);
  /** The previous stop in the same frame: what "changed" values are compared with. */
  private compareWith = $state<Position>(-2);
  private recordedSource = $state<string | null>(null);
  private recordedCall = $state<string | null>(null);
  private recordedInput = $state<string | null>(null);
  /** The watch expressions the current recording was made with (event.watch follows them). */
  private recordedWatch = $state.raw<string[]>([]);
  /** The program (code and call) whose run was stopped by restarting Python: it runs again only
   * when the user asks (Restart), never by a step. */
  private halted = $state.raw<{ source: string; call: string; by: 'user' | 'limit' } | null>(null);
  /** The user pressed Stop during the current run. */
  private stopRequested = false;
  /** The frame picked in the Call stack (null: the current frame). */
  selectedFrame = $state<number | null>(null);

  /** Told of every move (the neural engine follows the debugger through this). */
  onEvent: ((ev: DebuggerEvent) => void) | null = null;
  /** Told when the position changed (the share link follows it). */
  onMove: (() => void) | null = null;

  private active: DebugSession | null = null;
  private visited: Position[] = [];
  private client: RealEngine | null = null;

  private readonly program: Program;

  constructor(program: Program) {
    this.program = program;
  }

  /** The code, the call or the input changed since the recording (or there is none). */
  readonly dirty = $derived.by(
    () =>
      this.recording === null ||
      this.program.source !== this.recordedSource ||
      this.program.call !== this.recordedCall ||
      this.program.input !== this.recordedInput,
  );
  readonly state = $derived<DebugState | null>(this.recording ? stateAt(this.recording, this.position) : null);

  /** A run stopped by a limit, not by its own end (null: it ended, or there is none). */
  readonly cutOff = $derived<CutOff | null>(this.recording ? cutOffOf(this.recording) : null);

  /** At the exit of a run that was cut off: the last state it reached (its frame and locals), which
   * the panels show; null elsewhere. */
  readonly lastReached = $derived<EventState | null>(this.recording ? lastReachedAt(this.recording, this.position, this.cutOff) : null);

  /** The frames at the stop: none once the program has ended (it finished, or an exception ended
   * it); the frames it was in when a limit cut it off. */
  readonly stack = $derived<StackFrame[]>(this.recording ? framesShown(this.recording, this.position, this.cutOff) : []);

  /** The limits "Raise the limit" would give the run shown (null: it was not cut off by a limit,
   * the user stopped it, or the limit is at its ceiling). */
  readonly raisable = $derived.by<RunLimits | null>(() => {
    const cut = this.cutOff;
    if (!cut || cut.byUser || this.dirty) return null;
    return raisedLimits(this.recordedLimits, cut.status);
  });
  readonly changed = $derived<Set<string>>(
    this.recording ? changedLocals(this.recording, this.position, this.compareWith) : new Set(),
  );
  readonly lastPosition = $derived(this.recording ? this.recording.events.length : 0);

  /** The watch rows at the current stop. */
  readonly watchRows = $derived.by<WatchRow[]>(() => watchRowsAt(this.recording, this.position, this.program.watches, this.recordedWatch));

  /** The traceback of a run that ended with an uncaught exception (outermost frame first). */
  readonly traceback = $derived<TracebackEntry[]>(this.recording ? tracebackOf(this.recording) : []);

  readonly errorMarker = $derived<ErrorMarker | null>(this.recording ? errorMarkerOf(this.recording, this.traceback) : null);

  /** The frame picked in the Call stack, when it is not the current one: its line and its locals
   * as they were when it last ran (at its call of the frame above it). */
  readonly frameView = $derived<FrameView | null>(this.recording ? frameViewOf(this.recording, this.position, this.stack, this.selectedFrame) : null);

  /** Who stopped the run of this program by restarting Python (null: it was not): steps wait for
   * Restart, the user's decision to run it again. */
  readonly haltedBy = $derived.by<'user' | 'limit' | null>(() =>
    this.halted !== null && this.halted.source === this.program.source && this.halted.call === this.program.call ? this.halted.by : null,
  );

  /** Whether each toolbar command would do something now: a button that would not is disabled
   * (and a key that asks for it does nothing), so that nothing is scored where nothing moved. */
  readonly available = $derived.by<Record<CommandKind, boolean>>(() => {
    // Read for their changes: the answer depends on them through the session.
    void this.recording;
    void this.position;
    void this.edits;
    void this.program.breakpoints;
    const out = {} as Record<CommandKind, boolean>;
    for (const c of TOOLBAR) out[c.kind] = this.canDo(c);
    // Run to line: where Continue can go (Session.run asks canDo for the line itself).
    out.breakpoint = out.continue;
    return out;
  });

  /** The line the editor highlights, with the kind of stop. */
  readonly currentLine = $derived(currentLineOf(this.state));

  /** The debug session of the current recording: a restore checks that it is still the one it made. */
  get session(): DebugSession | null {
    return this.active;
  }

  /** Whether `command` would do something now: run the program (Restart, or a step after the code
   * changed), or move the debugger. */
  canDo(command: Command): boolean {
    if (this.engine !== 'ready' || this.busy) return false;
    if (command.kind === 'restart') return true;
    const debug = this.active;
    if (this.dirty || !debug) {
      // A step records the changed program first and then stands at its first event.
      return !isInverse(command) && this.haltedBy === null && this.program.source.trim() !== '';
    }
    // A run that recorded nothing (a syntax error, a bad call) has nowhere to go.
    if (debug.recording.events.length === 0) return false;
    const fork = debug.fork();
    this.syncBreakpoints(fork);
    const from = fork.position;
    const recording = fork.recording;
    return fork.apply(command) !== from || fork.recording !== recording;
  }

  /** The user's Stop while Python runs. */
  stop(): void {
    if (!this.busy) return;
    this.stopRequested = true;
    this.client?.stop?.();
  }

  /** Shows a caller's frame (its line and locals), or with null the current one again. */
  selectFrame(frame: number | null): void {
    this.selectedFrame = frame;
  }

  /** Starts the Python engine; resolves false (with the message shown) when it cannot load. */
  async start(connect: ConnectEngine = (onReady, onStage) => new EngineClient({ onReady, onStage })): Promise<boolean> {
    const client = connect(
      (info) => this.onEngineReady(info),
      (stage) => this.onStage(stage),
    );
    this.client = client;
    try {
      await client.ready;
      return true;
    } catch (err) {
      this.engine = 'failed';
      this.error = err instanceof Error ? err.message : String(err);
      return false;
    }
  }

  /** Waits for the engine (a restarted one included); false when it cannot load. */
  async waitForEngine(): Promise<boolean> {
    if (this.engine === 'ready') return true;
    try {
      await this.client?.ready;
      return true;
    } catch {
      return false;
    }
  }

  private light: (() => void) | null = null;
  private readonly lightStart = new Promise<void>((resolve) => (this.light = resolve));

  /** Settles once Python's start is no longer heavy on the CPU: it restores a saved interpreter,
   * or it is ready (or failed). The model waits for this before it builds (main.ts). */
  heavyStartDone(): Promise<unknown> {
    return Promise.race([this.lightStart, this.waitForEngine()]);
  }

  private onStage(stage: EngineStage): void {
    this.loadStage = stage;
    if (stage === 'restoring') this.light?.();
  }

  private onEngineReady(info: EngineInfo): void {
    this.loadStage = null;
    // For `npm run bench:web`: the time from navigation to the first usable real engine.
    if (performance.getEntriesByName('ndb:engine-ready').length === 0) performance.mark('ndb:engine-ready');
    this.engineInfo = info;
    this.engine = 'ready';
  }

  /** Records the current program; false when no recording came back, or when `wanted` says the
   * answer came too late (a newer link was loaded meanwhile): it is then dropped. */
  async record(wanted: () => boolean = () => true): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const source = this.program.source;
    const call = this.program.call;
    const input = this.program.input;
    const limits = this.limits;
    this.busy = true;
    this.error = null;
    this.stopRequested = false;
    this.halted = null;
    try {
      const { options, watch } = this.recordOptions([]);
      const rec = this.stoppedByUser(await client.record(source, call, options));
      if (!wanted()) return false;
      this.recordedSource = source;
      this.recordedCall = call;
      this.recordedInput = input;
      this.recordedLimits = limits;
      this.recordedWatch = watch;
      const conditions = new Map<number, BreakCondition>();
      for (const [line, c] of Object.entries(this.program.conditions)) conditions.set(Number(line), c);
      this.active = new DebugSession(rec, this.program.breakpoints, conditions);
      this.edits = [];
      this.visited = [];
      this.compareWith = -2;
      this.recording = rec;
      this.moveTo(this.active.position);
      this.emit({ kind: 'recorded', recording: rec, position: this.position, breakpoints: [...this.program.breakpoints] });
      return true;
    } catch (err) {
      if (!wanted()) return false;
      this.clear();
      this.emit({ kind: 'cleared' });
      this.error =
        err instanceof EngineError ? err.message : `Something went wrong: ${err instanceof Error ? err.message : String(err)}`;
      if (err instanceof EngineError && err.kind === 'stopped') this.halted = { source, call, by: this.stopRequested ? 'user' : 'limit' };
      this.noteStopped(err);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** "Raise the limit": runs the program again with the limit that cut it off raised (up to its
   * ceiling); at the exit it goes to the new run's end, as Continue had. False when it cannot. */
  async raiseLimit(): Promise<boolean> {
    const next = this.raisable;
    if (!next || this.busy || this.engine !== 'ready') return false;
    const atExit = this.recording !== null && this.position >= this.recording.events.length;
    this.limits = next;
    if (!(await this.record())) return false;
    if (atExit && this.recording) this.jump(this.recording.events.length);
    return true;
  }

  /** Forgets the recording (a link shows other code). */
  clear(): void {
    this.recording = null;
    this.active = null;
    this.edits = [];
    this.recordedSource = null;
    this.error = null;
  }

  /** A toolbar button, a key or the editor's "Run to line". */
  async run(command: Command): Promise<void> {
    if (command.kind === 'restart' || this.dirty || !this.active) {
      const ok = await this.record();
      if (!ok) return;
      // A fresh recording stands at its first event; Continue (and Run to line) then go on.
      if (command.kind !== 'continue' && command.kind !== 'breakpoint') return;
    }
    const debug = this.active;
    if (!debug) return;
    this.syncBreakpoints(debug);
    // Stepping back to before an edit returns to the recording it was made in.
    const from = debug.position;
    const recording = debug.recording;
    const pos = debug.apply(command);
    // Nothing moved (a forward step at the exit, a step back at the entry): nothing to report,
    // so nothing is scored.
    if (pos === from && debug.recording === recording) return;
    this.adopt(debug);
    this.moveTo(pos);
    if (this.recording) this.emit({ kind: 'action', recording: this.recording, action: command, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  /** The timeline: any position, as if stepped there. */
  jump(pos: Position): void {
    if (!this.active || this.busy) return;
    this.active.jump(pos);
    this.adopt(this.active);
    this.moveTo(this.active.position);
    this.emitJump();
  }

  /** A link's position (or, with null, where its edits left the debugger), in the session `debug`
   * that the link's restore made. */
  restoreTo(debug: DebugSession, pos: Position | null): void {
    if (pos !== null) debug.jump(pos);
    this.adopt(debug);
    this.moveTo(debug.position);
    this.emitJump();
  }

  /** What-if: `name = expr` at the current stop; throws (the session unchanged) when it cannot be made. */
  async edit(name: string, expr: string): Promise<void> {
    const debug = this.active;
    if (!debug || !this.recording) throw new EditError('there is no recording to edit');
    await debug.edit(name, expr, (edits) => this.rerun(edits));
    this.adopt(debug);
    this.moveTo(debug.position);
    this.emit({ kind: 'edit', recording: debug.recording, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  /** A link's edit, made again where its sender made it, in the session `debug` of the link's restore. */
  async replayEdit(debug: DebugSession, edit: Edit): Promise<void> {
    debug.jump(edit.at);
    if (debug.position !== edit.at) throw new EditError(`the program has no stop ${edit.at}`);
    await debug.edit(edit.name, edit.expr, (all) => this.rerun(all));
  }

  /** Shows what `debug` holds now, unless another recording took its place meanwhile. */
  adoptIfCurrent(debug: DebugSession): void {
    if (this.active === debug) this.adopt(debug);
  }

  /** Records the program again with the current edits, conditions and watches, at the same stop;
   * throws (nothing changed) when a run fails. */
  async rerecord(): Promise<void> {
    const debug = this.active;
    if (!debug) return;
    await debug.rerecord(async (edits) => {
      const rec = await this.rerun(edits);
      if (rec.exit.status === 'edit_error') throw new EditError(rec.exit.message ?? 'the program could not run with it');
      return rec;
    });
    this.adopt(debug);
    this.position = debug.position;
    this.emit({ kind: 'rerecorded', recording: debug.recording });
  }

  /** Whether a change of conditions or watches must run the program again now (else the next
   * recording picks it up). */
  get canRerecord(): boolean {
    return this.active !== null && !this.dirty && this.engine === 'ready';
  }

  /** The navigator's condition of a breakpoint line (set by `setCondition`). */
  conditionOf(line: number): BreakCondition | undefined {
    return this.active?.navigator.conditionOf(line);
  }

  setCondition(line: number, condition: BreakCondition | undefined): void {
    this.active?.navigator.setCondition(line, condition);
  }

  /** Runs `task` with the busy state on (the toolbar waits; e2e tests wait for it too). */
  async whileBusy<T>(task: () => Promise<T>): Promise<T> {
    this.busy = true;
    try {
      return await task();
    } finally {
      this.busy = false;
    }
  }

  /** The engine is being replaced after `err`: the buttons wait for the new one. */
  noteStopped(err: unknown): void {
    if (err instanceof EngineError && err.kind === 'stopped') this.engine = 'loading';
  }

  /** What a watch expression gives on a model's predicted locals (values.py). */
  async evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<EvaluationResult> {
    if (!this.client || this.engine !== 'ready') return { unknown: 'the Python engine is not ready' };
    return this.client.evaluate(expr, locals);
  }

  /** The SyntaxError message when `expr` is not a Python expression, else null. */
  async syntaxError(expr: string): Promise<string | null> {
    if (!this.client || this.engine !== 'ready') return null;
    try {
      const r = await this.client.evaluate(expr, {});
      return 'error' in r && r.error.startsWith('SyntaxError') ? r.error.replace(/^SyntaxError:\s*/, '') : null;
    } catch {
      return null;
    }
  }

  /** Runs the recorded program with another call (Guess inputs), leaving the debugger as it is. */
  async checkCall(call: string): Promise<Recording> {
    if (!this.client) throw new Error('the Python engine is not loaded');
    return this.client.record(this.recordedSource ?? this.program.source, call, {
      ...RECORD_OPTIONS,
      maxEvents: 20_000,
      timeLimit: 5,
      stdin: this.recordedInput ?? this.program.input,
    });
  }

  /** A run the user stopped (Python interrupted) ends as a timeout: say who stopped it. */
  private stoppedByUser(rec: Recording): Recording {
    if (!this.stopRequested || rec.exit.status !== 'timeout') return rec;
    return { ...rec, exit: { ...rec.exit, message: 'Stopped as you asked' } };
  }

  /** Breakpoints set while stopped behave as pdb's `break`: see Navigator.addBreakpoint. */
  private syncBreakpoints(debug: DebugSession): void {
    const nav = debug.navigator;
    const lines = this.program.breakpoints;
    for (const line of [...nav.breakpoints]) if (!lines.includes(line)) nav.removeBreakpoint(line);
    for (const line of lines) if (!nav.breakpoints.has(line)) nav.addBreakpoint(line);
  }

  /** Takes the debug session's recording (it changes with edits and with stepping back across one). */
  private adopt(debug: DebugSession): void {
    if (debug.recording !== this.recording) this.recording = debug.recording;
    if (debug.history.edits !== this.edits) this.edits = debug.history.edits;
  }

  /** The program again, with these edits and the program's conditions and watches. */
  private async rerun(edits: readonly Edit[]): Promise<Recording> {
    const client = this.client;
    if (!client) throw new EngineError('The Python engine is not loaded.', 'engine');
    const { options, watch } = this.recordOptions(edits);
    const rec = await client.record(this.recordedSource ?? this.program.source, this.recordedCall ?? this.program.call, {
      ...options,
      ...this.recordedLimits,
      stdin: this.recordedInput ?? this.program.input,
    });
    if (rec.exit.status !== 'edit_error') this.recordedWatch = watch;
    return rec;
  }

  /** What every run gets: the limits, the input, the edits, the breakpoint conditions and the
   * watch expressions that parse (event.watch follows their order). */
  private recordOptions(edits: readonly Edit[]): { options: RecordOptions; watch: string[] } {
    const watch = this.program.runnableWatches;
    const options: RecordOptions = {
      ...RECORD_OPTIONS,
      ...this.limits,
      stdin: this.program.input,
      edits,
      conditions: this.program.runnableConditions,
      watch,
    };
    return { options, watch };
  }

  private moveTo(pos: Position): void {
    const rec = this.recording;
    let compare: Position = -2;
    if (rec && pos >= 0 && pos < rec.events.length) {
      const frame = rec.events[pos]!.frame;
      for (let i = this.visited.length - 1; i >= 0; i--) {
        const p = this.visited[i]!;
        if (p !== pos && p >= 0 && p < rec.events.length && rec.events[p]!.frame === frame) {
          compare = p;
          break;
        }
      }
    }
    this.visited.push(pos);
    if (this.visited.length > 1000) this.visited.splice(0, this.visited.length - 1000);
    this.compareWith = compare;
    this.position = pos;
    this.selectedFrame = null;
    this.onMove?.();
  }

  private emitJump(): void {
    if (this.recording) this.emit({ kind: 'jump', recording: this.recording, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  private emit(ev: DebuggerEvent): void {
    this.onEvent?.(ev);
  }
}
