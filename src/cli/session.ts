// Runs one debugging request against the real engine: record, then apply actions.

import type { Action } from '../core/actions';
import { Navigator } from '../core/navigator';
import { stateAt, type DebugState } from '../core/state';
import type { Recording } from '../core/trace';
import type { RealEngine } from '../runtime/realEngine';

export class ProgramError extends Error {}

/** Problems that leave nothing to debug (the program never started). */
export function startProblem(rec: Recording): string | undefined {
  const { status, message, line, column } = rec.exit;
  if (status === 'syntax_error') return `main.py:${line ?? 1}:${column ?? 1}: ${message ?? 'SyntaxError'}`;
  if (status === 'call_error' || status === 'error') return message ?? status;
  return undefined;
}

export function recordOrThrow(engine: RealEngine, source: string, call: string, maxEvents?: number): Recording {
  const rec = engine.record(source, call, maxEvents === undefined ? {} : { maxEvents });
  const problem = startProblem(rec);
  if (problem) throw new ProgramError(problem);
  return rec;
}

/** The initial state (the entry's call event), then the state after each action. */
export function debugStates(rec: Recording, actions: readonly Action[], breakpoints: readonly number[]): DebugState[] {
  const nav = new Navigator(rec, breakpoints);
  const states: DebugState[] = [stateAt(rec, nav.position)];
  for (const action of actions) states.push(stateAt(rec, nav.apply(action)));
  return states;
}
