// Runs one debugging request against the real engine: record, then apply actions.

import { parseStep, type Step } from '../core/actions';
import { DebugSession, type Rerun } from '../core/debugSession';
import type { DebugState } from '../core/state';
import type { Recording } from '../core/trace';
import { EditError, type Edit } from '../core/whatIf';
import type { PythonHost } from '../realEngine/pythonHost';
import type { RecordOptions } from '../realEngine/recordOptions';
import { moveWithExceptions, type ExceptionMode } from './exceptionStops';

/** What every run of a program is given besides its limits: its other files, its arguments. */
export type ProgramRun = Pick<RecordOptions, 'files' | 'blobs' | 'mainFile' | 'argv'>;

export class ProgramError extends Error {}

/** Problems that leave nothing to debug (the program never started); `file` names the program
 * in a syntax error's place. */
export function startProblem(rec: Recording, file = 'main.py'): string | undefined {
  const { status, message, line, column } = rec.exit;
  if (status === 'syntax_error') return `${file}:${line ?? 1}:${column ?? 1}: ${message ?? 'SyntaxError'}`;
  if (status === 'call_error' || status === 'error') return message ?? status;
  return undefined;
}

export async function recordOrThrow(engine: PythonHost, source: string, call: string, maxEvents?: number, edits?: readonly Edit[], run: ProgramRun = {}): Promise<Recording> {
  const options = { ...run, ...(maxEvents === undefined ? {} : { maxEvents }), ...(edits?.length ? { edits } : {}) };
  const rec = await engine.record(source, call, options);
  const problem = startProblem(rec, run.mainFile);
  if (problem) throw new ProgramError(problem);
  return rec;
}

/** The re-run a what-if edit needs: the same program and call with the edits made. */
export function rerunWith(engine: PythonHost, rec: Recording, maxEvents?: number, run: ProgramRun = {}): Rerun {
  return (edits) => {
    const options = { ...run, ...(maxEvents === undefined ? {} : { maxEvents }), edits };
    return engine.record(rec.source, rec.call, options);
  };
}

/** A bad `set:` item names its place in the list. */
export async function applyEdit(session: DebugSession, step: Extract<Step, { kind: 'set' }>, index: number, rerun: Rerun): Promise<void> {
  try {
    await session.edit(step.name, step.expr, rerun);
  } catch (err) {
    if (err instanceof EditError) throw new ProgramError(`action ${index + 1} (set:${step.name}=${step.expr}): ${err.message}`);
    throw err;
  }
}

/** Reverse continue (gdb's `reverse-continue`): a move over the recording, not one of the model's
 * actions, so it is a step of a run's list and not an Action. */
export const INV_CONTINUE = { kind: 'inv_continue' } as const;

export type RunStep = Step | typeof INV_CONTINUE;

/** A list of steps as `--actions` writes them: actions, `set:` edits and `inv_continue`. */
export function parseRunSteps(text: string): RunStep[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => (t === 'inv_continue' || t === 'reverse_continue' ? INV_CONTINUE : parseStep(t)));
}

/** Where reverse continue goes: the previous stop on a breakpoint (hit), else the first event;
 * never forward (from before the first event, the app's entry, it stays). */
export function reverseContinueTarget(session: DebugSession): { pos: number; hit: boolean } {
  const hit = session.navigator.previousBreakHit();
  const start = session.recording.events.length > 0 ? 0 : -1;
  return { pos: hit ?? Math.min(start, session.position), hit: hit !== null };
}

/** The initial state (the entry's call event), then the state after each step; a `set:` step's
 * state is the same stop with the edited locals. */
export async function debugStates(
  rec: Recording,
  steps: readonly RunStep[],
  breakpoints: readonly number[],
  rerun: Rerun,
  exceptions: ExceptionMode = 'none',
): Promise<DebugState[]> {
  const session = new DebugSession(rec, breakpoints);
  const states: DebugState[] = [session.state];
  for (const [i, step] of steps.entries()) {
    if (step.kind === 'set') await applyEdit(session, step, i, rerun);
    else if (step.kind === 'inv_continue') session.jump(reverseContinueTarget(session).pos);
    else moveWithExceptions(session, step, exceptions);
    states.push(session.state);
  }
  return states;
}
