// `ndb debug --batch`: one debugging request a line (a file, its call, actions and breakpoints),
// each run in an interpreter of its own, each answered with its states or its error. A bad
// request fails only itself.

import { parseStep, type Step } from '../core/actions';
import type { Recording } from '../core/trace';
import type { Rerun } from '../core/debugSession';
import type { PythonHost } from '../realEngine/engineProtocol';
import { ProgramError, recordOrThrow, rerunWith } from './programSession';

/** One line of a batch file. */
export interface BatchRequest {
  id: unknown;
  file: string;
  call?: string;
  actions?: string[];
  breakpoints?: number[];
}

/** A request's answer: its states, or why it failed (`line` counts from 1). */
export type BatchAnswer = { id: unknown; states: readonly unknown[] } | { id: unknown; line: number; error: string };

export interface BatchRun {
  /** The program a request names (throws ProgramError when it cannot be read). */
  readProgram(file: string): string;
  /** The states of one request, recorded in `rec` (the real engine's, or the model's beside them). */
  states(rec: Recording, actions: Step[], breakpoints: number[], rerun: Rerun): Promise<readonly unknown[]>;
  maxEvents?: number;
}

/** Answers each request of a batch file's text, in order. */
export async function* answerBatch(text: string, engine: PythonHost, run: BatchRun): AsyncGenerator<BatchAnswer> {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    let id: unknown = null;
    try {
      const req = JSON.parse(line) as BatchRequest;
      if (typeof req !== 'object' || req === null || Array.isArray(req)) throw new ProgramError('a request is a JSON object: {"file": …, "call": …, "actions": […]}');
      id = req.id ?? null;
      if (typeof req.file !== 'string') throw new ProgramError('a request needs "file"');
      const actions = (req.actions ?? []).map((a) => parseStep(String(a)));
      const breakpoints = (req.breakpoints ?? []).map(Number);
      // One program, one interpreter: a request's states never depend on what another's program did.
      const own = engine.forOwner(`batch request ${i}`);
      const rec = await recordOrThrow(own, run.readProgram(req.file), req.call ?? '', run.maxEvents);
      yield { id, states: await run.states(rec, actions, breakpoints, rerunWith(own, rec, run.maxEvents)) };
    } catch (err) {
      yield { id, line: i + 1, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
