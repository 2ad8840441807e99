// `ndb debug --batch`: one debugging request a line (a file, its call, actions and breakpoints),
// each run in an interpreter of its own, each answered with its states or its error. A bad
// request fails only itself.

import { parseMoveStep } from '../core/actions';
import type { PythonHost } from '../realEngine/engineProtocol';
import { listStates } from './actionList';
import { LiveSession, type LiveOptions } from './liveSession';
import { ProgramError } from './programSession';

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
  /** What every request's session is started with (its engine and model, its exception stops):
   * the request adds its breakpoints. */
  session: Omit<LiveOptions, 'breakpoints' | 'limits'>;
  maxEvents?: number;
  /** Each request's time limit, in seconds. */
  timeLimit?: number;
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
      const actions = (req.actions ?? []).map((a) => parseMoveStep(String(a)));
      const breakpoints = (req.breakpoints ?? []).map(Number);
      // One program, one interpreter: a request's states never depend on what another's program did.
      const own = engine.forOwner(`batch request ${i}`);
      const limits = { ...(run.maxEvents === undefined ? {} : { maxEvents: run.maxEvents }), ...(run.timeLimit === undefined ? {} : { timeLimit: run.timeLimit }) };
      // the same session as every face's: its moves, exception stops and the model beside it
      const live = await LiveSession.start(own, run.readProgram(req.file), req.call ?? '', { ...run.session, breakpoints, limits });
      yield { id, states: await listStates(live, actions) };
    } catch (err) {
      yield { id, line: i + 1, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
