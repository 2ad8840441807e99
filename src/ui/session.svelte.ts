// The one store of the app: the program, the recording, where the debugger stands, and the
// engine's state. Components read its fields and call its methods; only this module talks to the
// engine.

import type { Action } from '../core/actions';
import { DebugSession } from '../core/debugSession';
import type { BreakCondition } from '../core/navigator';
import { changedLocals, stackAt, stateAt, type DebugState, type StackFrame } from '../core/state';
import type { Position, Recording, WatchValue } from '../core/trace';
import { EditError, type Edit } from '../core/whatIf';
import { EngineClient, EngineError, type EngineInfo, type EvaluationResult, type RecordOptions } from '../realEngine/client';
import { EXAMPLES, type Example } from './examples';
import type { DebuggerEvent } from './neural.svelte';
import { decodeHash, encodeHash } from './shareLink';
import { abnormalEnd, describeStop } from './status';

/** What a toolbar button does: a debugger action, or re-running the program. */
export type Command = Action | { kind: 'restart' };

export const RECORD_OPTIONS = { maxEvents: 10_000, maxRepr: 1_000, timeLimit: 8 } as const;

/** A watch expression; `error` when it is not a Python expression (it is then left out of runs). */
export interface WatchItem {
  expr: string;
  error?: string;
}

/** A watch row: the real value at the current stop (null at the entry and the exit). */
export interface WatchRow {
  expr: string;
  real: WatchValue | null;
}

export interface SyntaxMarker {
  line: number;
  column: number;
  message: string;
}

export class Session {
  // The program.
  source = $state('');
  call = $state('');
  exampleId = $state('');
  breakpoints = $state<number[]>([]);
  /** Conditions and hit counts of breakpoints, by line. */
  conditions = $state<Record<number, BreakCondition>>({});
  /** Watch expressions, in the order they were added. */
  watches = $state<WatchItem[]>([]);

  // The engine.
  engine = $state<'loading' | 'ready' | 'failed'>('loading');
  engineInfo = $state.raw<EngineInfo | null>(null);
  busy = $state(false);
  /** An engine failure, shown in the status line until the next recording. */
  error = $state<string | null>(null);

  // The recording and where the debugger stands in it.
  recording = $state.raw<Recording | null>(null);
  position = $state<Position>(0);
  /** The previous stop in the same frame: what "changed" values are compared with. */
  private compareWith = $state<Position>(-2);
  private recordedSource = $state<string | null>(null);
  private recordedCall = $state<string | null>(null);

  /** Code that arrived by link and waits for the user's consent to run. */
  sharedPending = $state(false);
  /** The position a link asked for, applied after the next recording. */
  private restorePosition: Position | null = null;
  /** The what-if edits a link carried, made again after the next recording. */
  private restoreEdits: readonly Edit[] = [];

  /** A what-if message (a bad edit, condition or watch), shown as an alert until the next action. */
  whatIfError = $state<string | null>(null);
  /** The edits the current recording was made with. */
  edits = $state.raw<readonly Edit[]>([]);
  /** The watch expressions the current recording was made with (event.watch follows them). */
  private recordedWatch = $state.raw<string[]>([]);

  /** A transient note next to the Share button. */
  shareNote = $state('');

  /** Told of every move (the neural engine follows the debugger through this). */
  onDebugger: ((ev: DebuggerEvent) => void) | null = null;

  private debug: DebugSession | null = null;
  private visited: Position[] = [];
  private client: EngineClient | null = null;
  private lastHash = '';
  private hashSeq = 0;
  /** Counts the links loaded: a restore made for an older one stops at its next await. */
  private loadSeq = 0;
  /** The restore in flight (start() and "Run shared code" may both ask for it). */
  private restoring: { seq: number; done: Promise<void> } | null = null;
  /** While a link is restored, the hash keeps what the link carried. */
  private holdHash = false;
  private hashTimer: ReturnType<typeof setTimeout> | undefined;

