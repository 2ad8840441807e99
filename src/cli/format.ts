// `ndb format --trace TRACE.jsonl --actions a1,a2,… [--breakpoints L1,L2] [--start N]`: prints the
// trajectory text the model is trained on (the same bytes as `python3 -m training.format`).

import { readFileSync } from 'node:fs';
import { parseActionList, ActionSyntaxError } from '../core/actions';
import { renderTrajectory } from '../core/trajectory';
import { parseTraceJsonl } from '../core/traceJsonl';
import { checkKnown, parseLineList, stringOption, UsageError, type ParsedArgs } from './args';

export async function formatCommand(args: ParsedArgs, out: (line: string) => void): Promise<number> {
  checkKnown(args, ['trace', 'actions', 'breakpoints', 'start']);
  if (args.positionals.length > 0) throw new UsageError('format takes no FILE: use --trace TRACE.jsonl');
  const tracePath = stringOption(args, 'trace');
  if (tracePath === undefined) throw new UsageError('format needs --trace TRACE.jsonl (what `ndb trace --json` printed)');
  let actions;
  try {
    actions = parseActionList(stringOption(args, 'actions') ?? '');
  } catch (err) {
    if (err instanceof ActionSyntaxError) throw new UsageError(err.message);
    throw err;
  }
  const breakpoints = parseLineList(stringOption(args, 'breakpoints'), '--breakpoints');
  const startText = stringOption(args, 'start');
  let start: number | undefined;
  if (startText !== undefined) {
    start = Number(startText);
    if (!Number.isInteger(start)) throw new UsageError('--start must be an integer position (-1 = entry)');
  }
  let text: string;
  try {
    text = readFileSync(tracePath, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${tracePath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const rec = parseTraceJsonl(text);
  out(renderTrajectory(rec, actions, start === undefined ? { breakpoints } : { breakpoints, start }));
  return 0;
}
