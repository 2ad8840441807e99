// `ndb debug FILE` with no actions: pdb's prompt over a live session. Each command line is read
// (pdbCommands.ts), applied to the LiveSession (moves, breakpoints, what-if edits, evaluation)
// and answered with the lines pdb would print (pdbOutput.ts). The terminal itself (reading lines,
// colour, Ctrl-C) is the CLI's; this class never touches it, so tests drive it line by line.

import { FORWARD_ACTIONS, moveNames, type Action, type Move, type MoveKind, type SimpleAction } from '../core/actions';
import { callEventOf } from '../core/navigator';
import type { ParsedState } from '../core/format';
import { sourceLines } from '../core/sourceLines';
import { frameEvents, type DebugState, type FrameAt } from '../core/state';
import { oneLine, safeLines } from '../core/terminalText';
import type { Position, Recording } from '../core/trace';
import { EditError } from '../core/whatIf';
import type { PythonHost } from '../realEngine/engineProtocol';
import { LiveSession, SessionError, type EngineName, type LiveModel, type LiveOptions } from './liveSession';
import { ModelUnavailable } from './liveModel';
import { OutputFeed } from './outputFeed';
import { BreakCommands } from './pdbBreakCommands';
import type { PdbBreakpoint } from './pdbBreakpoints';
import { HELP_TEXT, helpTopic, parsePdbCommand, PdbError, PdbSyntaxError, type PdbCommand } from './pdbCommands';
import { functionAtLine, postMortemPosition } from './pdbMoves';
import { sureness } from '../core/confidence';
import { cutOffNotice, type LimitOptions } from '../core/cutOff';
import { SERVER_LIMIT_CEILING } from '../core/limits';
import { errorLine, line, listLines, locationLines, modelLine, predictedText, tracebackLines, type FrameText, type OutLine } from './pdbOutput';
import { prettyRepr } from './prettyRepr';
import { ProgramError } from './programSession';
import type { ExceptionMode } from './exceptionStops';
import { eventKey, fileIndexOf, keyFileIndex, keyLine, sourceOfFile } from '../core/location';
import { own } from '../core/names';

export type { OutLine };

export interface PdbOptions {
  engine: EngineName;
  /** The program's name as stops print it (`> prog.py(4)total()`). */
  file: string;
  call?: string;
  /** Breakpoint keys (core/location.ts): lines of the main file, or of another file of the program. */
  breakpoints?: readonly number[];
  /** The model, for engines neural and both. */
  model?: LiveModel;
  /** `predict` with the model off: loads it when first asked. */
  loadModel?: () => Promise<LiveModel>;
  limits?: LiveOptions['limits'];
  /** Stops where exceptions are raised (`--exceptions`). */
  exceptions?: ExceptionMode;
  /** How the user raises a run's limits (`ndb debug --max-events`, `--timeout`); absent: named
   * as the limits themselves. */
  limitOptions?: LimitOptions;
}

const NAMED_LIMITS: LimitOptions = { maxEvents: 'the event budget', timeLimit: 'the time limit', ceiling: SERVER_LIMIT_CEILING };

export interface PdbReply {
  lines: OutLine[];
  /** The command ended the session (q, Ctrl-D). */
  quit: boolean;
}


/** Errors whose message is meant for the user as it is. */
const USER_FACING = [PdbError, PdbSyntaxError, SessionError, EditError, ProgramError, ModelUnavailable];

const EXCEPTION_MODES: Record<ExceptionMode, string> = {
  raised: 'Exceptions: moves stop wherever one is raised (exceptions none turns it off)',
  uncaught: 'Exceptions: moves stop where the exception that ends the program is raised',
  none: 'Exceptions: moves do not stop for exceptions (exceptions raised|uncaught)',
};

/** A move by its short name at the prompt (`s`, `rf`). */
const short = (move: MoveKind): string => moveNames(move).prompt[0]!;

