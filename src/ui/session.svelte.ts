// The one store of the app: the program, the recording, where the debugger stands, and the
// engine's state. Components read its fields and call its methods; only this module talks to the
// engine.

import type { Action } from '../core/actions';
import { Navigator } from '../core/navigator';
import { changedLocals, stackAt, stateAt, type DebugState, type StackFrame } from '../core/state';
import type { Position, Recording } from '../core/trace';
import { EngineClient, EngineError, type EngineInfo } from '../runtime/client';
import { EXAMPLES, type Example } from './examples';
import type { DebuggerEvent } from './neural.svelte';
import { decodeHash, encodeHash } from './shareLink';
import { abnormalEnd, describeStop } from './status';

/** What a toolbar button does: a debugger action, or re-running the program. */
export type Command = Action | { kind: 'restart' };

export const RECORD_OPTIONS = { maxEvents: 10_000, maxRepr: 1_000, timeLimit: 8 } as const;

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

  /** A transient note next to the Share button. */
  shareNote = $state('');

  /** Told of every move (the neural engine follows the debugger through this). */
  onDebugger: ((ev: DebuggerEvent) => void) | null = null;

  private nav: Navigator | null = null;
  private visited: Position[] = [];
  private client: EngineClient | null = null;
  private lastHash = '';
  private hashSeq = 0;
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
    return (this.position < this.recording.events.length ? abnormalEnd(this.recording) : null) ?? isolation;
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
    this.scheduleHash();
  }

  /** The editor moved breakpoints along with edited lines. */
  setBreakpoints(lines: number[]): void {
    const next = [...new Set(lines)].sort((a, b) => a - b);
    if (next.join(',') === this.breakpoints.join(',')) return;
    this.breakpoints = next;
    this.scheduleHash();
  }

  /** A toolbar button, a key or the editor's "Run to line". */
  async run(command: Command): Promise<void> {
    if (!this.canAct) return;
    if (command.kind === 'restart' || this.dirty || !this.nav) {
      const ok = await this.record();
      if (!ok) return;
      // A fresh recording stands at its first event; Continue (and Run to line) then go on.
      if (command.kind !== 'continue' && command.kind !== 'breakpoint') return;
    }
    const nav = this.nav;
    if (!nav) return;
    // Breakpoints set while stopped behave as pdb's `break`: see Navigator.addBreakpoint.
    for (const line of [...nav.breakpoints]) if (!this.breakpoints.includes(line)) nav.removeBreakpoint(line);
    for (const line of this.breakpoints) if (!nav.breakpoints.has(line)) nav.addBreakpoint(line);
    this.moveTo(nav.apply(command));
    if (this.recording) this.onDebugger?.({ kind: 'action', recording: this.recording, action: command, position: this.position, breakpoints: [...this.breakpoints] });
  }

  /** Runs the recorded program with another call (Guess inputs), leaving the debugger as it is. */
  async checkCall(call: string): Promise<Recording> {
    if (!this.client) throw new Error('the Python engine is not loaded');
    return this.client.record(this.recordedSource ?? this.source, call, { ...RECORD_OPTIONS, maxEvents: 20_000, timeLimit: 5 });
  }

  /** The timeline: any position, as if stepped there. */
  jump(pos: Position): void {
    if (!this.nav || this.busy) return;
    this.nav.jump(pos);
    this.moveTo(this.nav.position);
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
      const rec = await client.record(source, call, { ...RECORD_OPTIONS });
      this.recordedSource = source;
      this.recordedCall = call;
      this.nav = new Navigator(rec, this.breakpoints);
      this.visited = [];
      this.compareWith = -2;
      this.recording = rec;
      this.moveTo(this.nav.position);
      this.onDebugger?.({ kind: 'recorded', recording: rec, position: this.position, breakpoints: [...this.breakpoints] });
      return true;
    } catch (err) {
      this.recording = null;
      this.nav = null;
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
    this.lastHash = hash;
    this.source = shared.source;
    this.call = shared.call;
    this.breakpoints = shared.breakpoints;
    this.exampleId = EXAMPLES.find((e) => e.source === shared.source && e.call === shared.call)?.id ?? '';
    this.restorePosition = shared.position;
    this.recording = null;
    this.nav = null;
    this.recordedSource = null;
    this.error = null;
    // A gallery example, call included, is the app's own code: it may run without asking.
    this.sharedPending = this.exampleId === '';
    if (!this.sharedPending && this.engine === 'ready') void this.recordAndRestore();
    return true;
  }

  /** Records, then goes to the position that came with a link (if any). */
  private async recordAndRestore(): Promise<void> {
    const ok = await this.record();
    const pos = this.restorePosition;
    this.restorePosition = null;
    if (ok && this.nav && pos !== null) {
      this.nav.jump(pos);
      this.moveTo(this.nav.position);
      this.emitJump();
    }
  }

  private scheduleHash(delay = 400): void {
    if (this.sharedPending) return;
    clearTimeout(this.hashTimer);
    this.hashTimer = setTimeout(() => void this.writeHash(), delay);
  }

  private async writeHash(): Promise<void> {
    if (this.sharedPending) return;
    clearTimeout(this.hashTimer);
    const seq = ++this.hashSeq;
    const hash = await encodeHash({
      source: this.source,
      call: this.call,
      breakpoints: [...this.breakpoints],
      position: this.dirty ? 0 : this.position,
    });
    if (seq !== this.hashSeq || hash === location.hash) return;
    this.lastHash = hash;
    history.replaceState(history.state, '', hash);
  }
}

export const session = new Session();
