// pdb's numbered breakpoints (temporary, disabled, conditional) over the session's breakpoints,
// which are lines with at most one condition each: what the navigator and the tracer know.

import { lineKey } from '../core/location';
import type { BreakCondition } from '../core/navigator';

export interface PdbBreakpoint {
  /** pdb's number: counted from 1, never reused in a session. */
  number: number;
  /** The program's file (0: the main file; session/breakpointSpecs.ts numbers the others). */
  file: number;
  line: number;
  temporary: boolean;
  enabled: boolean;
  condition?: string;
}

export class BreakpointTable {
  private list: PdbBreakpoint[] = [];
  private next = 1;

  get all(): readonly PdbBreakpoint[] {
    return this.list;
  }

  add(line: number, temporary: boolean, condition?: string, file = 0): PdbBreakpoint {
    const bp: PdbBreakpoint = { number: this.next++, file, line, temporary, enabled: true, ...(condition ? { condition } : {}) };
    this.list.push(bp);
    return bp;
  }

  byNumber(n: number): PdbBreakpoint | undefined {
    return this.list.find((b) => b.number === n);
  }

  /** Removes the breakpoints given; returns them. */
  remove(bps: readonly PdbBreakpoint[]): PdbBreakpoint[] {
    this.list = this.list.filter((b) => !bps.includes(b));
    return [...bps];
  }

  /** The breakpoints at a breakpoint key (core/location.ts: a file and a line). */
  at(key: number): PdbBreakpoint[] {
    return this.list.filter((b) => lineKey(b.file, b.line) === key);
  }

  /** The lines (breakpoint keys) the session breaks at, and their conditions. Several enabled breakpoints on one
   * line stop where any of them would: one without a condition makes the line unconditional, the
   * conditions of the others are joined with `or`. */
  effective(): { lines: number[]; conditions: Map<number, BreakCondition> } {
    const byLine = new Map<number, PdbBreakpoint[]>();
    for (const b of this.list) if (b.enabled) byLine.set(lineKey(b.file, b.line), [...(byLine.get(lineKey(b.file, b.line)) ?? []), b]);
    const conditions = new Map<number, BreakCondition>();
    for (const [line, bps] of byLine) {
      if (bps.some((b) => !b.condition)) continue;
      const texts = [...new Set(bps.map((b) => b.condition!))];
      conditions.set(line, { condition: texts.length === 1 ? texts[0]! : texts.map((t) => `(${t})`).join(' or ') });
    }
    return { lines: [...byLine.keys()].sort((a, b) => a - b), conditions };
  }
}
