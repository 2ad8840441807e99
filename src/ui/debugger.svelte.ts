// The real engine's side of the app: the debugging session of src/session (recording, position,
// breakpoints with conditions, what-if edits, watches) over the app's Python engine
// (engineConnection.svelte.ts), made reactive, with what only the page has: the program changed
// since it ran, limits the user raises, a run stopped by the user, the frame picked in the Call
// stack. Every move is reported as a DebuggerEvent (the model follows the debugger through them)
// and to `onMove` (the share link follows the position).

import { isInverse, type Action } from '../core/actions';
import { asksForInput, inputLineStop, inputWaitStop, withInputLine } from '../core/liveInput';
import type { BreakCondition } from '../core/navigator';
import type { Position, Recording } from '../core/trace';
import { EditError, type Edit } from '../core/whatIf';
import { EngineError } from '../realEngine/browser/client';
import type { RecordOptions } from '../realEngine/recordOptions';
import type { ExceptionMode } from '../session/exceptionStops';
import { LiveSession, type LiveOptions } from '../session/liveSession';
import type { ErrorMarker, FrameView, WatchRow } from './debuggerViews';
import { EngineConnection, type AppEngine, type ConnectEngine } from './engineConnection.svelte';
import type { Program } from './program.svelte';
import { DEFAULT_LIMITS, raisedLimits, type RunLimits } from './runEnd';
import { StopView } from './stopView.svelte';
import { COMMANDS } from './commands';
import { RECORD_OPTIONS, type Command, type CommandKind, type DebuggerEvent } from './debuggerCommands';

export type { AppEngine, Command, CommandKind, ConnectEngine, DebuggerEvent, ErrorMarker, FrameView, WatchRow };
export { RECORD_OPTIONS };

export class Debugger {
  readonly connection = new EngineConnection();
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
  /** What the current session was recorded from (the program as it was then). */
  private recorded = $state.raw<{ source: string; call: string; input: string; watch: readonly string[] } | null>(null);
  /** The program (code and call) whose run was stopped by restarting Python: it runs again only
   * when the user asks (Restart), never by a step. */
  private halted = $state.raw<{ source: string; call: string; by: 'user' | 'limit' } | null>(null);
  /** The user pressed Stop during the current run. */
  private stopRequested = false;
  /** Where exceptions stop the forward moves (the switch beside the breakpoints' legend). */
  exceptions = $state<ExceptionMode>('none');
  /** A move that waits for a line of input (input() typed live): the recording, where the move
   * started and what it was. The debugger stands meanwhile at the line that calls input(), and
   * the typed line lets the same move go on (answerInput). */
  private inputWait = $state.raw<{ recording: Recording; from: Position; command: Command } | null>(null);

  /** Told of every move (the neural engine follows the debugger through this). */
  onEvent: ((ev: DebuggerEvent) => void) | null = null;
  /** Told when the position changed (the share link follows it). */
  onMove: (() => void) | null = null;

  private live: LiveSession | null = null;
  private readonly program: Program;
  /** What the panels show of the current stop. */
  readonly view: StopView;

  constructor(program: Program) {
    this.program = program;
    const debug = this;
    // getters: the view's deriveds read this store's state as it changes
    this.view = new StopView({
      get recording() { return debug.recording; },
      get position() { return debug.position; },
      get watches() { return program.watches; },
      get recordedWatches() { return debug.recorded?.watch ?? []; },
    });
  }

  get engine() {
    return this.connection.status;
  }

