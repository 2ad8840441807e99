// "Which call returns this?" at a return: the model's sampled predecessors (inv_step_call) made
// into calls of the function as its def takes them (core/callBuilder.ts), each run by the real
// engine to see whether it returns the value observed there. Shared by the app's Guess inputs,
// MCP's guess_inputs and the CLI.

import { guessedCallMaker } from '../core/callBuilder';
import type { ParseResult } from '../core/format';
import type { Position, Recording } from '../core/trace';
import type { PythonHost } from '../realEngine/engineProtocol';
import type { RecordOptions } from '../realEngine/recordOptions';
import { CHECK_LIMITS } from '../core/limits';

export interface Candidate {
  call: string;
  /** 'yes': run, it returns the observed value; 'no': another value; 'error': it raised or was
   * stopped; 'pending': not run yet. */
  verdict: 'pending' | 'yes' | 'no' | 'error';
  /** What the call returned, or why it could not run. */
  got?: string;
}

/** The candidates, and what was drawn but not shown: no call could be made of it (the model wrote
 * no call, left out an argument, or a value that is no expression), or it repeats one. */
export interface GuessReport {
  candidates: Candidate[];
  drawn: number;
  duplicates: number;
  unusable: number;
}

/** A run of a candidate: limits of its own, as a call of the program's function (core/limits.ts). */
export { CHECK_LIMITS };

/** Why guessing cannot start at `position` (null: it can). */
export function guessProblem(recording: Recording, position: Position): string | null {
  const here = recording.events[position];
  if (!here || here.event !== 'return' || here.raising) return 'guessing the inputs works at a return: step to one first (e.g. step_return)';
  return null;
}

/** The calls the predicted states make, each run on `host` with the program's source; `onChange`
 * is told as the verdicts come in (the app shows them one by one). */
export async function checkGuesses(
  host: PythonHost,
  run: { source: string; options?: RecordOptions },
  recording: Recording,
  position: Position,
  predicted: readonly ParseResult[],
  onChange: (candidates: readonly Candidate[]) => void = () => undefined,
): Promise<GuessReport> {
  const problem = guessProblem(recording, position);
  if (problem) throw new Error(problem);
  const observed = recording.events[position]!.value ?? 'None';
  const makeCall = guessedCallMaker(recording, position);
  const report: GuessReport = { candidates: [], drawn: predicted.length, duplicates: 0, unusable: 0 };
  for (const state of predicted) {
    const call = makeCall(state);
    if (call === null) report.unusable++;
    else if (report.candidates.some((c) => c.call === call)) report.duplicates++;
    else report.candidates.push({ call, verdict: 'pending' });
  }
  onChange(report.candidates);
  const cannotRun = new Set<string>();
  for (const [i, candidate] of [...report.candidates.entries()]) {
    try {
      const check = await host.record(run.source, candidate.call, { ...run.options, ...CHECK_LIMITS });
      if (check.exit.status === 'call_error') {
        // a predicted value that is no expression (a repr such as `<Account object at …>`): no call
        cannotRun.add(candidate.call);
        continue;
      }
      if (check.exit.status === 'normal') {
        const got = check.exit.value ?? 'None';
        report.candidates[i] = { call: candidate.call, verdict: got === observed ? 'yes' : 'no', got };
      } else report.candidates[i] = { call: candidate.call, verdict: 'error', got: check.exit.message ?? check.exit.status };
    } catch (err) {
      report.candidates[i] = { call: candidate.call, verdict: 'error', got: err instanceof Error ? err.message : String(err) };
    }
    onChange(report.candidates);
  }
  report.candidates = report.candidates.filter((c) => !cannotRun.has(c.call));
  report.unusable += cannotRun.size;
  onChange(report.candidates);
  return report;
}

/** The words under the candidates: how many return the value, and what was drawn but not shown. */
export function guessSummary(report: GuessReport, observed: string): string {
  const yes = report.candidates.filter((c) => c.verdict === 'yes').length;
  const dropped = [report.unusable > 0 ? `${report.unusable} not a call` : '', report.duplicates > 0 ? `${report.duplicates} repeated` : ''].filter(Boolean).join(', ');
  return `${yes} of ${report.candidates.length} candidate calls return ${observed}${dropped ? ` (${report.drawn} drawn: ${dropped})` : ''}.`;
}
