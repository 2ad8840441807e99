// Words for the status line: what the debugger is stopped at, how the program ended, and the
// note beside it. Pure functions of a snapshot of the session. They speak of where the run is,
// never of how it will end: a lesson's first stop does not give away its exception (issue 46).

import { asksForInput } from '../core/liveInput';
import type { DebugState } from '../core/state';
import type { Position, Recording, TraceEvent } from '../core/trace';
import { unrecordedRaise } from '../core/traceback';
import type { Edit } from '../core/whatIf';
import type { EngineStage } from '../realEngine/browser/client';
import { exceptionText } from './exceptionText';
import { count, cutOffOf, DEFAULT_LIMITS, describeCutOff, type RunLimits } from './runEnd';

export function describeStop(rec: Recording, state: DebugState, limits: RunLimits = DEFAULT_LIMITS): string {
  switch (state.event) {
    case 'entry':
      return 'At the entry: nothing has run yet. Press Step into to start.';
    case 'exit':
      return describeExit(rec, limits);
    case 'call':
      if (state.resumed) return `${state.function} resumes after its ${suspension(rec, state.line)} (line ${state.line})`;
      return state.function === '<module>' && state.line < 1
        ? 'start of the module'
        : `call of ${state.function} (line ${state.line})`;
    case 'line':
      return `line ${state.line} in ${state.function}`;
    case 'return':
      if (state.raising && state.function === '<module>')
        return `the module stops at line ${state.line}: nothing caught the exception ${exceptionText(state.value ?? '')}`;
      if (state.raising) return `${state.function} stops at line ${state.line} because of an exception, which goes on to its caller: ${exceptionText(state.value ?? '')}`;
      if (state.yielded) {
        return suspension(rec, state.line) === 'await'
          ? `${state.function} awaits, suspended (line ${state.line})`
          : `${state.function} yields ${state.value ?? 'None'} (line ${state.line})`;
      }
      // The module returns nothing anyone sees: its end is the end of the program's code.
      if (state.function === '<module>') return `end of the module (line ${state.line}): its last line has run`;
      return `${state.function} returns ${state.value ?? 'None'} (line ${state.line})`;
    case 'exception':
      return `exception at line ${state.line} in ${state.function}: ${exceptionText(state.value ?? '')}`;
  }
}

/** What suspended a generator or coroutine at `line`: an await where the line says so (and does
 * not yield), else a yield (`yield`, `yield from`). */
export function suspension(rec: Recording, line: number): 'yield' | 'await' {
  const text = rec.source.split('\n')[line - 1] ?? '';
  return /\bawait\b/.test(text) && !/\byield\b/.test(text) ? 'await' : 'yield';
}

export function describeExit(rec: Recording, limits: RunLimits = DEFAULT_LIMITS): string {
  const exit = rec.exit;
  switch (exit.status) {
    case 'normal':
      return rec.call.trim() !== '' && exit.value !== undefined
        ? `Program finished: returned ${exit.value}`
        : 'Program finished.';
    case 'exception':
      return `Program ended with an uncaught exception: ${exit.message ?? exit.exc_type ?? 'unknown'}${exceptionHint(rec)}`;
    case 'budget':
    case 'timeout': {
      const cut = cutOffOf(rec);
      return cut ? describeCutOff(cut, limits) : `Stopped: ${exit.message ?? 'a limit was reached'}.`;
    }
    case 'syntax_error': {
      const where = exit.line !== undefined ? ` at line ${exit.line}${exit.column !== undefined ? `, column ${exit.column}` : ''}` : '';
      return `Syntax error${where}: ${exit.message ?? ''} Fix the code and press Restart.`;
    }
    case 'call_error':
      return `The Call field is not valid: ${exit.message ?? ''}`;
    case 'error':
      return `The program could not start: ${exit.message ?? ''}`;
    case 'edit_error':
      return `The edit could not be made: ${exit.message ?? ''}`;
  }
}