  /** The code, the call or the input changed since the recording (or there is none). */
  readonly dirty = $derived.by(() => {
    const r = this.recorded;
    return this.recording === null || r === null || this.program.source !== r.source || this.program.call !== r.call || this.program.input !== r.input;
  });
  /** The limits "Raise the limit" would give the run shown (null: it was not cut off by a limit,
   * the user stopped it, or the limit is at its ceiling). */
  readonly raisable = $derived.by<RunLimits | null>(() => {
    const cut = this.view.cutOff;
    if (!cut || cut.byUser || this.dirty) return null;
    return raisedLimits(this.recordedLimits, cut.status);
  });
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
    for (const { command } of COMMANDS) out[command.kind] = this.canDo(command);
    // Run to line: where Continue can go (PageSession.run asks canDo for the line itself).
    out.breakpoint = out.continue;
    return out;
  });

  /** The debugging session of the current recording: a restore checks that it is still the one it made. */
  get session(): LiveSession | null {
    return this.live;
  }

  /** The engine's questions (null until it was started). */
  get host(): AppEngine | null {
    return this.connection.host;
  }

  /** Whether `command` would do something now: run the program (Restart, or a step after the code
   * changed), or move the debugger. */
  canDo(command: Command): boolean {
    if (this.engine !== 'ready' || this.busy) return false;
    if (command.kind === 'restart') return true;
    const live = this.live;
    if (this.dirty || !live) {
      // A step records the changed program first and then stands at its first event.
      return !backwards(command) && this.haltedBy === null && this.program.source.trim() !== '';
    }
    return live.canDo(command, this.program.breakpoints);
  }

  /** The user's Stop while Python runs. */
  stop(): void {
    if (!this.busy) return;
    this.stopRequested = true;
    this.connection.stop();
  }

  /** Starts the Python engine; resolves false (with the message shown) when it cannot load. */
  async start(connect?: ConnectEngine): Promise<boolean> {
    const ok = await this.connection.start(connect);
    if (!ok) this.error = this.connection.loadError;
    return ok;
  }

  /** Records the current program; false when no recording came back, or when `wanted` says the
   * answer came too late (a newer link was loaded meanwhile): it is then dropped. */
  async record(wanted: () => boolean = () => true, replay = false): Promise<boolean> {
    const host = this.host;
    if (!host) return false;
    const { source, call, input } = this.program;
    const limits = this.limits;
    this.busy = true;
    this.error = null;
    this.stopRequested = false;
    this.halted = null;
    this.inputWait = null;
    try {
      const options = this.sessionOptions();
      const rec = this.stoppedByUser(await host.record(source, call, LiveSession.firstRunOptions(options)));
      if (!wanted()) return false;
      this.recorded = { source, call, input, watch: options.watch ?? [] };
      this.recordedLimits = limits;
      this.live = LiveSession.fromRecording(host, source, call, rec, options);
      this.edits = [];
      this.view.restart();
      this.recording = rec;
      this.moveTo(this.live.position);
      this.emit({ kind: 'recorded', recording: rec, position: this.position, breakpoints: [...this.program.breakpoints], ...(replay ? { replay } : {}) });
      return true;
    } catch (err) {
      if (!wanted()) return false;
      this.clear();
      this.emit({ kind: 'cleared' });
      this.error = err instanceof EngineError ? err.message : `Something went wrong: ${err instanceof Error ? err.message : String(err)}`;
      // A run Python was restarted for, or whose answer could not be trusted, runs again only
      // when the user asks (Restart), never by a step.
      if (err instanceof EngineError && (err.kind === 'stopped' || err.kind === 'untrusted')) this.halted = { source, call, by: this.stopRequested ? 'user' : 'limit' };
      this.connection.noteStopped(err);
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
    if (atExit && this.recording) await this.jump(this.recording.events.length);
    return true;
  }

  /** The program waits at this stop for a line of input, as a terminal would: a move reached the
   * input() that found no line (input() typed live). */
  readonly waitingForInput = $derived.by<boolean>(() => {
    const wait = this.inputWait;
    return wait !== null && wait.recording === this.recording && !this.dirty;
  });

  /** The wait in force (a new object for each move that waits: the field takes the focus again). */
  get inputWaitKey(): object | null {
    return this.waitingForInput ? this.inputWait : null;
  }

  /** The prompt of the input() that found no line, where a move waits for it or where the
   * debugger stands past it (the timeline); null: the program asks for nothing here, or it
   * changed since it ran. */
  readonly inputAsked = $derived.by<string | null>(() => {
    const rec = this.recording;
    if (!rec || this.dirty || !rec.input_wanted) return null;
    return this.waitingForInput || asksForInput(rec, this.position) ? rec.input_wanted.prompt : null;
  });

  /** input() typed live: the line joins the program's input (the share link replays it), the
   * program runs again with it, and the move that waited goes on from where it started, as if the
   * line had been typed in time: it ends where that move ends (Step over a line that calls a
   * function that asks: after the line). Python runs each program from its start, so the stops
   * before input() are the same. From a stop past the input() (the timeline), the debugger steps
   * over the line that called it. */
  async answerInput(line: string): Promise<boolean> {
    const rec = this.recording;
    const wanted = rec?.input_wanted;
    if (!rec || !wanted || this.inputAsked === null || this.busy) return false;
    const wait = this.waitingForInput ? this.inputWait : null;
    const from = wait ? wait.from : inputLineStop(rec, wanted.at);
    const command: Command = wait ? wait.command : { kind: 'step_over' };
    this.program.setInput(withInputLine(this.program.input, line));
    if (!(await this.record(undefined, true))) return false;
    if (from >= -1 && from !== this.position) await this.jump(from);
    await this.run(command);
    return true;
  }

  /** Forgets the recording (a link shows other code). */
  clear(): void {
    this.recording = null;
    this.live = null;
    this.edits = [];
    this.recorded = null;
    this.error = null;
  }

  /** A toolbar button, a key or the editor's "Run to line". */
  async run(command: Command): Promise<void> {
    if (command.kind === 'restart' || this.dirty || !this.live) {
      const ok = await this.record();
      if (!ok) return;
      // A fresh recording stands at its first event; Continue (and Run to line) then go on.
      if (command.kind !== 'continue' && command.kind !== 'breakpoint') return;
    }
    const live = this.live;
    if (!live) return;
    live.setBreakLines(this.program.breakpoints);
    live.setExceptions(this.exceptions);
    // Stepping back to before an edit returns to the recording it was made in.
    const from = live.position;
    const recording = live.recording;
    await live.move(command);
    // A forward move that reaches the input() whose line is missing waits at the line that calls
    // it, as a terminal does (never at the EOFError a run without the line raises).
    const wait = backwards(command) || live.recording !== recording ? null : inputWaitStop(recording, from, live.position);
    if (wait !== null) await live.jump(wait);
    // (a forward move while it waits waits again, as the one now asked for: a new wait, which
    // gives the Program input field the focus again)
    this.inputWait = wait !== null ? { recording, from, command } : null;
    // Nothing moved (a forward step at the exit, a step back at the entry): nothing to report,
    // so nothing is scored.
    if (live.position === from && live.recording === recording) return;
    this.adopt(live);
    this.moveTo(live.position);
    // Reverse continue, an exception stop and a move waiting for input are no single model
    // action: the model starts again from the stop, as after a jump on the timeline.
    if (command.kind === 'inv_continue' || live.atExceptionStop || wait !== null) this.emitJump();
    else if (this.recording) this.emit({ kind: 'action', recording: this.recording, action: command, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  /** Whether the last move stopped where an exception was raised (before its own stop). */
  get atExceptionStop(): boolean {
    return this.live?.atExceptionStop ?? false;
  }

  /** The timeline: any position, as if stepped there. */
  async jump(pos: Position): Promise<void> {
    const live = this.live;
    if (!live || this.busy) return;
    this.inputWait = null;
    await live.jump(pos);
    this.adopt(live);
    this.moveTo(live.position);
    this.emitJump();
  }

  /** A link's position (or, with null, where its edits left the debugger), in the session `live`
   * that the link's restore made. */
  async restoreTo(live: LiveSession, pos: Position | null): Promise<void> {
    if (pos !== null) await live.jump(pos);
    this.live = live;
    this.adopt(live);
    // The user never saw the stops before a restored one (a reload): nothing is "changed" there.
    this.view.restart();
    this.moveTo(live.position);
    this.emitJump();
  }

  /** What-if: `name = expr` at the current stop; throws (the session unchanged) when it cannot be made. */
  async edit(name: string, expr: string): Promise<void> {
    const live = this.live;
    if (!live || !this.recording) throw new EditError('there is no recording to edit');
    await live.edit(name, expr);
    this.adopt(live);
    this.moveTo(live.position);
    this.emit({ kind: 'edit', recording: live.recording, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  /** Shows what `live` holds now, unless another recording took its place meanwhile. */
  adoptIfCurrent(live: LiveSession): void {
    if (this.live === live) this.adopt(live);
  }

  /** Whether a change of conditions or watches must run the program again now (else the next
   * recording picks it up). */
  get canRerecord(): boolean {
    return this.live !== null && !this.dirty && this.engine === 'ready';
  }

  /** The condition of a breakpoint line in the current session. */
  conditionOf(line: number): BreakCondition | undefined {
    return this.live?.conditionOf(line);
  }

  /** The program's breakpoints and conditions into the session: the program runs again when a
   * condition changed; throws (nothing changed) when that run fails. */
  async applyConditions(): Promise<void> {
    const live = this.live;
    if (!live) return;
    await live.setBreakpoints(this.program.breakpoints, conditionMap(this.program.conditions));
    this.afterRerecord(live);
  }

  /** The program's runnable watches into the session (it runs again); throws (nothing changed)
   * when that run fails. */
  async applyWatches(): Promise<void> {
    const live = this.live;
    if (!live) return;
    const watch = this.program.runnableWatches;
    await live.setWatches(watch);
    if (this.recorded) this.recorded = { ...this.recorded, watch };
    this.afterRerecord(live);
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

  /** The options of a session of the current program (the limits, the input, the breakpoints with
   * their conditions, the watch expressions that parse: event.watch follows their order). */
  sessionOptions(): LiveOptions & { watch: string[] } {
    const limits: RecordOptions = { ...RECORD_OPTIONS, ...this.limits, stdin: this.program.input };
    return {
      engine: 'real',
      breakpoints: this.program.breakpoints,
      conditions: conditionMap(this.program.conditions),
      limits,
      watch: this.program.runnableWatches,
      exceptions: this.exceptions,
    };
  }

  /** A run the user stopped (Python interrupted) ends as a timeout: say who stopped it. */
  private stoppedByUser(rec: Recording): Recording {
    if (!this.stopRequested || rec.exit.status !== 'timeout') return rec;
    return { ...rec, exit: { ...rec.exit, message: 'Stopped as you asked' } };
  }

  private afterRerecord(live: LiveSession): void {
    this.adopt(live);
    this.position = live.position;
    this.emit({ kind: 'rerecorded', recording: live.recording });
  }

  /** Takes the session's recording (it changes with edits and with stepping back across one). */
  private adopt(live: LiveSession): void {
    if (live.recording !== this.recording) this.recording = live.recording;
    if (live.edits !== this.edits) this.edits = live.edits;
  }

  private moveTo(pos: Position): void {
    this.view.movedTo(this.recording, pos);
    this.position = pos;
    this.onMove?.();
  }

  private emitJump(): void {
    if (this.recording) this.emit({ kind: 'jump', recording: this.recording, position: this.position, breakpoints: [...this.program.breakpoints] });
  }

  private emit(ev: DebuggerEvent): void {
    this.onEvent?.(ev);
  }
}

function conditionMap(conditions: Readonly<Record<number, BreakCondition>>): Map<number, BreakCondition> {
  return new Map(Object.entries(conditions).map(([line, c]) => [Number(line), c]));
}

/** A move back through the recording (never the first move of a fresh run). */
function backwards(command: Command): boolean {
  return command.kind === 'inv_continue' || (command.kind !== 'restart' && isInverse(command));
}
