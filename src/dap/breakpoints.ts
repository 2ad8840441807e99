// setBreakpoints: which requested breakpoints can stop (a line with code, a condition that
// parses, a hit count the navigator knows), and what they become for the session.

import type { BreakCondition } from '../core/navigator';

export interface RequestedBreakpoint {
  line: number;
  condition?: string;
  hitCondition?: string;
}

export interface CheckedBreakpoint {
  id: number;
  line: number;
  verified: boolean;
  /** Why it is not verified. */
  message?: string;
  /** Its condition and hit count, when it has one. */
  spec?: BreakCondition;
}

/**
 * A hit count as bdb's `ignore` gives it: the breakpoint stops from the N-th time its line is
 * reached (with its condition true) on. `N` and `>= N` say that, `> N` is `>= N+1`; anything
 * else (`== N`, `% N`) has no bdb equivalent and is refused with the reason.
 */
export function parseHitCondition(text: string): number | { error: string } {
  const m = /^\s*(>=|>)?\s*(\d+)\s*$/.exec(text);
  if (!m) return { error: `hit count '${text}' is not understood: write N (or >= N) to stop from the N-th hit on` };
  const n = Number(m[2]) + (m[1] === '>' ? 1 : 0);
  if (n < 1) return { error: 'a hit count starts at 1' };
  return n;
}

export interface CheckContext {
  /** The lines of the program that hold code, or the reason there are none (a syntax error). */
  codeLines: ReadonlySet<number> | { error: string };
  expressionError(expr: string): Promise<string | null>;
  nextId(): number;
}

export async function checkBreakpoints(requested: readonly RequestedBreakpoint[], ctx: CheckContext): Promise<CheckedBreakpoint[]> {
  const out: CheckedBreakpoint[] = [];
  for (const bp of requested) {
    const id = ctx.nextId();
    const refuse = (message: string) => out.push({ id, line: bp.line, verified: false, message });
    if (!(ctx.codeLines instanceof Set)) {
      refuse(`the program does not compile: ${(ctx.codeLines as { error: string }).error}`);
      continue;
    }
    if (!ctx.codeLines.has(bp.line)) {
      refuse(`no code on line ${bp.line}: the program can never stop there`);
      continue;
    }
    const spec: BreakCondition = {};
    const condition = bp.condition?.trim();
    if (condition) {
      const bad = await ctx.expressionError(condition);
      if (bad) {
        refuse(`the condition \`${condition}\` is not a Python expression: ${bad}`);
        continue;
      }
      spec.condition = condition;
    }
    if (bp.hitCondition?.trim()) {
      const hits = parseHitCondition(bp.hitCondition);
      if (typeof hits !== 'number') {
        refuse(hits.error);
        continue;
      }
      if (hits > 1) spec.hitCount = hits;
    }
    out.push(spec.condition || spec.hitCount ? { id, line: bp.line, verified: true, spec } : { id, line: bp.line, verified: true });
  }
  return out;
}
