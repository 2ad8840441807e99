// Breakpoints as an agent gives them: a line (of the main file), or {file?, line, condition?,
// hit_count?}; checked against the program's files in the session layer (session/breakpointSpecs.ts).

import { z } from 'zod';
import type { PythonHost } from '../../realEngine/pythonHost';
import { resolveBreakpoints, type BreakpointSpec, type ProgramFiles, type ResolvedBreakpoints } from '../../session/breakpointSpecs';

export const breakpointArg = z.union([
  z.number().int().min(1).max(1_000_000),
  z.object({
    file: z.string().max(4_096).optional(),
    line: z.number().int().min(1).max(1_000_000),
    condition: z.string().max(2_000).optional(),
    hit_count: z.number().int().min(1).max(1_000_000).optional(),
  }),
]);

/** What a list of breakpoints is, said once (the fields above carry no description each). */
export const BREAKPOINTS_HELP =
  'Lines of the main file, or {file?, line, condition?, hit_count?}: file relative to the program\'s folder ' +
  '(e.g. "pricing.py"); condition: stop only where this Python expression holds; hit_count: from that hit on';

export type BreakpointArg = number | { file?: string; line: number; condition?: string; hit_count?: number };

/** A breakpoint answer as the tools declare it. */
export const breakpointAnswer = z.unknown();

export type Verified = ResolvedBreakpoints;

export function verifyBreakpoints(host: PythonHost, program: ProgramFiles, given: readonly BreakpointArg[]): Promise<Verified> {
  const specs: BreakpointSpec[] = given.map((item) => {
    if (typeof item === 'number') return { line: item };
    const spec: BreakpointSpec = { line: item.line };
    if (item.file !== undefined) spec.file = item.file;
    if (item.condition !== undefined) spec.condition = item.condition;
    if (item.hit_count !== undefined) spec.hitCount = item.hit_count;
    return spec;
  });
  return resolveBreakpoints(host, program, specs);
}