  readonly dirty = $derived(
    this.recording === null || this.source !== this.recordedSource || this.call !== this.recordedCall,
  );
  readonly state = $derived<DebugState | null>(this.recording ? stateAt(this.recording, this.position) : null);
  readonly stack = $derived<StackFrame[]>(this.recording ? stackAt(this.recording, this.position) : []);
  readonly changed = $derived<Set<string>>(
    this.recording ? changedLocals(this.recording, this.position, this.compareWith) : new Set(),
  );
  readonly canAct = $derived(this.engine === 'ready' && !this.busy && !this.sharedPending);

  /** The watch rows at the current stop. */
  readonly watchRows = $derived.by<WatchRow[]>(() => {
    const rec = this.recording;
    const pos = this.position;
    const e = rec && pos >= 0 && pos < rec.events.length ? rec.events[pos]! : null;
    return this.watches.map((w) => {
      if (w.error) return { expr: w.expr, real: { error: w.error } };
      const i = this.recordedWatch.indexOf(w.expr);
      return { expr: w.expr, real: e && i >= 0 ? (e.watch?.[i] ?? null) : null };
    });
  });
  readonly lastPosition = $derived(this.recording ? this.recording.events.length : 0);

  readonly syntaxMarker = $derived.by<SyntaxMarker | null>(() => {
    const exit = this.recording?.exit;
    if (!exit || exit.status !== 'syntax_error') return null;
    return { line: exit.line ?? 1, column: exit.column ?? 1, message: exit.message ?? 'SyntaxError' };
  });

  /** The line the editor highlights, with the kind of stop. */
  readonly currentLine = $derived.by<{ line: number; kind: 'line' | 'return' | 'exception' } | null>(() => {
    const s = this.state;
    if (!s || s.event === 'entry' || s.event === 'exit' || s.line < 1) return null;
    return { line: s.line, kind: s.event === 'exception' || s.raising ? 'exception' : s.event === 'return' ? 'return' : 'line' };
  });

  readonly statusText = $derived.by<string>(() => {
    if (this.engine === 'failed') return this.error ?? 'The Python engine could not be loaded. Reload the page to try again.';
    if (this.error) return this.engine === 'loading' ? `${this.error} Restarting Python…` : this.error;
    if (this.engine === 'loading') return 'Loading Python (Pyodide)…';
    if (this.busy) return 'Running the program…';
    if (this.sharedPending) return 'Shared code is shown but has not run. Press "Run shared code" to run it.';
    if (!this.recording || !this.state) return 'Press Step into to start.';
    return describeStop(this.recording, this.state);
  });

  readonly statusNote = $derived.by<string | null>(() => {
    // Without cross-origin isolation (a host without COOP/COEP and no service worker to add them)
    // there is no SharedArrayBuffer: no interrupt buffer, one thread for the model.
    const isolation =
      this.engineInfo && !this.engineInfo.interruptible
        ? 'This page is not cross-origin isolated: a long computation is stopped by restarting Python, and the model runs on one thread.'
        : null;
    if (this.engine !== 'ready' || this.busy || this.sharedPending || !this.recording) return isolation;
    if (this.dirty) return 'The code or the call changed: the next action runs the program again.';
    return (this.position < this.recording.events.length ? abnormalEnd(this.recording) : null) ?? this.editsNote ?? this.conditionNote ?? isolation;
  });

  /** The edits in force, in words. */
  private readonly editsNote = $derived.by<string | null>(() => {
    if (this.edits.length === 0) return null;
    const list = this.edits.map((e) => `${e.name} = ${e.expr}`).join(', ');
    return `What if: ${list} (step back before the edit to undo it).`;
  });

  /** A condition that raised where the debugger stopped (bdb stops then, and so does ndb). */
  private readonly conditionNote = $derived.by<string | null>(() => {
    const rec = this.recording;
    const e = rec && this.position >= 0 ? rec.events[this.position] : undefined;
    if (!e?.hit_error || !this.breakpoints.includes(e.line)) return null;
    return `The condition of the breakpoint at line ${e.line} raised ${e.hit_error}: stopped here, as pdb does.`;
  });

  readonly statusKind = $derived.by<'info' | 'error' | 'done'>(() => {
    if (this.error || this.engine === 'failed') return 'error';
    const s = this.state;
    if (!this.busy && s?.event === 'exit') return s.status === 'normal' ? 'done' : 'error';
    return 'info';
  });

