// The debugging session the page shows, put together from its parts: the program (program.svelte.ts),
// the real engine's recording and navigation (debugger.svelte.ts), what-if edits, conditions and
// watches (whatIf.svelte.ts) and the share link (linkSync.svelte.ts). Its methods are the user's
// commands: each checks that the session can take it, hands it to its part, and lets the link
// follow. Made once per page (main.ts) and handed to the components by context (context.ts).

import type { BreakCondition } from '../core/navigator';
import type { EvaluationResult } from '../realEngine/browser/client';
import { Debugger, type Command, type CommandKind, type ConnectEngine } from './debugger.svelte';
import type { Example } from './examples';
import { LinkSync, type LinkEnvironment, type LinkHost } from './linkSync.svelte';
import { Program } from './program.svelte';
import { RunMark } from './runMark';
import { statusKind, statusNote, statusText, type StatusInput } from './status';
import { WhatIf } from './whatIf.svelte';

export interface SessionOptions {
  /** The gallery; the first example is shown when the page opens without a link. */
  examples: readonly Example[];
  link: LinkEnvironment;
}

export class PageSession {
  readonly program: Program;
  readonly debug: Debugger;
  readonly whatIf: WhatIf;
  readonly link: LinkSync;

  /** The page is an embed in a course page (`?embed`). */
  readonly embedded: boolean;

  constructor(options: SessionOptions) {
    this.embedded = options.link.embedded === true;
    this.program = new Program(options.examples);
    this.debug = new Debugger(this.program);
    this.whatIf = new WhatIf(this.program, this.debug);
    // Read before anything runs: whether the last page of this tab stopped during a run.
    const marks = options.link.runFlag ? new RunMark(options.link.runFlag) : null;
    this.debug.connection.runMark = marks;
    this.link = new LinkSync(options.link, this.linkHost(), marks);
    this.debug.onMove = () => this.link.schedule(0);
  }

  /** The debugger takes actions: Python is ready, nothing runs, no link waits for consent. */
  readonly canAct = $derived.by(() => this.debug.engine === 'ready' && !this.debug.busy && !this.link.sharedPending);

  /** Per toolbar command: whether its button is enabled (it would do something now). */
  readonly enabled = $derived.by<Record<CommandKind, boolean>>(() => {
    const can = this.canAct;
    const available = this.debug.available;
    const out = {} as Record<CommandKind, boolean>;
    for (const kind of Object.keys(available) as CommandKind[]) out[kind] = can && available[kind];
    return out;
  });

  /** A short message about the user's last request that could not be done (a breakpoint on a
   * blank line); cleared by the next command. */
  hint = $state<string | null>(null);

  private readonly statusInput = $derived.by<StatusInput>(() => ({
    engine: this.debug.engine,
    error: this.debug.error,
    busy: this.debug.busy,
    sharedPending: this.link.sharedPending,
    unfinished: this.link.unfinished,
    recording: this.debug.recording,
    state: this.debug.view.state,
    position: this.debug.position,
    dirty: this.debug.dirty,
    interruptible: this.debug.connection.info?.interruptible ?? null,
    edits: this.debug.edits,
    breakpoints: this.program.breakpoints,
    halted: this.debug.haltedBy,
    loadStage: this.debug.connection.loadStage,
    limits: this.debug.recordedLimits,
    framed: this.embedded,
    inputWaiting: this.debug.waitingForInput,
  }));
  readonly statusText = $derived(statusText(this.statusInput));
  readonly statusNote = $derived(statusNote(this.statusInput));
  readonly statusKind = $derived(statusKind(this.statusInput));

  /** Shows the page's link (or the first example) and starts the Python engine. */
  async start(connect?: ConnectEngine): Promise<void> {
    const started = this.debug.start(connect);
    const fromLink = await this.link.start();
    if (!fromLink) {
      this.selectExample(this.program.examples[0]?.id ?? '', false);
      this.link.holdIfUnfinished();
    }
    if (!(await started)) return;
    if (!this.link.sharedPending && this.debug.recording === null) await this.link.restore();
  }

  selectExample(id: string, run = true): void {
    if (!this.program.selectExample(id)) return;
    this.hint = null;
    this.link.sharedPending = false;
    this.link.unfinished = false;
    this.debug.error = null;
    this.link.schedule();
    if (run && this.debug.engine === 'ready') void this.debug.record();
  }

  /** The editor's text changed; `replacedAll`: the whole program was replaced (select all and
   * paste or type), so its breakpoints and watches, which belonged to the old one, go. */
  setSource(text: string, replacedAll = false): void {
    if (!this.program.setSource(text)) return;
    if (replacedAll) this.program.forgetLines();
    this.link.schedule();
  }

