// Breakpoints as an agent gives them, checked against the program: a line without code, a line
// past the end or a condition that does not parse is reported (verified: false, with why) and not
// set, never accepted silently.

import { z } from 'zod';
import type { BreakCondition } from '../../core/navigator';
import type { PythonHost } from '../../realEngine/pythonHost';
import { summarizeLines } from '../toolKit';

export const breakpointArg = z.union([
  z.number().int().positive(),
  z.object({
    line: z.number().int().positive().describe('A line with code'),
    condition: z.string().max(2_000).optional().describe('Stop only where this Python expression is true, e.g. "i > 10"'),
    hit_count: z.number().int().positive().optional().describe('Stop only from this hit on'),
  }),
]);

export interface Verified {
  lines: number[];
  conditions: Map<number, BreakCondition>;
  report: Array<{ line: number; verified: boolean; message?: string }>;
}

export async function verifyBreakpoints(host: PythonHost, source: string, given: ReadonlyArray<number | { line: number; condition?: string; hit_count?: number }>): Promise<Verified> {
  const info = await host.codeLines(source);
  const out: Verified = { lines: [], conditions: new Map(), report: [] };
  // a program that does not compile is refused when it starts, with its line and column
  if ('error' in info) return out;
  const total = source.split('\n').length;
  for (const item of given) {
    const { line, condition, hit_count } = typeof item === 'number' ? { line: item, condition: undefined, hit_count: undefined } : item;
    let message: string | undefined;
    if (line > total) message = `line ${line} is past the end of the program (${total} lines)`;
    else if (!info.lines.includes(line)) message = `line ${line} has no code (lines with code: ${summarizeLines(info.lines)})`;
    else if (condition !== undefined && condition.trim() !== '') {
      const error = await host.expressionError(condition);
      if (error) message = `the condition is not a Python expression: ${error}`;
    }
    if (message) {
      out.report.push({ line, verified: false, message });
      continue;
    }
    out.report.push({ line, verified: true });
    if (!out.lines.includes(line)) out.lines.push(line);
    const c: BreakCondition = {};
    if (condition !== undefined && condition.trim() !== '') c.condition = condition;
    if (hit_count !== undefined) c.hitCount = hit_count;
    if (c.condition !== undefined || c.hitCount !== undefined) out.conditions.set(line, c);
  }
  return out;
}
