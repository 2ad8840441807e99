// pdb's shapes of what the prompt prints, and the model's line beside a stop.

import { describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import type { DebugState } from '../core/state';
import { sureness } from '../core/confidence';
import { breakpointTable, listLines, locationLines, modelLine, tracebackLines } from './pdbOutput';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/;

describe('pdbOutput', () => {
  it("prints a stop as pdb: '> file(line)function()' then '-> source'", () => {
    expect(locationLines('prog.py', { function: 'total', line: 4 }, '        s += x').map((l) => l.text)).toEqual(['> prog.py(4)total()', '-> s += x']);
    expect(locationLines('prog.py', { function: 'total', line: 5, returned: '6' }, 'return s')[0]!.text).toBe('> prog.py(5)total()->6');
    expect(locationLines('prog.py', { function: '<module>', line: 0 }, 'x = 1', false)[0]!.text).toBe('  prog.py(1)<module>()');
  });

  it("lists source as pdb's list does, with B and ->", () => {
    const lines = listLines(['a = 1', '', 'b = 2'], 1, 11, 3, new Set([1])).map((l) => l.text);
    expect(lines).toEqual(['  1 B  \ta = 1', '  2    \t', '  3  ->\tb = 2']);
  });

  it("prints breakpoints as pdb's table", () => {
    expect(breakpointTable((b) => `prog.py:${b.line}`, []).map((l) => l.text)).toEqual(['No breakpoints.']);
    const text = breakpointTable((b) => `prog.py:${b.line}`, [{ number: 1, file: 0, line: 4, temporary: true, enabled: false, condition: 'x > 1' }]).map((l) => l.text);
    expect(text).toEqual(['Num Type         Disp Enb   Where', '1   breakpoint   del  no    at prog.py:4', '\tstop only if x > 1']);
  });

  it("never prints a program's control characters raw", () => {
    const nasty = 'x\x1b[2J\r\u202e';
    const lines = [
      ...locationLines('prog.py', { function: 'f', line: 1, returned: `'${nasty}'` }, `print("${nasty}")`),
      ...tracebackLines('prog.py', [{ function: 'f', line: 1, source: nasty , file: 'main.py' }], `ValueError: ${nasty}`),
      ...listLines([nasty], 1, 1, 1, new Set()),
    ];
    for (const l of lines) expect(l.text).not.toMatch(CONTROL);
    expect(lines.map((l) => l.text).join('\n')).toContain('\\x1b[2J');
  });

  it("says what the model predicted, how sure it was, and the fields it got wrong", () => {
    const real: DebugState = { event: 'line', line: 4, function: 'total', depth: 1, locals: { s: '3', x: '2' }, stdout: '' };
    const right = { event: 'line', inverse: false, line: 4, src: 's += x', locals: { s: '3', x: '2' } } as const;
    const ok = modelLine('model', real, right, compareStates(real, right, 'forward'), 0.93);
    expect(ok).toEqual({ text: 'model ✓ sure 93 %: line 4: s=3, x=2', style: 'good' });
    const wrong = { ...right, line: 3, locals: { s: '5', x: '2' } };
    const bad = modelLine('model', real, wrong, compareStates(real, wrong, 'forward'), 0.3);
    expect(bad.style).toBe('bad');
    expect(bad.text).toBe('model ✗ a guess 30 %: line 3: s=5, x=2 — wrong: line (real 4), s (real 3)');
    expect(sureness(0.61)).toBe('likely 61 %');
  });
});