/** The status while the code whose last run did not finish waits (a reload runs it no more). */
export const UNFINISHED_RUN = 'The last run of this code did not finish, so it was not run again. Press "Run it again" to run it.';

/** The note where the program asked for a line its input did not have (input() typed live). */
export const INPUT_ASKED = 'The program is waiting for a line of input: type it in "Program input", under Output, and press Enter to go on.';

/** Where a RecursionError that stopped the tracer itself was raised (core/traceback.ts): the
 * deepest call's line, whose call ran out of stack. */
function recursionRaised(rec: Recording, state: DebugState): string {
  const depth = state.event === 'entry' || state.event === 'exit' ? 0 : state.depth;
  const where = state.event === 'entry' || state.event === 'exit' ? '' : `line ${state.line} in ${state.function}, ${count(depth + 1)} calls deep: `;
  return `${where}the call on this line raises ${rec.exit.message ?? 'RecursionError'}`;
}

/** What a beginner needs beside some uncaught exceptions: where input() reads from, how deep a
 * recursion went. */
function exceptionHint(rec: Recording): string {
  if (rec.exit.exc_type === 'EOFError' && /EOF when reading a line/.test(rec.exit.message ?? ''))
    return '. input() found no more lines in the Input field (one line per input() call).';
  if (rec.exit.exc_type === 'RecursionError') {
    const deepest = rec.events.reduce<TraceEvent | null>((d, e) => (!d || e.depth > d.depth ? e : d), null);
    if (deepest) return ` (after ${count(deepest.depth + 1)} nested calls, the deepest of ${deepest.function} at line ${deepest.line})`;
  }
  return '';
}

/** A note while stepping through a run that a limit or the user's Stop cut off: the recording
 * stops short, whatever the program would have done (null for every other run). It never tells how
 * a program ends: an uncaught exception is said where it happens, so a lesson's first stop gives
 * nothing away (issue 46). */
export function abnormalEnd(rec: Recording): string | null {
  if (rec.events.length === 0) return null; // the exit message is all there is to see
  switch (rec.exit.status) {
    case 'budget':
    case 'timeout': {
      const at = count(rec.events.length);
      if (cutOffOf(rec)?.byUser) return `Stopped as you asked at event ${at}: you can step through what was recorded.`;
      return `This run was cut off at event ${at} (${rec.exit.status === 'budget' ? 'the event budget' : 'the time limit'}): you can step through what was recorded.`;
    }
    default:
      return null;
  }
}

/** What the status line is made from: a snapshot of the session, so that the words are a pure
 * function of it (and testable without an engine). */
export interface StatusInput {
  engine: 'loading' | 'ready' | 'failed';
  /** An engine failure (shown until the next recording). */
  error: string | null;
  busy: boolean;
  /** Code that arrived by link waits for consent. */
  sharedPending: boolean;
  /** What waits is code whose last run did not finish (the page stopped during it). */
  unfinished?: boolean;
  recording: Recording | null;
  state: DebugState | null;
  position: Position;
  /** The code or the call changed since the recording. */
  dirty: boolean;
  /** Null until the engine has loaded. */
  interruptible: boolean | null;
  edits: readonly Edit[];
  breakpoints: readonly number[];
  /** The run of the program shown was stopped by restarting Python: by the user's Stop, or
   * because it did not stop at its time limit (null: it was not). */
  halted?: 'user' | 'limit' | null;
  /** How far Python's start has come, while it loads. */
  loadStage?: EngineStage | null;
  /** The limits the recording was made with (default: DEFAULT_LIMITS). */
  limits?: RunLimits;
  /** The page is in a frame (an embed), which cannot be cross-origin isolated: not worth a note. */
  framed?: boolean;
  /** The program waits at this stop for a line of input (input() typed live): the step the user
   * took goes on once it is typed. */
  inputWaiting?: boolean;
}