  setCall(text: string): void {
    this.program.setCall(text);
    this.link.schedule();
  }

  /** The Input field: what the program's input() calls read. */
  setInput(text: string): void {
    this.program.setInput(text);
    this.link.schedule();
  }

  /** A line typed in "Program input" where the program asked for one (input() typed live). */
  async answerInput(line: string): Promise<void> {
    if (!this.canAct) return;
    this.hint = null;
    if (await this.debug.answerInput(line)) this.link.schedule();
  }

  /** "Raise the limit" after a run was cut off: it runs again with more room. */
  async raiseLimit(): Promise<void> {
    if (!this.canAct) return;
    this.hint = null;
    await this.debug.raiseLimit();
  }

  toggleBreakpoint(line: number): void {
    const dropped = this.program.toggleBreakpoint(line);
    if (dropped === null) {
      this.hint = `Line ${line} holds no code: a breakpoint goes on a line that runs.`;
      return;
    }
    this.hint = null;
    this.dropConditions();
    this.link.schedule();
  }

  /** The editor moved breakpoints along with edited lines. */
  setBreakpoints(lines: number[]): void {
    const dropped = this.program.setBreakpoints(lines);
    if (dropped === null) return;
    this.dropConditions();
    this.link.schedule();
  }

  /** A toolbar button, a key or the editor's "Run to line". */
  async run(command: Command): Promise<void> {
    if (!this.canAct || !this.debug.canDo(command)) return;
    this.whatIf.error = null;
    this.hint = null;
    // A plain copy: a command read from a component's state may be a proxy, and it travels to the
    // model worker, whose postMessage cannot clone one.
    await this.debug.run($state.snapshot(command) as Command);
  }

  /** Stop: ends the run in progress (Python is interrupted, or restarted). */
  stop(): void {
    this.debug.stop();
  }

  /** The timeline: any position, as if stepped there. */
  jump(pos: number): void {
    if (!this.debug.session || this.debug.busy) return;
    this.whatIf.error = null;
    this.debug.jump(pos);
  }

  /** What-if: `name = expr` at the current stop. */
  async edit(name: string, expr: string): Promise<boolean> {
    if (!this.canAct || !this.debug.session || !this.debug.recording) return false;
    return this.whatIf.edit(name, expr);
  }

  async setCondition(line: number, condition: BreakCondition | undefined): Promise<boolean> {
    if (this.debug.busy || this.link.sharedPending) return false;
    const ok = await this.whatIf.setCondition(line, condition);
    this.link.schedule();
    return ok;
  }

  async addWatch(expr: string): Promise<boolean> {
    const text = expr.trim();
    if (!text || this.debug.busy || this.link.sharedPending) return false;
    const ok = await this.whatIf.addWatch(text);
    this.link.schedule();
    return ok;
  }

  async removeWatch(expr: string): Promise<void> {
    if (this.debug.busy || this.link.sharedPending) return;
    await this.whatIf.removeWatch(expr);
    this.link.schedule();
  }

  evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<EvaluationResult> {
    return this.debug.connection.evaluateOnLocals(expr, locals);
  }

  /** A removed breakpoint takes its condition with it: the program dropped it, the session follows. */
  private dropConditions(): void {
    this.debug.session?.setBreakLines(this.program.breakpoints);
  }

  private linkHost(): LinkHost {
    const { program, debug, whatIf } = this;
    return {
      snapshot: () => ({
        source: program.source,
        call: program.call,
        input: program.input,
        breakpoints: [...program.breakpoints],
        position: debug.dirty ? 0 : debug.position,
        conditions: program.conditions,
        watches: program.watches.map((w) => w.expr),
        edits: debug.dirty ? [] : [...debug.edits],
      }),
      show: (shared) => {
        const example = program.load(shared);
        debug.clear();
        whatIf.error = null;
        return example;
      },
      get engineReady() {
        return debug.engine === 'ready';
      },
      waitForEngine: () => debug.connection.waitForEngine(),
      checkExpressions: () => whatIf.checkLinkedExpressions(),
      record: async (wanted) => {
        const ok = await debug.record(wanted);
        const session = debug.session;
        if (!ok || !session) return null;
        return {
          get current() {
            return debug.session === session;
          },
          replayEdits: (edits, stillWanted) => whatIf.replayEdits(session, edits, stillWanted),
          goTo: (pos) => debug.restoreTo(session, pos),
        };
      },
    };
  }
}