  /** Loads the app's initial program (from the URL hash or the first example) and the engine. */
  async start(client: EngineClient = new EngineClient({ onReady: (info) => this.onEngineReady(info) })): Promise<void> {
    this.client = client;
    const fromLink = await this.loadFromHash(location.hash);
    if (!fromLink) this.selectExample(EXAMPLES[0]?.id ?? '', false);
    window.addEventListener('hashchange', () => {
      if (location.hash !== this.lastHash) void this.loadFromHash(location.hash);
    });
    try {
      await client.ready;
    } catch (err) {
      this.engine = 'failed';
      this.error = err instanceof Error ? err.message : String(err);
      return;
    }
    if (!this.sharedPending && this.recording === null) await this.recordAndRestore();
  }

  private onEngineReady(info: EngineInfo): void {
    // For `npm run bench:web`: the time from navigation to the first usable real engine.
    if (performance.getEntriesByName('ndb:engine-ready').length === 0) performance.mark('ndb:engine-ready');
    this.engineInfo = info;
    this.engine = 'ready';
  }

  selectExample(id: string, run = true): void {
    const ex: Example | undefined = EXAMPLES.find((e) => e.id === id);
    if (!ex) return;
    this.exampleId = ex.id;
    this.source = ex.source;
    this.call = ex.call;
    this.breakpoints = [];
    this.conditions = {};
    this.sharedPending = false;
    this.error = null;
    this.scheduleHash();
    if (run && this.engine === 'ready') void this.record();
  }

  setSource(text: string): void {
    if (text === this.source) return;
    this.source = text;
    this.exampleId = '';
    this.scheduleHash();
  }

  setCall(text: string): void {
    this.call = text;
    this.scheduleHash();
  }

  toggleBreakpoint(line: number): void {
    this.breakpoints = this.breakpoints.includes(line)
      ? this.breakpoints.filter((l) => l !== line)
      : [...this.breakpoints, line].sort((a, b) => a - b);
    this.dropStaleConditions();
    this.scheduleHash();
  }

  /** The editor moved breakpoints along with edited lines. */
  setBreakpoints(lines: number[]): void {
    const next = [...new Set(lines)].sort((a, b) => a - b);
    if (next.join(',') === this.breakpoints.join(',')) return;
    this.breakpoints = next;
    this.dropStaleConditions();
    this.scheduleHash();
  }

  /** A removed breakpoint takes its condition with it. */
  private dropStaleConditions(): void {
    const lines = Object.keys(this.conditions).map(Number);
    if (lines.every((l) => this.breakpoints.includes(l))) return;
    const next: Record<number, BreakCondition> = {};
    for (const l of lines) if (this.breakpoints.includes(l)) next[l] = this.conditions[l]!;
    for (const l of lines) if (!this.breakpoints.includes(l)) this.debug?.navigator.setCondition(l, undefined);
    this.conditions = next;
  }

  /** A toolbar button, a key or the editor's "Run to line". */
  async run(command: Command): Promise<void> {
    if (!this.canAct) return;
    this.whatIfError = null;
    if (command.kind === 'restart' || this.dirty || !this.debug) {
      const ok = await this.record();
      if (!ok) return;
      // A fresh recording stands at its first event; Continue (and Run to line) then go on.
      if (command.kind !== 'continue' && command.kind !== 'breakpoint') return;
    }
    const debug = this.debug;
    if (!debug) return;
    this.syncBreakpoints(debug);
    // Stepping back to before an edit returns to the recording it was made in.
    const pos = debug.apply(command);
    this.adopt(debug);
    this.moveTo(pos);
    if (this.recording) this.onDebugger?.({ kind: 'action', recording: this.recording, action: command, position: this.position, breakpoints: [...this.breakpoints] });
  }

  /** Breakpoints set while stopped behave as pdb's `break`: see Navigator.addBreakpoint. */
  private syncBreakpoints(debug: DebugSession): void {
    const nav = debug.navigator;
    for (const line of [...nav.breakpoints]) if (!this.breakpoints.includes(line)) nav.removeBreakpoint(line);
    for (const line of this.breakpoints) if (!nav.breakpoints.has(line)) nav.addBreakpoint(line);
  }

