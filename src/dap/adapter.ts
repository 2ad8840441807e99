// `ndb dap`: the Debug Adapter Protocol over a recording. The program is run once under the
// tracer at launch; every request then navigates the recording exactly as pdb would have
// stopped (src/core/navigator.ts), backwards as well as forwards. Requests are answered one at a
// time, in order, since each may move the session the next one reads.

import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { DebugSession, ExitedEvent, InitializedEvent, InvalidatedEvent, OutputEvent, StoppedEvent, TerminatedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Action } from '../core/actions';
import type { BreakCondition } from '../core/navigator';
import type { ParseResult } from '../core/format';
import { EditError } from '../core/whatIf';
import { loadLiveModel, ModelUnavailable } from '../session/liveModel';
import { LiveSession, SessionError } from '../session/liveSession';
import { ProgramError } from '../session/programSession';
import { conditionErrors, fileIndex, sourceOf } from '../session/breakpointSpecs';
import { projectOptions, readProject, type Project } from '../session/projectFiles';
import type { ExceptionMode } from '../session/exceptionStops';
import { eventKey, lineKey } from '../core/location';
import { logLine } from '../util/stdio';
import { own } from '../core/names';
import { engineSandboxNotice } from '../realEngine/node/engineChild';
import { loadPythonHost, type PythonHost } from '../realEngine/pythonHost';
import { checkBreakpoints, type CheckedBreakpoint, type RequestedBreakpoint } from './breakpoints';
import { framesAt, functionAtLine, type FrameView } from './frames';
import { shownLine } from '../core/state';
import { dapCutNotice, LaunchArgsError, parseLaunchArgs, type NdbLaunchArgs } from './launchArgs';
import { backToCall, move, reverseContinue, type StopReason } from './moves';
import { ProgramOutput } from './output';
import { predictedRows } from './predicted';
import { localsRows, modelRows, VariableStore } from './variables';

const THREAD_ID = 1;

/** A request that cannot be served as asked; its message goes to the user. */
class RequestError extends Error {}

/** Errors whose message is meant for the user as it is; anything else is also logged. */
const EXPECTED_ERRORS = [RequestError, LaunchArgsError, ProgramError, SessionError, EditError, ModelUnavailable];

type Work = () => Promise<(() => void) | void>;

/** A checked breakpoint and its key in the session (core/location.ts), when verified. */
type KeyedBreakpoint = CheckedBreakpoint & { key?: number };

export class NdbDebugAdapter extends DebugSession {
  private host: Promise<PythonHost> | null = null;
  private launch: NdbLaunchArgs | null = null;
  private program = '';
  private source = '';
  private live: LiveSession | null = null;
  /** The program's project: its folder, its modules and data (session/projectFiles.ts). */
  private project: Project | null = null;
  /** Per file of the program (its index): the lines that hold code. */
  private readonly codeLines = new Map<number, Set<number> | { error: string }>();
  /** The breakpoints set, of every file of the program, by path; each with its key. */
  private readonly setByPath = new Map<string, KeyedBreakpoint[]>();
  private breakpoints: KeyedBreakpoint[] = [];
  private nextBreakpointId = 1;
  private configured = false;
  private started = false;
  private ended = false;
  /** The breakpoints the client asked for, by file: those of the program are set at its launch. */
  private readonly requested = new Map<string, { breakpoints: RequestedBreakpoint[]; checked: CheckedBreakpoint[] }>();
  private queue: Promise<void> = Promise.resolve();
  private readonly vars = new VariableStore();
  private readonly output = new ProgramOutput();
  private invalidatedEvents = false;
  /** As the filters' defaults say (Uncaught Exceptions on) until the client sets them: a crash
   * stops where it was raised, with its traceback, before the session ends. */
  private exceptionMode: ExceptionMode = 'uncaught';

  /** The engine as this debug session sees it: one owner, so that no program of another session
   * run by the same server shares its interpreter (processHost.ts). */
  private engine(): Promise<PythonHost> {
    this.host ??= loadPythonHost().then((host) => host.forOwner(`launch-${randomUUID()}`));
    return this.host;
  }

