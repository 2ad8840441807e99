// The project of the tests of issue 47's item 6 ("Smaller") in every face: a main file whose first
// line of code is not line 1, a method of a class in the program's other module, and a loop whose
// breakpoint conditions raise (an ordinary exception, and a SystemExit) at one hit. Written into a
// fresh temporary folder (the faces read a program's folder as its project).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SMALLER_PROJECT = {
  'main.py': [
    '# A shop: main.py prices a basket with pricing.py',
    '# (two comments and a blank line before the first line of code)',
    '',
    'from pricing import Frozen, total', // 4: the first line of code
    '',
    '',
    'def check(prices):',
    '    rate = Frozen(3)',
    '    out = [rate.rate(p) for p in prices]',
    '    return total(out)', // 10
    '',
    '',
    'print(check([1, 2, 3]))',
    '',
  ].join('\n'),
  'pricing.py': [
    'class Frozen:',
    '    def __init__(self, k):',
    '        self.k = k',
    '',
    '    def rate(self, x):',
    '        return self.k * x', // 6
    '',
    '',
    'def total(xs):',
    '    s = 0',
    '    for x in xs:',
    '        s += x', // 12: x is 3, 6 and 9
    '    return s',
    '',
  ].join('\n'),
};

/** The main file's first line of code, and its text: where pdb's first stop is. */
export const FIRST_CODE_LINE = 4;
export const FIRST_CODE_TEXT = 'from pricing import Frozen, total';
/** `Frozen.rate`'s body (pricing.py). */
export const RATE_LINE = 6;
/** The frames at RATE_LINE, innermost first, as the faces name them (3.12+ inlines the list
 * comprehension into check's frame). */
export const RATE_STACK = ['Frozen.rate', 'check', '<module>'];
/** The loop of `total` (pricing.py), run with x = 3, 6 and 9. */
export const LOOP_LINE = 12;
/** Raises ZeroDivisionError at x = 6, false at 3, true at 9. */
export const RAISING_CONDITION = 'x / (x - 6) > 0';
/** Raises SystemExit at x = 6 (pdb stops there: it is the condition's error, not the program's end). */
export const EXITING_CONDITION = '__import__("sys").exit(2) if x == 6 else False';
/** What the program prints: the rates 3, 6, 9 summed. */
export const PRINTED = '18\n';

export interface SmallerProject {
  folder: string;
  main: string;
  pricing: string;
}

export function writeSmallerProject(): SmallerProject {
  const folder = mkdtempSync(join(tmpdir(), 'ndb-smaller-'));
  for (const [name, text] of Object.entries(SMALLER_PROJECT)) writeFileSync(join(folder, name), text);
  return { folder, main: join(folder, 'main.py'), pricing: join(folder, 'pricing.py') };
}