export class PromptSession {
  private readonly breaks: BreakCommands;
  private readonly stdout = new OutputFeed();
  private readonly stderr = new OutputFeed();
  private readonly source: string[];
  /** The frame `p`, `l`, `a`, `u` and `d` use: 0 is the innermost. */
  private selected = 0;
  /** Where a bare `l` goes on from (null: around the current line). */
  private listFrom: number | null = null;
  private readonly displays = new Map<string, string>();
  private last: string | null = null;
  /** The stop the user saw last: a command interrupted before its answer was shown leaves it behind. */
  private shown: { rec: Recording; pos: Position } | null = null;
  private model: LiveModel | undefined;
  /** `--engine both`: the model's line of the current stop, shown again beside w, u and d. */
  private stopModel: OutLine | null = null;
  private readonly stats = { commands: 0, stops: 0, predicted: 0, right: 0 };

  private constructor(
    readonly live: LiveSession,
    private readonly options: PdbOptions,
  ) {
    this.source = sourceLines(live.source);
    this.model = options.model;
    // new conditions record the same run again: the stop shown is the same stop
    this.breaks = new BreakCommands(
      live,
      options.file,
      this.source,
      (before) => {
        if (this.shown?.rec === before) this.shown = { rec: this.rec, pos: this.live.position };
      },
      () => this.currentFile(),
    );
    for (const key of options.breakpoints ?? []) this.breaks.table.add(keyLine(key), false, undefined, keyFileIndex(key));
  }

