// Starting a program: recording it, and the problems that leave nothing to debug. Its moves are
// a LiveSession's (liveSession.ts, moves.ts), for every face.

import type { Rerun } from '../core/recordingSession';
import type { Recording } from '../core/trace';
import type { Edit } from '../core/whatIf';
import type { PythonHost } from '../realEngine/pythonHost';
import type { RecordOptions } from '../realEngine/recordOptions';

/** What every run of a program is given besides its event budget: its time limit, its other
 * files, its arguments. */
export type ProgramRun = Pick<RecordOptions, 'files' | 'blobs' | 'mainFile' | 'argv' | 'timeLimit'>;

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
