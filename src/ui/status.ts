// Words for the status line: what the debugger is stopped at, and how the program ended.

import type { DebugState } from '../core/state';
import type { ExitInfo, Recording } from '../core/trace';

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