  /** Records the program and stops at its first line, as pdb does; throws ProgramError when it
   * cannot start. The lines are the first stop. */
  static async open(host: PythonHost, source: string, options: PdbOptions): Promise<{ session: PromptSession; lines: OutLine[] }> {
    const live = await LiveSession.start(host, source, options.call ?? '', {
      engine: options.engine,
      breakpoints: options.breakpoints ?? [],
      file: options.file,
      ...(options.exceptions ? { exceptions: options.exceptions } : {}),
      ...(options.model ? { model: options.model } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    const session = new PromptSession(live, options);
    // The recording starts at the entry's call; pdb shows the first line (its arguments are one rs away).
    if (live.recording.events[0]?.event === 'call' && live.position === 0) await live.move({ kind: 'step_into' });
    // a recording a limit cut is said before the first stop, not only at its end
    const cut = session.cutNotice();
    const lines: OutLine[] = cut ? [line(cut, 'note')] : [];
    await session.showStop(lines, []);
    return { session, lines };
  }

  /** Runs one command line; an empty line repeats the last command. Errors are answered, never
   * thrown: the session goes on. With `signal` aborted before the answer is shown, the next
   * command first shows where this one stopped. */
  async run(text: string, signal?: AbortSignal): Promise<PdbReply> {
    const lines: OutLine[] = [];
    const seen = { shown: this.shown, stdout: this.stdout.snapshot(), stderr: this.stderr.snapshot() };
    if (this.shown && (this.shown.rec !== this.live.recording || this.shown.pos !== this.live.position)) {
      lines.push(line('(the interrupted command stopped here)', 'note'));
      await this.showStop(lines, []);
    }
    let input = text.trim();
    if (input === '') {
      if (this.last === null) return { lines, quit: false };
      input = this.last;
    }
    this.last = input;
    this.stats.commands++;
    let command: PdbCommand | null = null;
    try {
      command = parsePdbCommand(input);
      await this.execute(command, lines);
    } catch (err) {
      lines.push(errorLine(err instanceof Error ? err.message : String(err)));
      // a failure of ndb itself, not of the command: said so, and the session goes on
      if (!USER_FACING.some((kind) => err instanceof kind)) lines.push(line('(an error in ndb itself; the session goes on)', 'note'));
    }
    if (signal?.aborted) {
      this.shown = seen.shown;
      this.stdout.restore(seen.stdout);
      this.stderr.restore(seen.stderr);
    }
    return { lines, quit: command?.kind === 'quit' };
  }

  /** What `q` prints: commands, stops, and how the model did. */
  summary(): OutLine[] {
    const { commands, stops, predicted, right } = this.stats;
    let text = `ndb: ${commands} command${commands === 1 ? '' : 's'}, ${stops} stop${stops === 1 ? '' : 's'}`;
    if (this.live.engine === 'both') text += predicted ? `; the model predicted ${predicted}, ${right} right (${Math.round((100 * right) / predicted)} %)` : '; the model predicted none';
    const edits = this.live.edits.length;
    if (edits) text += `; ${edits} what-if edit${edits === 1 ? '' : 's'}`;
    return [line(text, 'note')];
  }

  // ---- commands ----

  private async execute(c: PdbCommand, out: OutLine[]): Promise<void> {
    switch (c.kind) {
      case 'move':
        return this.move(c.move, out);
      case 'until':
        return this.until(c.line, out);
      case 'break':
        return this.breaks.add(c.at, c.temporary, c.condition, out);
      case 'clear':
        return this.breaks.clear(c.targets, out);
      case 'condition':
        return this.breaks.condition(c.number, c.condition, out);
      case 'enable':
      case 'disable':
        return this.breaks.enable(c.numbers, c.kind === 'enable', out);
      case 'print': {
        const value = await this.evaluate(c.expr);
        if (c.pretty) for (const l of prettyRepr(value).split('\n')) out.push(line(oneLine(l)));
        else out.push(line(oneLine(value)));
        return;
      }
      case 'display':
        return this.display(c.expr, out);
      case 'undisplay':
        if (c.expr !== undefined && !this.displays.delete(c.expr)) throw new PdbError(`not displaying ${c.expr}`);
        if (c.expr === undefined) this.displays.clear();
        return;
      case 'where':
        return this.where(out);
      case 'up':
      case 'down':
        return this.upDown(c.kind === 'up' ? c.count : -c.count, out);
      case 'list':
        return this.list(c, out);
      case 'longlist':
        return this.longlist(out);
      case 'args':
        return this.args(out);
      case 'retval':
        return this.retval(out);
      case 'help':
        if (c.topic === undefined) out.push(...HELP_TEXT.map((t) => line(t)));
        else out.push(line(helpTopic(c.topic) ?? `*** No help on ${oneLine(c.topic)}`, helpTopic(c.topic) ? 'plain' : 'error'));
        return;
      case 'quit':
        out.push(...this.summary());
        return;
      case 'set':
        return this.edit(c.name, c.expr, out);
      case 'predict':
        return this.predict(c.move, out);
      case 'exec':
        return this.statement(c.code, out);
      case 'exceptions':
        if (c.mode !== undefined) this.live.setExceptions(c.mode);
        out.push(line(EXCEPTION_MODES[this.live.exceptions]));
        return;
    }
  }

  private get rec(): Recording {
    return this.live.recording;
  }

  private get neural(): boolean {
    return this.live.engine === 'neural';
  }

  /** The model's state for this stop, when the stop shown is the model's (engine neural). */
  private get shownPrediction(): ParsedState | null {
    if (!this.neural) return null;
    const p = this.live.prediction?.predicted;
    return p && !('unparseable' in p) ? p : null;
  }

  private atExit(): boolean {
    const p = this.shownPrediction;
    if (p) return p.event === 'exit';
    return this.live.position >= this.rec.events.length;
  }

  /** The frames at the stop, innermost first; after an uncaught exception, those where it was
   * raised (post mortem). */
  private frames(): FrameAt[] {
    const pos = this.live.position;
    const n = this.rec.events.length;
    const at = pos >= 0 && pos < n ? pos : pos >= n ? postMortemPosition(this.rec) : null;
    return at === null ? [] : frameEvents(this.rec, at);
  }

  private frame(): FrameAt {
    const f = this.frames()[this.selected];
    if (!f) throw new PdbError(this.atExit() ? 'the program has finished: there is no frame (rs, rn, rc or rf go back)' : 'there is no frame here');
    return f;
  }

  private frameText(f: FrameAt): FrameText {
    const e = this.rec.events[f.event]!;
    return { function: f.function, line: f.line, ...(e.event === 'return' && !e.raising ? { returned: e.value ?? 'None' } : {}) };
  }

  // ---- moves ----

  private async move(move: MoveKind, out: OutLine[]): Promise<void> {
    const live = this.live;
    const pos = live.position;
    const forward = (FORWARD_ACTIONS as readonly string[]).includes(move);
    if (forward && this.atExit()) throw new PdbError('the program has finished: rs, rn, rc or rf go back; q quits');
    if (!forward && pos <= 0) throw new PdbError('this is the start of the program: there is nothing before it');
    if (move === 'inv_continue' && this.neural) throw new PdbError('rc needs the recording: use --engine real or both');
    if (forward) return this.forward({ kind: move } as Action, out);
    // rf from an outer frame, or after the end to the call of the frame that raised: no model action
    const outer = move === 'inv_step_call' && (this.selected > 0 || pos >= this.rec.events.length) && !this.neural;
    await live.move(outer ? { kind: 'call_of', event: this.frame().event } : ({ kind: move } as Move));
    return this.showStop(out, []);
  }

  /** A forward action (the session's move, as every face's); a breakpoint stop deletes the
   * temporary breakpoints there (tbreak). */
  private async forward(action: Action, out: OutLine[]): Promise<void> {
    const stop = await this.live.move(action);
    return this.showStop(out, await this.afterBreak(stop.breakpointHit));
  }

  private async afterBreak(byBreakpoint: boolean): Promise<PdbBreakpoint[]> {
    const pos = this.live.position;
    if (this.neural || !byBreakpoint || !this.live.real.navigator.breaksAt(pos)) return [];
    return this.breaks.hit(eventKey(this.rec, this.rec.events[pos]!));
  }

  private async until(target: number | undefined, out: OutLine[]): Promise<void> {
    if (this.neural) throw new PdbError('until needs the recording: use --engine real or both');
    if (this.atExit()) throw new PdbError('the program has finished: rs, rn, rc or rf go back; q quits');
    const here = this.rec.events[this.live.position];
    // pdb compares with the frame's line at a return stop too (and then steps on into the caller)
    if (here && target !== undefined && target <= here.line) throw new PdbError(`"until" line number is smaller than current line number`);
    // the session's move, as every face's (session/moves.ts): where it stops and why
    const stop = await this.live.move({ kind: 'until', ...(target !== undefined ? { target } : {}) });
    return this.showStop(out, await this.afterBreak(stop.breakpointHit));
  }

  // ---- what a stop shows ----

  private async showStop(out: OutLine[], deleted: readonly PdbBreakpoint[]): Promise<void> {
    this.selected = 0;
    this.listFrom = null;
    this.stopModel = null;
    this.stats.stops++;
    this.shown = { rec: this.rec, pos: this.live.position };
    if (!this.neural) this.showOutput(out);
    for (const b of deleted) out.push(line(`Deleted breakpoint ${b.number} at ${this.breaks.placeOf(b)}`, 'note'));
    if (this.neural) return this.showPredictedStop(out);
    const state = this.live.state;
    // a breakpoint whose condition raised stops, as pdb's does: said, so that it is not taken for true
    if (state.event === 'line' && state.condition_error !== undefined && this.live.real.navigator.breaksAt(this.live.position)) {
      out.push(line(`(the breakpoint's condition raised ${oneLine(state.condition_error)}: it stops here, as pdb does)`, 'note'));
    }
    this.showState(state, out);
    if (state.event !== 'exit' && state.event !== 'entry') await this.showDisplays(out);
    if (this.live.engine === 'both') await this.showModel(state, out);
  }

  private showOutput(out: OutLine[]): void {
    const state = this.live.state;
    const pos = this.live.position;
    const e = this.rec.events[pos];
    const pieces = [
      this.stdout.at(state.event === 'entry' ? '' : state.stdout),
      this.stderr.at(state.event === 'exit' ? (this.rec.stderr ?? '') : (this.rec.stderr ?? '').slice(0, e?.err ?? 0)),
    ];
    for (const piece of pieces) {
      if (!piece) continue;
      if (piece.rewritten) out.push(line('[the edited run prints from here on:]', 'note'));
      for (const l of safeLines(piece.text.replace(/\n$/, '')).split('\n')) out.push(line(l, 'output'));
    }
    // the output past its cap is not in the recording: said once, where it is cut
    const cut = state.event === 'entry' ? null : this.stdout.cut(state.stdout_truncated, this.rec.stdout_total);
    if (cut) out.push(line(cut, 'note'));
  }

  /** What the prompt says of a recording a limit cut; null when the program ran to its end. */
  private cutNotice(): string | null {
    return cutOffNotice(this.live.recording, this.live.runLimits, this.options.limitOptions ?? NAMED_LIMITS);
  }

  private showState(state: DebugState, out: OutLine[]): void {
    const file = this.options.file;
    if (state.event === 'entry') {
      out.push(line('(before the program starts: s starts it)', 'note'));
      return;
    }
    if (state.event === 'exit') {
      if (state.status === 'exception') {
        out.push(...tracebackLines(file, state.traceback ?? [], state.message ?? 'an exception'));
        out.push(line('Uncaught exception. Entering post mortem debugging (p, w, l, a and rf look where it was raised)', 'note'));
        const f = this.frames()[0];
        if (f) out.push(...this.frameLocation(f));
      } else if (state.exit_code !== undefined) {
        // pdb's words for a program that ended through SystemExit (no post-mortem)
        out.push(line(`The program exited via sys.exit(). Exit status: ${state.exit_code}`, 'note'));
      } else if (state.status === 'normal') {
        out.push(line(`The program finished${this.live.call && state.value !== undefined ? ` and returned ${oneLine(state.value)}` : ''}.`, 'note'));
      } else out.push(errorLine(this.cutNotice() ?? `the program was stopped (${state.status}): ${state.message ?? ''}`));
      out.push(line('(rs, rn, rc or rf go back; q quits)', 'note'));
      return;
    }
    if (state.event === 'call') out.push(line('--Call--', 'note'));
    if (state.event === 'return') out.push(line('--Return--', 'note'));
    if (state.event === 'exception') out.push(line(oneLine(state.value ?? 'an exception'), 'error'));
    const f = this.frames()[0]!;
    out.push(...this.frameLocation(f));
    if (state.event === 'return' && state.raising) out.push(line(oneLine(`(leaving by the exception ${state.value ?? ''})`), 'note'));
  }

  private showPredictedStop(out: OutLine[]): void {
    const step = this.live.prediction;
    if (!step) return this.showState(this.live.state, out);
    const p = step.predicted;
    const sure = step.confidence ? `  [predicted, ${sureness(step.confidence.state)}]` : '  [predicted]';
    if ('unparseable' in p) {
      out.push(errorLine(`the model's prediction could not be read: ${p.unparseable}`));
      return;
    }
    if (p.event === 'exit') {
      out.push(line(oneLine(`The model predicts that the program ends here (${p.status}${p.message ? `: ${p.message}` : ''}).${sure}`), 'note'));
      return;
    }
    if (p.event === 'entry') return this.showState({ event: 'entry' }, out);
    if (p.event === 'call') out.push(line('--Call--', 'note'));
    if (p.event === 'return') out.push(line('--Return--', 'note'));
    if (p.event === 'exception') out.push(line(oneLine(p.value ?? 'an exception'), 'error'));
    const frame: FrameText = { function: functionAtLine(this.rec, p.line, p.event === 'call'), line: p.line, ...(p.event === 'return' && !p.raising ? { returned: p.value ?? 'None' } : {}) };
    const [loc, src] = locationLines(this.options.file, frame, this.source[p.line - 1]);
    out.push({ ...loc!, text: loc!.text + sure });
    if (src) out.push(src);
  }

  /** `--engine both`: the model's prediction of this stop; at a stop it did not predict (the
   * start, a jump), what it predicts the next `s` shows. */
  private async showModel(state: DebugState, out: OutLine[]): Promise<void> {
    const step = this.live.prediction;
    if (step) {
      this.stats.predicted++;
      if (step.comparison.match) this.stats.right++;
      this.stopModel = modelLine('model', state, step.predicted, step.comparison, step.confidence?.state);
    } else if (state.event !== 'exit') {
      const next = await this.live.predict({ kind: 'step_into' });
      this.stopModel = modelLine('model (this stop was a jump; its prediction for s)', next.real, next.predicted, next.comparison, next.confidence.state);
    }
    if (this.stopModel) out.push(this.stopModel);
  }

  private async showDisplays(out: OutLine[]): Promise<void> {
    for (const [expr, old] of this.displays) {
      const now = await this.evaluate(expr).catch((err: unknown) => `** raised ${err instanceof Error ? err.message : String(err)} **`);
      if (now === old) continue;
      this.displays.set(expr, now);
      out.push(line(oneLine(`display ${expr}: ${now}  [old: ${old}]`)));
    }
  }

  // ---- looking around ----

  /** The repr of `expr` in the selected frame (the program runs again to evaluate it there);
   * with engine neural, on the model's predicted locals. */
  private async evaluate(expr: string): Promise<string> {
    const p = this.shownPrediction;
    const result = p
      ? await this.live.host.evaluateOnLocals(expr, p.event === 'exit' || p.event === 'entry' ? {} : (p.locals ?? {}))
      : await this.live.evaluate(expr, this.frame().event);
    if ('error' in result) throw new PdbError(result.error);
    if ('unknown' in result) throw new PdbError(`the model's locals do not determine it: ${result.unknown}`);
    return result.value;
  }

  private async display(expr: string | undefined, out: OutLine[]): Promise<void> {
    if (expr === undefined) {
      out.push(line('Currently displaying:'));
      for (const [e, v] of this.displays) out.push(line(oneLine(`${e}: ${v}`)));
      return;
    }
    const value = await this.evaluate(expr).catch((err: unknown) => `** raised ${err instanceof Error ? err.message : String(err)} **`);
    this.displays.set(expr, value);
    out.push(line(oneLine(`display ${expr}: ${value}`)));
  }

  private where(out: OutLine[]): void {
    const p = this.shownPrediction;
    if (p) {
      if (p.event === 'exit' || p.event === 'entry') throw new PdbError('the model predicts no frame here');
      out.push(...locationLines(this.options.file, { function: functionAtLine(this.rec, p.line, p.event === 'call'), line: p.line }, this.source[p.line - 1]));
      return;
    }
    const frames = this.frames();
    if (frames.length === 0) throw new PdbError('there is no frame here');
    for (let i = frames.length - 1; i >= 0; i--) {
      const f = frames[i]!;
      out.push(...this.frameLocation(f, i === this.selected));
    }
    if (this.stopModel) out.push(this.stopModel);
  }

  private upDown(by: number, out: OutLine[]): void {
    if (this.shownPrediction) throw new PdbError('the model predicts one frame: there is none to move to');
    const frames = this.frames();
    const next = this.selected + by;
    if (next >= frames.length) throw new PdbError('Oldest frame');
    if (next < 0) throw new PdbError('Newest frame');
    this.selected = next;
    this.listFrom = null;
    const f = frames[next]!;
    out.push(...this.frameLocation(f));
    if (this.stopModel) out.push(this.stopModel);
  }

  /** A frame's `> file(line)function()` and its source line, in the file the frame is in (a
   * program of several files; the main file goes by the name it was started with). */
  private frameLocation(f: FrameAt, current = true): OutLine[] {
    const index = this.rec.codes[this.rec.events[f.event]?.code ?? -1]?.file ?? 0;
    if (index === 0) return locationLines(this.options.file, this.frameText(f), this.source[Math.max(1, f.line) - 1], current);
    const text = sourceLines(sourceOfFile(this.rec, index) ?? '')[Math.max(1, f.line) - 1];
    return locationLines(f.file, this.frameText(f), text, current);
  }

  private currentLine(): number | undefined {
    const p = this.shownPrediction;
    if (p) return p.event === 'exit' || p.event === 'entry' ? undefined : p.line;
    const f = this.frames()[this.selected];
    return f ? Math.max(1, f.line) : undefined;
  }

  /** The file of the selected frame (its index among the program's files; 0: the main file). */
  private currentFile(): number {
    if (this.shownPrediction) return 0;
    const f = this.frames()[this.selected];
    return f ? fileIndexOf(this.rec, this.rec.events[f.event]!) : 0;
  }

  /** The source lines of the selected frame's file (`l` and `ll` list it). */
  private currentSource(): readonly string[] {
    const file = this.currentFile();
    return file === 0 ? this.source : this.breaks.sourceOf(file);
  }

  private breakLines(): Set<number> {
    const file = this.currentFile();
    return new Set(this.breaks.table.all.filter((b) => b.file === file).map((b) => b.line));
  }

  private list(c: PdbCommand & { kind: 'list' }, out: OutLine[]): void {
    const current = this.currentLine();
    let first: number;
    let last: number;
    if (c.first !== undefined) {
      first = c.last === undefined ? Math.max(1, c.first - 5) : c.first;
      last = c.last ?? first + 10;
    } else if (this.listFrom !== null && !c.here) {
      first = this.listFrom;
      last = first + 10;
    } else {
      first = Math.max(1, (current ?? 1) - 5);
      last = first + 10;
    }
    const source = this.currentSource();
    if (first > source.length) {
      out.push(line('[EOF]', 'note'));
      return;
    }
    out.push(...listLines(source, first, last, current, this.breakLines()));
    this.listFrom = last + 1;
  }

  private longlist(out: OutLine[]): void {
    const current = this.currentLine();
    const source = this.currentSource();
    let first = 1;
    let last = source.length;
    const p = this.shownPrediction;
    const f = p ? undefined : this.frames()[this.selected];
    const code = f ? this.rec.codes[this.rec.events[f.event]!.code] : p && current !== undefined ? this.rec.codes.find((c) => c.name === functionAtLine(this.rec, current, p.event === 'call')) : undefined;
    if (code && code.name !== '<module>') {
      first = code.firstline;
      last = Math.max(...code.lines, first);
    }
    out.push(...listLines(source, first, last, current, this.breakLines()));
  }

  private args(out: OutLine[]): void {
    if (this.shownPrediction) throw new PdbError('a needs the real engine (the model predicts locals, not which are arguments)');
    const f = this.frame();
    const call = this.rec.events[Math.max(0, callEventOf(this.rec.events, f.event))]!;
    const now = this.rec.events[f.event]!.locals;
    for (const name of Object.keys(call.locals)) out.push(line(oneLine(`${name} = ${own(now, name) ?? call.locals[name]}`)));
  }

  private retval(out: OutLine[]): void {
    const p = this.shownPrediction;
    if (p) {
      if (p.event !== 'return' || p.value === undefined) throw new PdbError('Not yet returned!');
      out.push(line(oneLine(p.value)));
      return;
    }
    const e = this.selected === 0 ? this.rec.events[this.live.position] : undefined;
    if (!e || e.event !== 'return') throw new PdbError('Not yet returned!');
    if (e.raising) throw new PdbError(`nothing is returned: the frame is left by the exception ${e.value ?? ''}`);
    out.push(line(oneLine(e.value ?? 'None')));
  }

  /** pdb's `!stmt` (and a line that is no command): run once in the selected frame, as it is
   * at this stop, by running the program again to here; what it prints is shown. What it changes
   * is gone after: the recording goes on as it ran (an assignment to a name is a what-if edit). */
  private async statement(code: string, out: OutLine[]): Promise<void> {
    if (this.neural) throw new PdbError('a statement runs in the real program: use --engine real or both (p EXPR reads the predicted locals)');
    const result = await this.live.evaluate(code, this.frame().event, true);
    if ('error' in result) throw new PdbError(result.error);
    const printed = result.value.replace(/\n$/, '');
    if (printed !== '') for (const l of safeLines(printed).split('\n')) out.push(line(l));
    if (await this.live.host.expressionError(code)) {
      out.push(line('(ndb ran it once at this stop; the recorded run goes on as it ran, without its changes: set NAME = EXPR changes a local for what follows)', 'note'));
    }
  }

  // ---- ndb's own ----

  private async edit(name: string, expr: string, out: OutLine[]): Promise<void> {
    if (this.neural) throw new PdbError('what-if edits run the real program: use --engine real or both');
    if (this.selected !== 0) throw new PdbError('an edit is made in the current frame: d goes back to it');
    await this.live.edit(name, expr);
    this.shown = { rec: this.rec, pos: this.live.position };
    const value = own(this.rec.events[this.live.position]?.locals, name) ?? expr;
    out.push(line(oneLine(`${name} = ${value}`)));
    out.push(line('(the program goes on from here with it; stepping back past this stop undoes it)', 'note'));
  }

  private async predict(move: SimpleAction, out: OutLine[]): Promise<void> {
    const action: Action = { kind: move };
    if (!this.live.followed) {
      if (!this.options.loadModel && !this.model) throw new PdbError('no model is loaded');
      this.model ??= await this.options.loadModel!();
    }
    if (!this.live.canDo(action)) throw new PdbError(`${short(move)} would not move from here`);
    const p = await this.live.predict(action, this.model);
    if (this.neural) {
      out.push(line(oneLine(`predict ${short(move)}: ${sureness(p.confidence.state)}: ${predictedText(p.predicted)}`), 'note'));
      return;
    }
    out.push(modelLine(`predict ${short(move)}`, p.real, p.predicted, p.comparison, p.confidence.state));
  }
}
