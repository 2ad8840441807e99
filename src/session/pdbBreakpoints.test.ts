// pdb's numbered breakpoints over the session's lines-with-a-condition.

import { describe, expect, it } from 'vitest';
import { BreakpointTable } from './pdbBreakpoints';

describe('BreakpointTable', () => {
  it('numbers breakpoints from 1 and never reuses a number', () => {
    const t = new BreakpointTable();
    const a = t.add(4, false);
    t.remove([a]);
    expect(t.add(5, true).number).toBe(2);
  });

  it('breaks at the enabled lines; one line stops where any of its breakpoints would', () => {
    const t = new BreakpointTable();
    t.add(4, false, 'x > 1');
    t.add(4, false, 'x < 0');
    t.add(6, false, 'y');
    t.add(6, true);
    const off = t.add(8, false);
    off.enabled = false;
    const { lines, conditions } = t.effective();
    expect(lines).toEqual([4, 6]);
    expect(conditions.get(4)).toEqual({ condition: '(x > 1) or (x < 0)' });
    expect(conditions.has(6)).toBe(false); // the unconditional one makes the line unconditional
    expect(t.at(6).map((b) => b.number)).toEqual([3, 4]);
  });
});
