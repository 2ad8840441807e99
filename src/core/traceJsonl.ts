// The `ndb trace --json` output: one JSON object per recorded event, then one closing
// {"event":"exit", …} line that carries what the events do not (source, call, code objects, stdout,
// exit status), so the file alone is enough to replay the recording (e.g. `ndb format --trace`).

import type { CodeInfo, ExitInfo, Recording, TraceEvent } from './trace';

export interface TraceExitLine extends Omit<ExitInfo, 'status'> {
  event: 'exit';
  status: ExitInfo['status'];
  source: string;
  call: string;
  codes: CodeInfo[];
  stdout: string;
  stdout_truncated?: boolean;
  /** A program of several files: the recording's `files` (its codes' `file` index them). */
  files?: string[];
}

export type TraceLine = (TraceEvent & { stdout: string }) | TraceExitLine;

export function toTraceLines(rec: Recording): TraceLine[] {
  const lines: TraceLine[] = rec.events.map((e) => ({ ...e, stdout: rec.stdout.slice(0, e.out) }));
  const exit: TraceExitLine = { event: 'exit', ...rec.exit, source: rec.source, call: rec.call, codes: rec.codes, stdout: rec.stdout };
  if (rec.stdout_truncated) exit.stdout_truncated = true;
  if (rec.files) exit.files = [...rec.files];
  lines.push(exit);
  return lines;
}

export class TraceFileError extends Error {}

export function fromTraceLines(lines: readonly unknown[]): Recording {
  const last = lines[lines.length - 1] as Partial<TraceExitLine> | undefined;
  if (!last || last.event !== 'exit' || typeof last.source !== 'string' || !Array.isArray(last.codes)) {
    throw new TraceFileError('not an `ndb trace --json` file: its last line must be the {"event":"exit", …} line');
  }
  const events: TraceEvent[] = lines.slice(0, -1).map((raw, i) => {
    const e = raw as Partial<TraceEvent> & { stdout?: string };
    if (typeof e.event !== 'string' || typeof e.line !== 'number' || typeof e.frame !== 'number') {
      throw new TraceFileError(`line ${i + 1} is not a trace event`);
    }
    const { stdout: _stdout, ...event } = e;
    return event as TraceEvent;
  });
  const { event: _event, source, call, codes, stdout, stdout_truncated, files, ...exit } = last as TraceExitLine;
  const rec: Recording = { source, call: call ?? '', events, codes, stdout: stdout ?? '', exit: exit as ExitInfo };
  if (stdout_truncated) rec.stdout_truncated = true;
  if (Array.isArray(files) && files.every((f) => typeof f === 'string')) rec.files = files;
  return rec;
}

export function parseTraceJsonl(text: string): Recording {
  const lines = text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l, i) => {
      try {
        return JSON.parse(l) as unknown;
      } catch {
        throw new TraceFileError(`line ${i + 1} is not JSON`);
      }
    });
  return fromTraceLines(lines);
}