  constructor() {
    super();
    // Lines and columns are 1-based inside ndb as in Python; the base class converts for clients.
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  // ---- the request queue ----

  private run(response: DebugProtocol.Response, work: Work): void {
    this.queue = this.queue
      .then(async () => {
        let after: (() => void) | void;
        try {
          after = await work();
        } catch (err) {
          this.fail(response, err);
          return;
        }
        this.sendResponse(response);
        after?.();
      })
      .catch((err: unknown) => logLine(`internal error: ${describe(err)}`));
  }

  private fail(response: DebugProtocol.Response, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    if (!EXPECTED_ERRORS.some((kind) => err instanceof kind)) logLine(`${response.command} failed: ${describe(err)}`);
    this.sendErrorResponse(response, { id: 3000, format: message, showUser: true });
  }

  private session(): LiveSession {
    if (!this.live) throw new RequestError('no program is being debugged: launch one first');
    return this.live;
  }

  private running(): LiveSession {
    const live = this.session();
    if (!this.started) throw new RequestError('the program has not started yet (waiting for configurationDone)');
    if (this.ended) throw new RequestError('the program has ended');
    return live;
  }

  /** Work of no request (the first stop), in the same order as the requests. */
  private later(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => {
      logLine(`internal error: ${describe(err)}`);
      this.sendEvent(new OutputEvent(`ndb: ${describe(err)}\n`, 'stderr'));
      this.end(1);
    });
  }

  // ---- lifecycle ----
  //
  // Clients order these requests differently: VS Code sends launch and the configuration
  // (setBreakpoints, configurationDone) side by side, others configure before they launch. The
  // program starts when it is both launched and configured, whichever comes last.

  protected override initializeRequest(response: DebugProtocol.InitializeResponse, args: DebugProtocol.InitializeRequestArguments): void {
    this.invalidatedEvents = args.supportsInvalidatedEvent === true;
    response.body = {
      ...response.body,
      supportsConfigurationDoneRequest: true,
      supportsStepBack: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsSetVariable: true,
      supportsEvaluateForHovers: true,
      supportsRestartFrame: true,
      exceptionBreakpointFilters: [
        { filter: 'raised', label: 'Raised Exceptions', description: 'Stop wherever an exception is raised', default: false },
        { filter: 'uncaught', label: 'Uncaught Exceptions', description: 'Stop where the exception that ends the program is raised', default: true },
      ],
    };
    // Pyodide takes seconds to load: start now, while the client prepares the launch.
    this.host = this.engine();
    this.host.catch(() => undefined);
    this.sendResponse(response);
    this.sendEvent(new InitializedEvent());
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, raw: DebugProtocol.LaunchRequestArguments): void {
    this.run(response, async () => {
      if (this.live) throw new RequestError('a program is launched already: one launch per session');
      const args = parseLaunchArgs(raw);
      const program = resolve(args.program);
      readProgram(program); // a file that cannot be read is said as such
      const project = readProject(program);
      const source = project.source;
      const host = await this.engine();
      const notice = engineSandboxNotice();
      if (notice) this.sendEvent(new OutputEvent(`${notice}\n`, 'console'));
      const lines = await host.codeLines(source);
      if ('error' in lines) throw new ProgramError(`${program}:${lines.line}: ${lines.error}`);
      const model = args.engine === 'real' ? undefined : await loadLiveModel(args.model);
      for (const { file, reason } of project.leftOut) this.sendEvent(new OutputEvent(`ndb: ${file} is not readable by the program: ${reason}\n`, 'console'));
      const limits = {
        ...projectOptions(project),
        ...(args.args.length ? { argv: args.args } : {}),
        ...(args.maxEvents !== undefined ? { maxEvents: args.maxEvents } : {}),
        ...(args.timeout !== undefined ? { timeLimit: args.timeout } : {}),
        ...(args.stdin !== undefined ? { stdin: args.stdin } : {}),
      };
      const live = await LiveSession.start(host, source, args.call, {
        engine: args.engine,
        ...(model ? { model } : {}),
        file: program,
        folder: project.folder,
        limits,
        exceptions: this.exceptionMode,
      });
      this.launch = args;
      this.program = program;
      this.project = project;
      this.source = source;
      this.codeLines.set(0, new Set(lines.lines));
      this.live = live;
      // a recording a limit cut is said at the start, not only at its end
      const cut = args.engine === 'neural' ? null : dapCutNotice(live);
      if (cut) this.sendEvent(new OutputEvent(`ndb: ${cut}\n`, 'console'));
      // Breakpoints the client set before the launch, in any file of the program.
      for (const [path, early] of this.requested) {
        if (typeof fileIndex(live.program, path) === 'number') await this.applyBreakpoints(live, path, early.breakpoints, early.checked.map((b) => b.id));
      }
      return () => {
        if (this.configured) this.begin();
      };
    });
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.run(response, async () => {
      const first = !this.configured;
      this.configured = true;
      return () => {
        if (first && this.live) this.begin();
      };
    });
  }