const STAGES: Record<EngineStage, string> = {
  fetching: 'Loading Python (Pyodide): fetching it…',
  restoring: 'Loading Python (Pyodide): restoring the interpreter saved on your last visit…',
  starting: 'Loading Python (Pyodide): starting the interpreter (the first visit takes longest)…',
  tracer: 'Loading Python (Pyodide): loading the tracer…',
};

/** `stopped`: a run cut off by a limit (it did not end, and may still). */
export type StatusKind = 'info' | 'error' | 'done' | 'stopped';

/** The status line's main text. */
export function statusText(s: StatusInput): string {
  if (s.engine === 'failed') return s.error ?? 'The Python engine could not be loaded. Reload the page to try again.';
  if (s.halted) {
    const why = s.halted === 'user' ? 'Stopped as you asked: Python was restarted.' : (s.error ?? 'The run was stopped: Python was restarted.');
    return `${why} ${s.engine === 'ready' ? 'Press Restart to run the program again.' : 'Restarting Python…'}`;
  }
  if (s.error) return s.engine === 'loading' ? `${s.error} Restarting Python…` : s.error;
  if (s.engine === 'loading') return s.loadStage ? STAGES[s.loadStage] : 'Loading Python (Pyodide)…';
  if (s.busy) return 'Running the program… (Stop ends it)';
  if (s.sharedPending && s.unfinished) return UNFINISHED_RUN;
  if (s.sharedPending) return 'Shared code is shown but has not run. Press "Run shared code" to run it.';
  if (!s.recording || !s.state) return 'Press Step into to start.';
  if (s.inputWaiting && !s.dirty) return `${describeStop(s.recording, s.state, s.limits)}: waiting for input`;
  if (!s.dirty && unrecordedRaise(s.recording) === s.position) return recursionRaised(s.recording, s.state);
  return describeStop(s.recording, s.state, s.limits);
}

/** The note under it, most important first: a stale recording, a run cut short, the edits in
 * force, a condition that raised, the missing cross-origin isolation. */
export function statusNote(s: StatusInput): string | null {
  // Without cross-origin isolation (a host without COOP/COEP and no service worker to add them)
  // there is no SharedArrayBuffer: no interrupt buffer, one thread for the model.
  const isolation =
    s.interruptible === false && !s.framed
      ? 'This page is not cross-origin isolated: a long computation is stopped by restarting Python, and the model runs on one thread.'
      : null;
  if (s.engine !== 'ready' || s.busy || s.sharedPending || !s.recording) return isolation;
  if (s.dirty) return 'The code, the call or the input changed: the next action runs the program again.';
  if (s.inputWaiting || asksForInput(s.recording, s.position)) return INPUT_ASKED;
  return (s.position < s.recording.events.length ? abnormalEnd(s.recording) : null) ?? editsNote(s.edits) ?? conditionNote(s) ?? isolation;
}

export function statusKind(s: StatusInput): StatusKind {
  if (s.error || s.engine === 'failed') return 'error';
  if (!s.busy && s.state?.event === 'exit') {
    if (s.state.status === 'normal') return 'done';
    return s.state.status === 'budget' || s.state.status === 'timeout' ? 'stopped' : 'error';
  }
  return 'info';
}

/** The edits in force, in words. */
function editsNote(edits: readonly Edit[]): string | null {
  if (edits.length === 0) return null;
  const list = edits.map((e) => `${e.name} = ${e.expr}`).join(', ');
  return `What if: ${list} (step back before the edit to undo it).`;
}

/** A condition that raised where the debugger stopped (bdb stops then, and so does ndb). */
function conditionNote(s: StatusInput): string | null {
  const e = s.recording && s.position >= 0 ? s.recording.events[s.position] : undefined;
  if (!e?.hit_error || !s.breakpoints.includes(e.line)) return null;
  return `The condition of the breakpoint at line ${e.line} raised ${e.hit_error}: stopped here, as pdb does.`;
}
