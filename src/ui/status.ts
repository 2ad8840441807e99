// Words for the status line: what the debugger is stopped at, how the program ended, and the
// note beside it. Pure functions of a snapshot of the session.

import type { DebugState } from '../core/state';
import type { ExitInfo, Position, Recording } from '../core/trace';
import type { Edit } from '../core/whatIf';
import type { EngineStage } from '../realEngine/client';

export function describeStop(rec: Recording, state: DebugState): string {
  switch (state.event) {
    case 'entry':
      return 'At the entry: nothing has run yet. Press Step into to start.';
    case 'exit':
      return describeExit(rec.exit, rec.call);
    case 'call':
      return state.function === '<module>' && state.line < 1
        ? 'start of the module'
        : `call of ${state.function} (line ${state.line})`;
    case 'line':
      return `line ${state.line} in ${state.function}`;
    case 'return':
      return state.raising
        ? `${state.function} is left by an exception at line ${state.line}: ${state.value ?? ''}`
        : `${state.function} returns ${state.value ?? 'None'} (line ${state.line})`;
    case 'exception':
      return `exception at line ${state.line} in ${state.function}: ${state.value ?? ''}`;
  }
}

export function describeExit(exit: ExitInfo, call: string): string {
  switch (exit.status) {
    case 'normal':
      return call.trim() !== '' && exit.value !== undefined
        ? `Program finished: returned ${exit.value}`
        : 'Program finished.';
    case 'exception':
      return `Program ended with an uncaught exception: ${exit.message ?? exit.exc_type ?? 'unknown'}`;
    case 'budget':
      return `${exit.message ?? 'Stopped: the event budget is used up'}. Check for an endless loop or recursion.`;
    case 'timeout':
      return `${exit.message ?? 'Stopped: the time limit was reached'}. Check for an endless loop.`;
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

/** A warning shown while stepping through a run that did not end normally (null when it did). */
export function abnormalEnd(rec: Recording): string | null {
  if (rec.events.length === 0) return null; // the exit message is all there is to see
  switch (rec.exit.status) {
    case 'budget':
    case 'timeout':
      return `This run was cut short: ${describeExit(rec.exit, rec.call)} You can step through what was recorded.`;
    case 'exception':
      return `This run ends with an uncaught exception: ${rec.exit.message ?? ''}`;
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
}

const STAGES: Record<EngineStage, string> = {
  fetching: 'Loading Python (Pyodide): fetching it…',
  restoring: 'Loading Python (Pyodide): restoring the interpreter saved on your last visit…',
  starting: 'Loading Python (Pyodide): starting the interpreter (the first visit takes longest)…',
  tracer: 'Loading Python (Pyodide): loading the tracer…',
};

export type StatusKind = 'info' | 'error' | 'done';

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
  if (s.sharedPending) return 'Shared code is shown but has not run. Press "Run shared code" to run it.';
  if (!s.recording || !s.state) return 'Press Step into to start.';
  return describeStop(s.recording, s.state);
}

/** The note under it, most important first: a stale recording, a run cut short, the edits in
 * force, a condition that raised, the missing cross-origin isolation. */
export function statusNote(s: StatusInput): string | null {
  // Without cross-origin isolation (a host without COOP/COEP and no service worker to add them)
  // there is no SharedArrayBuffer: no interrupt buffer, one thread for the model.
  const isolation =
    s.interruptible === false
      ? 'This page is not cross-origin isolated: a long computation is stopped by restarting Python, and the model runs on one thread.'
      : null;
  if (s.engine !== 'ready' || s.busy || s.sharedPending || !s.recording) return isolation;
  if (s.dirty) return 'The code or the call changed: the next action runs the program again.';
  return (s.position < s.recording.events.length ? abnormalEnd(s.recording) : null) ?? editsNote(s.edits) ?? conditionNote(s) ?? isolation;
}

export function statusKind(s: StatusInput): StatusKind {
  if (s.error || s.engine === 'failed') return 'error';
  if (!s.busy && s.state?.event === 'exit') return s.state.status === 'normal' ? 'done' : 'error';
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