  /** The first stop: the entry, the first breakpoint, or the end (noDebug: the end). */
  private begin(): void {
    if (this.started) return;
    this.started = true;
    this.later(async () => {
      const live = this.session();
      if ((this.launch as { noDebug?: boolean } | null)?.noDebug) {
        await live.jump(live.recording.events.length);
        this.report('step');
      } else if (this.launch?.stopOnEntry) this.report('entry');
      else this.report(await move(live, { kind: 'continue' }));
    });
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse, args: DebugProtocol.DisconnectArguments): void {
    if (!this.live) {
      // Nothing was launched (or the launch failed): end now. An engine still loading is not
      // waited for: it is released when it has loaded, and its process ends with the adapter's.
      const host = this.host;
      this.host = null;
      host?.then((h) => h.release()).catch(() => undefined);
      super.disconnectRequest(response, args);
      return;
    }
    this.queue = this.queue.then(async () => {
      // the launch's interpreter ends with it
      await (await this.host)?.release();
      super.disconnectRequest(response, args);
    });
  }

  // ---- breakpoints ----

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    this.run(response, async () => {
      const given: DebugProtocol.SourceBreakpoint[] = args.breakpoints ?? (args.lines ?? []).map((line) => ({ line }));
      const requested = given.map((b) => {
        const bp: RequestedBreakpoint = { line: this.convertClientLineToDebugger(b.line) };
        if (b.condition) bp.condition = b.condition;
        if (b.hitCondition) bp.hitCondition = b.hitCondition;
        return bp;
      });
      const path = args.source.path ? resolve(args.source.path) : undefined;
      let checked: CheckedBreakpoint[];
      const refuse = (message: string) => requested.map((b) => ({ id: this.nextBreakpointId++, line: b.line, verified: false, message }));
      if (!path) checked = refuse('ndb debugs files: this source has no path');
      else if (this.live && typeof fileIndex(this.live.program, path) === 'number') {
        checked = await this.applyBreakpoints(this.live, path, requested);
      } else if (this.live) checked = refuse(`not a Python file of the launched program (its folder: ${this.project?.folder ?? this.program})`);
      else {
        // Before the launch: checked against the file as it is now, set when it is launched.
        let source: string | null = null;
        try {
          source = readProgram(path);
        } catch (err) {
          checked = refuse(describe(err));
        }
        if (source !== null) {
          const host = await this.engine();
          const lines = await host.codeLines(source);
          checked = await checkBreakpoints(requested, {
            codeLines: 'error' in lines ? { error: lines.error } : new Set(lines.lines),
            expressionError: (expr) => host.expressionError(expr),
            nextId: () => this.nextBreakpointId++,
          });
        }
      }
      if (path) this.requested.set(path, { breakpoints: requested, checked: checked! });
      response.body = {
        breakpoints: checked!.map((b) => {
          const out: DebugProtocol.Breakpoint = { id: b.id, verified: b.verified, line: this.convertDebuggerLineToClient(b.line), source: args.source };
          if (b.message) out.message = b.message;
          return out;
        }),
      };
    });
  }

  /** Checks breakpoints against the launched program and sets the verified ones; `ids`: the
   * ids the client already has for them. */
  private async applyBreakpoints(live: LiveSession, path: string, requested: readonly RequestedBreakpoint[], ids: readonly number[] = []): Promise<CheckedBreakpoint[]> {
    const host = await this.host!;
    const index = fileIndex(live.program, path) as number;
    if (!this.codeLines.has(index)) {
      const lines = await host.codeLines(sourceOf(live.program, index));
      this.codeLines.set(index, 'error' in lines ? { error: lines.error } : new Set(lines.lines));
    }
    let k = 0;
    const checked: KeyedBreakpoint[] = (
      await checkBreakpoints(requested, {
        codeLines: this.codeLines.get(index)!,
        expressionError: (expr) => host.expressionError(expr),
        nextId: () => ids[k++] ?? this.nextBreakpointId++,
      })
    ).map((b) => (b.verified ? { ...b, key: lineKey(index, b.line) } : b));
    this.setByPath.set(path, checked);
    this.breakpoints = [...this.setByPath.values()].flat();
    const conditions = new Map<number, BreakCondition>();
    for (const b of this.breakpoints) if (b.key !== undefined && b.spec) conditions.set(b.key, b.spec);
    await live.setBreakpoints(
      this.breakpoints.flatMap((b) => (b.key === undefined ? [] : [b.key])),
      conditions,
    );
    // A condition that raised in the run stops there (as pdb's does): its answer says so.
    const errors = conditionErrors(live.recording);
    return checked.map((b) => {
      const error = b.key === undefined ? undefined : errors.get(b.key);
      return error ? { ...b, message: `its condition raised ${error}: it stops there every time, as pdb does` } : b;
    });
  }

  /** Exception stops: `raised` (every exception, where raised) wins over `uncaught`. Kept until the
   * launch when sent before it. */
  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    this.run(response, async () => {
      const filters = args.filters ?? [];
      const unknown = filters.filter((f) => f !== 'raised' && f !== 'uncaught');
      if (unknown.length) throw new RequestError(`unknown exception filter ${unknown.join(', ')}: ndb has raised and uncaught`);
      this.exceptionMode = filters.includes('raised') ? 'raised' : filters.includes('uncaught') ? 'uncaught' : 'none';
      this.live?.setExceptions(this.exceptionMode);
      response.body = { breakpoints: filters.map(() => ({ verified: true })) };
    });
  }

  // ---- moving ----

  protected override nextRequest(response: DebugProtocol.NextResponse): void {
    this.step(response, { kind: 'step_over' });
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse): void {
    this.step(response, { kind: 'step_into' });
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse): void {
    this.step(response, { kind: 'step_return' });
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse): void {
    response.body = { allThreadsContinued: true };
    this.step(response, { kind: 'continue' });
  }

  /** Step back: the previous event (the app's "Step back"). */
  protected override stepBackRequest(response: DebugProtocol.StepBackResponse): void {
    this.step(response, { kind: 'inv_step_into' });
  }

  /** Back to the previous breakpoint hit, or to the start. */
  protected override reverseContinueRequest(response: DebugProtocol.ReverseContinueResponse): void {
    this.run(response, async () => {
      const live = this.running();
      if (live.engine === 'neural') throw new RequestError('reverse continue needs the recording: use engine "real" or "both"');
      const reason = await reverseContinue(live);
      return () => this.report(reason);
    });
  }

  /** Back to the call of a frame: its arguments (the app's "Back to call"). */
  protected override restartFrameRequest(response: DebugProtocol.RestartFrameResponse, args: DebugProtocol.RestartFrameArguments): void {
    this.run(response, async () => {
      const live = this.running();
      const frames = this.frames(live);
      if (!frames.some((f) => f.id === args.frameId)) throw new RequestError(`there is no frame ${args.frameId} at this stop`);
      const reason = await backToCall(live, frames, args.frameId);
      return () => this.report(reason);
    });
  }

  private step(response: DebugProtocol.Response, action: Action): void {
    this.run(response, async () => {
      const reason = await move(this.running(), action);
      return () => this.report(reason);
    });
  }

  /** After a move: a stop, or the end of the program. */
  private report(reason: StopReason): void {
    const live = this.live;
    if (!live) return;
    this.vars.reset();
    const shown = this.shownPrediction();
    if (shown && !('unparseable' in shown) && shown.event === 'exit') {
      this.sendEvent(new OutputEvent(`The model predicts that the program ends here (${shown.status}).\n`, 'console'));
      this.end(0);
      return;
    }
    if (shown && 'unparseable' in shown) this.sendEvent(new OutputEvent(`The model's prediction could not be read: ${shown.unparseable}\n`, 'stderr'));
    const state = live.state;
    if (live.engine !== 'neural') {
      const cut = state.event === 'entry' ? undefined : { truncated: state.stdout_truncated === true, total: live.recording.stdout_total };
      for (const chunk of this.output.at(state.event === 'entry' ? '' : state.stdout, cut)) this.sendEvent(new OutputEvent(chunk.text, chunk.category));
    }
    if (state.event === 'exit' && live.engine !== 'neural') {
      if (state.exit_code !== undefined) {
        // sys.exit(…): a normal end with its code (pdb's words); `sys.exit("message")` wrote its
        // message to stderr as Python does, after the last event
        const rec = live.recording;
        const said = (rec.stderr ?? '').slice(rec.events[rec.events.length - 1]?.err ?? 0);
        if (said) this.sendEvent(new OutputEvent(said, 'stderr'));
        this.sendEvent(new OutputEvent(`The program exited via sys.exit(). Exit status: ${state.exit_code}\n`, 'console'));
      } else if (state.status !== 'normal') this.sendEvent(new OutputEvent(`${dapCutNotice(live) ?? inDapWords(state.message ?? state.status)}\n`, 'stderr'));
      this.end(state.exit_code ?? (state.status === 'normal' ? 0 : 1));
      return;
    }
    const event = new StoppedEvent(reason, THREAD_ID) as DebugProtocol.StoppedEvent;
    if (reason === 'breakpoint') {
      const e = live.recording.events[live.position];
      const key = e ? eventKey(live.recording, e) : -1;
      event.body.hitBreakpointIds = this.breakpoints.filter((b) => b.key === key).map((b) => b.id);
    }
    if (reason === 'entry') event.body.description = 'Stopped at the call of the entry function';
    if (reason === 'exception' && state.event !== 'exit' && state.event !== 'entry') {
      event.body.description = `Exception raised: ${inDapWords(state.value ?? '')}`;
      event.body.text = inDapWords(state.value ?? '');
    }
    if (state.event !== 'exit' && state.event !== 'entry' && state.condition_error) {
      this.sendEvent(new OutputEvent(`ndb: the breakpoint's condition raised ${state.condition_error} (it stops here, as pdb does)\n`, 'console'));
    }
    this.sendEvent(event);
  }

  private end(exitCode: number): void {
    this.ended = true;
    this.sendEvent(new ExitedEvent(exitCode));
    this.sendEvent(new TerminatedEvent());
  }

  /** `engine: neural` shows the model's stop; null when the stop shown is the real one. */
  private shownPrediction(): ParseResult | null {
    const live = this.live;
    if (!live || live.engine !== 'neural') return null;
    return live.prediction?.predicted ?? null;
  }

  // ---- what is shown at a stop ----

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    response.body = { threads: [{ id: THREAD_ID, name: 'main' }] };
    this.sendResponse(response);
  }

  private frames(live: LiveSession): FrameView[] {
    const shown = this.shownPrediction();
    if (shown) {
      const line = 'unparseable' in shown || shown.event === 'exit' || shown.event === 'entry' ? 1 : shown.line;
      return [{ id: 1, name: `${functionAtLine(this.source, line)} (predicted)`, line, event: -1, depth: 0 }];
    }
    const frames = framesAt(live.recording, live.position);
    if (frames.length === 0 && live.position < 0) {
      // Before the first event (stepped back past the start): a frame to stand on.
      const first = live.recording.events[0];
      return [{ id: 1, name: '(before the program starts)', line: first ? shownLine(live.recording, first) : 1, event: -1, depth: 0 }];
    }
    return frames;
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    this.run(response, async () => {
      const live = this.session();
      const frames = this.ended ? [] : this.frames(live);
      const start = args.startFrame ?? 0;
      const end = args.levels ? start + args.levels : frames.length;
      const sourceOf = (f: FrameView): DebugProtocol.Source => {
        if (!f.file || !this.project || f.file === this.project.main) return { name: basename(this.program), path: this.program };
        const path = join(this.project.folder, f.file);
        return { name: basename(path), path };
      };
      response.body = {
        stackFrames: frames.slice(start, end).map((f) => ({
          id: f.id,
          name: f.name,
          source: sourceOf(f),
          line: this.convertDebuggerLineToClient(Math.max(1, f.line)),
          column: this.convertDebuggerColumnToClient(1),
          canRestart: f.event >= 0 || live.engine === 'neural',
        })),
        totalFrames: frames.length,
      };
    });
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    this.run(response, async () => {
      const live = this.session();
      const frames = this.ended ? [] : this.frames(live);
      const frame = frames.find((f) => f.id === args.frameId);
      if (!frame) throw new RequestError(`there is no frame ${args.frameId} at this stop`);
      const scopes: DebugProtocol.Scope[] = [];
      if (this.shownPrediction()) scopes.push({ name: 'Locals (predicted)', variablesReference: this.vars.ref({ kind: 'model' }), expensive: false, presentationHint: 'locals' });
      else if (frame.event >= 0) scopes.push({ name: 'Locals', variablesReference: this.vars.ref({ kind: 'locals', event: frame.event, top: frame === frames[0] }), expensive: false, presentationHint: 'locals' });
      if (live.engine === 'both' && frame === frames[0]) scopes.push({ name: 'Predicted', variablesReference: this.vars.ref({ kind: 'predicted' }), expensive: false });
      response.body = { scopes };
    });
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    this.run(response, async () => {
      const live = this.session();
      const node = this.vars.get(args.variablesReference);
      if (!node) throw new RequestError('these variables belong to an earlier stop');
      let variables: DebugProtocol.Variable[];
      switch (node.kind) {
        case 'locals':
          variables = localsRows(live.recording, node.event, node.top).map((r) => this.vars.variable(r, true, r.name.startsWith('(') ? undefined : r.name));
          break;
        case 'model': {
          const p = this.shownPrediction();
          variables = p ? modelRows(p).map((r) => this.vars.variable(r)) : [];
          break;
        }
        case 'predicted': {
          const step = live.prediction;
          const rows = step
            ? predictedRows(live.state, step.predicted, step.comparison, step.confidence)
            : [{ name: '(not predicted)', value: 'the model predicts the stop after each step; this stop was given (the start, an edit or a jump)' }];
          variables = rows.map((r) => this.vars.variable(r, false));
          break;
        }
        case 'repr':
          variables = this.vars.children(node);
          break;
      }
      response.body = { variables };
    });
  }

  /** What-if: the program runs again with the assignment made at this stop, as in the app. */
  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    this.run(response, async () => {
      const live = this.running();
      if (live.engine === 'neural') throw new RequestError('what-if edits run the real program: use engine "real" or "both"');
      const node = this.vars.get(args.variablesReference);
      if (!node || node.kind !== 'locals' || !node.top || node.event !== live.position) {
        throw new RequestError('only a local of the current frame can be set (the what-if edit is made at this stop)');
      }
      await live.edit(args.name, args.value);
      const value = own(live.recording.events[live.position]?.locals, args.name) ?? args.value;
      const v = this.vars.variable({ name: args.name, value });
      response.body = { value, variablesReference: v.variablesReference };
      return () => {
        if (this.invalidatedEvents) this.sendEvent(new InvalidatedEvent(['variables'], THREAD_ID));
      };
    });
  }

  /** Watch, hover and the debug console: a local's repr, or the expression evaluated in the
   * frame (the program runs again to this stop and evaluates it once there). */
  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    this.run(response, async () => {
      const live = this.session();
      if (this.ended) throw new RequestError('the program has ended');
      const shown = this.shownPrediction();
      let result: { value: string } | { error: string } | { unknown: string };
      if (shown) {
        const locals = 'unparseable' in shown || shown.event === 'exit' || shown.event === 'entry' ? {} : (shown.locals ?? {});
        result = await (await this.host!).evaluateOnLocals(args.expression, locals);
      } else {
        const frames = this.frames(live);
        const frame = args.frameId === undefined ? frames[0] : frames.find((f) => f.id === args.frameId);
        if (!frame || frame.event < 0) throw new RequestError('there is no frame to evaluate in at this stop');
        result = await live.evaluate(args.expression, frame.event);
      }
      if ('error' in result) throw new RequestError(result.error);
      if ('unknown' in result) throw new RequestError(`the model's locals do not determine it: ${result.unknown}`);
      const v = this.vars.variable({ name: args.expression, value: result.value }, true, shown ? undefined : args.expression);
      response.body = { result: result.value, variablesReference: v.variablesReference };
    });
  }
}

/** The engine's words for a program's input() without input name MCP's and the app's ways to
 * give it; a DAP client gives it in launch.json. */
function inDapWords(text: string): string {
  return text.replace("(MCP start_session's `stdin`, the app's Input field)", '(launch.json\'s "stdin": one line per input() call)');
}

function readProgram(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new RequestError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? describe(err)}`);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