  /** Takes the debug session's recording (it changes with edits and with stepping back across one). */
  private adopt(debug: DebugSession): void {
    if (debug.recording !== this.recording) this.recording = debug.recording;
    if (debug.history.edits !== this.edits) this.edits = debug.history.edits;
  }

  /** What-if: `name = expr` at the current stop. The program runs again with the assignment made
   * in the live frame; a bad edit leaves the session as it was, with a message. */
  async edit(name: string, expr: string): Promise<boolean> {
    const debug = this.debug;
    if (!this.canAct || !debug || !this.recording) return false;
    this.whatIfError = null;
    if (this.dirty) {
      this.whatIfError = 'The code or the call changed since the program ran: press Restart before editing a value.';
      return false;
    }
    this.busy = true;
    try {
      await debug.edit(name, expr, (edits) => this.rerun(edits));
      this.adopt(debug);
      this.moveTo(debug.position);
      this.onDebugger?.({ kind: 'edit', recording: debug.recording, position: this.position, breakpoints: [...this.breakpoints] });
      return true;
    } catch (err) {
      this.failWhatIf('The edit could not be made', err);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** An attempt to edit where nothing can be edited (the entry, the exit, a return value). */
  cannotEdit(reason: string): void {
    this.whatIfError = `The edit could not be made: ${reason}`;
  }

  /** Sets (or with an empty condition and a hit count ≤ 1, clears) a breakpoint's condition; the
   * program runs again so that the recording knows where it holds. False (with a message) when
   * the condition is not a Python expression. */
  async setCondition(line: number, condition: BreakCondition | undefined): Promise<boolean> {
    if (this.busy || this.sharedPending) return false;
    const ok = await this.whileBusy(() => this.applyCondition(line, condition));
    this.scheduleHash();
    return ok;
  }

  private async applyCondition(line: number, condition: BreakCondition | undefined): Promise<boolean> {
    this.whatIfError = null;
    const text = condition?.condition?.trim() ?? '';
    const hitCount = condition?.hitCount !== undefined && Number.isFinite(condition.hitCount) ? Math.max(1, Math.floor(condition.hitCount)) : 1;
    const next: BreakCondition | undefined = text || hitCount > 1 ? { ...(text ? { condition: text } : {}), ...(hitCount > 1 ? { hitCount } : {}) } : undefined;
    if (text) {
      const bad = await this.syntaxError(text);
      if (bad) {
        this.whatIfError = `The condition \`${text}\` is not a Python expression: ${bad}`;
        return false;
      }
    }
    const conditions = { ...this.conditions };
    if (next) conditions[line] = next;
    else delete conditions[line];
    if (next && !this.breakpoints.includes(line)) {
      this.breakpoints = [...this.breakpoints, line].sort((a, b) => a - b);
      this.scheduleHash();
    }
    const debug = this.debug;
    const before = this.conditions;
    this.conditions = conditions;
    if (!debug || this.dirty || this.engine !== 'ready') return true;
    const old = debug.navigator.conditionOf(line);
    debug.navigator.setCondition(line, next);
    const ok = await this.rerecord(debug, 'The condition could not be set');
    if (!ok) {
      debug.navigator.setCondition(line, old);
      this.conditions = before;
    }
    return ok;
  }

  /** Adds a watch expression; the program runs again to evaluate it at every stop. */
  async addWatch(expr: string): Promise<boolean> {
    const text = expr.trim();
    if (!text || this.busy || this.sharedPending) return false;
    const ok = await this.whileBusy(() => this.addWatchNow(text));
    this.scheduleHash();
    return ok;
  }

  private async addWatchNow(text: string): Promise<boolean> {
    this.whatIfError = null;
    if (this.watches.some((w) => w.expr === text)) {
      this.whatIfError = `\`${text}\` is watched already.`;
      return false;
    }
    const bad = await this.syntaxError(text);
    if (bad) {
      // Kept in the list with its error, left out of the runs.
      this.watches = [...this.watches, { expr: text, error: `SyntaxError: ${bad}` }];
      return true;
    }
    const before = this.watches;
    this.watches = [...this.watches, { expr: text }];
    const debug = this.debug;
    if (!debug || this.dirty || this.engine !== 'ready') return true;
    const ok = await this.rerecord(debug, 'The watch expression could not be added');
    if (!ok) this.watches = before;
    return ok;
  }

  async removeWatch(expr: string): Promise<void> {
    if (this.busy || this.sharedPending) return;
    await this.whileBusy(() => this.removeWatchNow(expr));
    this.scheduleHash();
  }

  private async removeWatchNow(expr: string): Promise<void> {
    const item = this.watches.find((w) => w.expr === expr);
    if (!item) return;
    this.whatIfError = null;
    this.watches = this.watches.filter((w) => w !== item);
    const debug = this.debug;
    if (item.error || !debug || this.dirty || this.engine !== 'ready') return;
    await this.rerecord(debug, 'The watch expression could not be removed');
  }

  /** What a watch expression gives on a model's predicted locals (values.py). */
  async evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<EvaluationResult> {
    if (!this.client || this.engine !== 'ready') return { unknown: 'the Python engine is not ready' };
    return this.client.evaluate(expr, locals);
  }

  /** The SyntaxError message when `expr` is not a Python expression, else null. */
  private async syntaxError(expr: string): Promise<string | null> {
    if (!this.client || this.engine !== 'ready') return null;
    try {
      const r = await this.client.evaluate(expr, {});
      return 'error' in r && r.error.startsWith('SyntaxError') ? r.error.replace(/^SyntaxError:\s*/, '') : null;
    } catch {
      return null;
    }
  }

  /** Runs `task` with the busy state on (the toolbar waits; e2e tests wait for it too). */
  private async whileBusy<T>(task: () => Promise<T>): Promise<T> {
    this.busy = true;
    try {
      return await task();
    } finally {
      this.busy = false;
    }
  }

  /** Records the program again with the current edits, conditions and watches, at the same stop
   * (the caller holds the busy state). */
  private async rerecord(debug: DebugSession, what: string): Promise<boolean> {
    try {
      await debug.rerecord(async (edits) => {
        const rec = await this.rerun(edits);
        if (rec.exit.status === 'edit_error') throw new EditError(rec.exit.message ?? 'the program could not run with it');
        return rec;
      });
      this.adopt(debug);
      this.position = debug.position;
      this.onDebugger?.({ kind: 'rerecorded', recording: debug.recording });
      return true;
    } catch (err) {
      this.failWhatIf(what, err);
      return false;
    }
  }

  /** The program again, with these edits and the session's conditions and watches. */
  private async rerun(edits: readonly Edit[]): Promise<Recording> {
    const client = this.client;
    if (!client) throw new EngineError('The Python engine is not loaded.', 'engine');
    const { options, watch } = this.recordOptions(edits);
    const rec = await client.record(this.recordedSource ?? this.source, this.recordedCall ?? this.call, options);
    if (rec.exit.status !== 'edit_error') this.recordedWatch = watch;
    return rec;
  }

  /** What every run gets: the limits, the edits, the breakpoint conditions (line → Python
   * expression) and the watch expressions that parse (event.watch follows their order). */
  private recordOptions(edits: readonly Edit[]): { options: RecordOptions; watch: string[] } {
    const conditions: Record<number, string> = {};
    for (const [line, c] of Object.entries(this.conditions)) if (c.condition) conditions[Number(line)] = c.condition;
    const watch = this.watches.filter((w) => !w.error).map((w) => w.expr);
    return { options: { ...RECORD_OPTIONS, edits, conditions, watch }, watch };
  }

  private failWhatIf(what: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.whatIfError = `${what}: ${message}`;
    // The worker is being replaced: the buttons wait for the new one.
    if (err instanceof EngineError && err.kind === 'stopped') this.engine = 'loading';
  }

  /** Runs the recorded program with another call (Guess inputs), leaving the debugger as it is. */
  async checkCall(call: string): Promise<Recording> {
    if (!this.client) throw new Error('the Python engine is not loaded');
    return this.client.record(this.recordedSource ?? this.source, call, { ...RECORD_OPTIONS, maxEvents: 20_000, timeLimit: 5 });
  }

  /** The timeline: any position, as if stepped there. */
  jump(pos: Position): void {
    if (!this.debug || this.busy) return;
    this.whatIfError = null;
    this.debug.jump(pos);
    this.adopt(this.debug);
    this.moveTo(this.debug.position);
    this.emitJump();
  }

  private emitJump(): void {
    if (this.recording) this.onDebugger?.({ kind: 'jump', recording: this.recording, position: this.position, breakpoints: [...this.breakpoints] });
  }

  /** The notice's button: the user agrees to run code that came by link. */
  async runShared(): Promise<void> {
    if (!this.sharedPending) return;
    this.sharedPending = false;
    if (this.engine !== 'ready') {
      try {
        await this.client?.ready;
      } catch {
        return;
      }
    }
    await this.recordAndRestore();
  }

  /** Copies a link to this session; the note says whether it worked. */
  async share(): Promise<void> {
    this.shareNote = '';
    await this.writeHash();
    try {
      await navigator.clipboard.writeText(location.href);
      this.shareNote = 'Link copied';
    } catch {
      this.shareNote = 'Copy the link from the address bar';
    }
    const note = this.shareNote;
    setTimeout(() => {
      if (this.shareNote === note) this.shareNote = '';
    }, 4000);
  }

  /** Records the current program; false when no recording came back. */
  private async record(): Promise<boolean> {
    const client = this.client;
    if (!client) return false;
    const source = this.source;
    const call = this.call;
    this.busy = true;
    this.error = null;
    try {
      const { options, watch } = this.recordOptions([]);
      const rec = await client.record(source, call, options);
      this.recordedSource = source;
      this.recordedCall = call;
      this.recordedWatch = watch;
      const conditions = new Map<number, BreakCondition>();
      for (const [line, c] of Object.entries(this.conditions)) conditions.set(Number(line), c);
      this.debug = new DebugSession(rec, this.breakpoints, conditions);
      this.edits = [];
      this.visited = [];
      this.compareWith = -2;
      this.recording = rec;
      this.moveTo(this.debug.position);
      this.onDebugger?.({ kind: 'recorded', recording: rec, position: this.position, breakpoints: [...this.breakpoints] });
      return true;
    } catch (err) {
      this.recording = null;
      this.debug = null;
      this.edits = [];
      this.recordedSource = null;
      this.onDebugger?.({ kind: 'cleared' });
      this.error =
        err instanceof EngineError ? err.message : `Something went wrong: ${err instanceof Error ? err.message : String(err)}`;
      // The worker is being replaced: the buttons wait for the new one.
      if (err instanceof EngineError && err.kind === 'stopped') this.engine = 'loading';
      return false;
    } finally {
      this.busy = false;
    }
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
    this.scheduleHash(0);
  }

  private async loadFromHash(hash: string): Promise<boolean> {
    const shared = await decodeHash(hash);
    if (!shared) return false;
    this.loadSeq++;
    this.lastHash = hash;
    this.source = shared.source;
    this.call = shared.call;
    this.breakpoints = shared.breakpoints;
    this.conditions = shared.conditions;
    this.watches = shared.watches.map((expr) => ({ expr }));
    this.exampleId = EXAMPLES.find((e) => e.source === shared.source && e.call === shared.call)?.id ?? '';
    this.restorePosition = shared.position;
    this.restoreEdits = shared.edits;
    this.recording = null;
    this.debug = null;
    this.edits = [];
    this.recordedSource = null;
    this.error = null;
    this.whatIfError = null;
    // A gallery example, call included, is the app's own code: it may run without asking, unless
    // the link adds Python of its own (conditions, watches, edits).
    const addsPython = Object.keys(shared.conditions).length + shared.watches.length + shared.edits.length > 0;
    this.sharedPending = this.exampleId === '' || addsPython;
    if (!this.sharedPending && this.engine === 'ready') void this.recordAndRestore();
    return true;
  }

  /** Records, makes the edits and goes to the position that came with a link (if any). */
  private recordAndRestore(): Promise<void> {
    if (this.restoring?.seq === this.loadSeq) return this.restoring.done;
    const seq = this.loadSeq;
    const done = this.restore(seq).finally(() => {
      if (this.restoring?.seq === seq) this.restoring = null;
    });
    this.restoring = { seq, done };
    return done;
  }

  private async restore(seq: number): Promise<void> {
    // Taken before any await: a link loaded meanwhile keeps its own (and waits for consent).
    const pos = this.restorePosition;
    const edits = this.restoreEdits;
    this.restorePosition = null;
    this.restoreEdits = [];
    this.holdHash = true;
    try {
      await this.checkLinkedExpressions();
      if (seq !== this.loadSeq) return;
      const ok = await this.record();
      const debug = this.debug;
      if (!ok || !debug || seq !== this.loadSeq) return;
      if (edits.length > 0) await this.replayEdits(debug, edits, seq);
      if (seq !== this.loadSeq || this.debug !== debug) return;
      if (pos !== null || edits.length > 0) {
        if (pos !== null) debug.jump(pos);
        this.adopt(debug);
        this.moveTo(debug.position);
        this.emitJump();
      }
    } finally {
      this.holdHash = false;
      if (seq === this.loadSeq) this.scheduleHash(0);
    }
  }

  /** A link's edits, made again one by one where its sender made them; the first that fails stops
   * the replay with a message, and the ones before it stay in force. */
  private async replayEdits(debug: DebugSession, edits: readonly Edit[], seq: number): Promise<void> {
    this.busy = true;
    try {
      for (const e of edits) {
        if (seq !== this.loadSeq || this.debug !== debug) return;
        try {
          debug.jump(e.at);
          if (debug.position !== e.at) throw new EditError(`the program has no stop ${e.at}`);
          await debug.edit(e.name, e.expr, (all) => this.rerun(all));
        } catch (err) {
          this.failWhatIf(`The link's edit \`${e.name} = ${e.expr}\` could not be made`, err);
          return;
        }
      }
    } finally {
      if (this.debug === debug) this.adopt(debug);
      this.busy = false;
    }
  }

  /** Conditions and watches that came by link are checked before they run: a condition that is
   * not a Python expression is dropped (with a message), such a watch keeps its error. */
  private async checkLinkedExpressions(): Promise<void> {
    const dropped: string[] = [];
    const conditions = { ...this.conditions };
    for (const [line, c] of Object.entries(conditions)) {
      const bad = c.condition ? await this.syntaxError(c.condition) : null;
      if (bad) {
        delete conditions[Number(line)];
        dropped.push(`line ${line} (${bad})`);
      }
    }
    this.conditions = conditions;
    const watches: WatchItem[] = [];
    for (const w of this.watches) {
      const bad = w.error ? null : await this.syntaxError(w.expr);
      watches.push(bad ? { expr: w.expr, error: `SyntaxError: ${bad}` } : w);
    }
    this.watches = watches;
    if (dropped.length > 0) this.whatIfError = `Breakpoint conditions that are not Python expressions were dropped: ${dropped.join(', ')}`;
  }

  private scheduleHash(delay = 400): void {
    if (this.sharedPending || this.holdHash) return;
    clearTimeout(this.hashTimer);
    this.hashTimer = setTimeout(() => void this.writeHash(), delay);
  }

  private async writeHash(): Promise<void> {
    if (this.sharedPending || this.holdHash) return;
    clearTimeout(this.hashTimer);
    const seq = ++this.hashSeq;
    const hash = await encodeHash({
      source: this.source,
      call: this.call,
      breakpoints: [...this.breakpoints],
      position: this.dirty ? 0 : this.position,
      conditions: this.conditions,
      watches: this.watches.map((w) => w.expr),
      edits: this.dirty ? [] : [...this.edits],
    });
    if (seq !== this.hashSeq || hash === location.hash) return;
    this.lastHash = hash;
    history.replaceState(history.state, '', hash);
  }
}

export const session = new Session();
