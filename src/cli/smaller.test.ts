// Issue 47, item 6 ("Smaller"), through the `(ndb)` prompt and `ndb trace`: the first stop and
// `where` at the module's first line of code; a method named `Frozen.rate`; a breakpoint whose
// condition raises (an ordinary exception, or SystemExit) stops there and says so, a temporary
// one stays until its condition holds (bdb's rule); and `ndb trace` records a program of several
// files with its other modules, as the other faces do.

import { describe, expect, it } from 'vitest';
import { parseTraceJsonl } from '../core/traceJsonl';
import { answers, debugPiped } from '../testing/ndbPrompt';
import {
  EXITING_CONDITION,
  FIRST_CODE_LINE,
  FIRST_CODE_TEXT,
  LOOP_LINE,
  PRINTED,
  RAISING_CONDITION,
  RATE_LINE,
  writeSmallerProject,
} from '../testing/smallerPrograms';
import { main } from './main';

const project = writeSmallerProject();

/** Each command's answer (its lines after the echoed command). */
async function prompt(commands: readonly string[]): Promise<{ first: string[]; replies: string[][] }> {
  const { code, out, err } = await debugPiped([project.main], `${commands.join('\n')}\n`);
  expect(code, err).toBe(0);
  const [first, ...rest] = out.split('(ndb) ');
  const a = answers(out);
  expect(a.map((lines) => lines[0])).toEqual([...commands]);
  expect(rest.length).toBe(commands.length);
  return { first: first!.split('\n').filter((l) => l !== '' && !l.startsWith('ndb: waiting')), replies: a.map((lines) => lines.slice(1)) };
}

describe("ndb debug's prompt: the smaller things of issue 47", () => {
  it("stops first at the module's first line of code, and names a method's frame by its qualified name", async () => {
    // `b Frozen.rate`: the method by the name the stack shows it by
    const { first, replies } = await prompt(['w', 'b Frozen.rate', 'c', 'w', 'q']);
    expect(first).toEqual([`> main.py(${FIRST_CODE_LINE})<module>()`, `-> ${FIRST_CODE_TEXT}`]);
    expect(replies[0]).toEqual([`> main.py(${FIRST_CODE_LINE})<module>()`, `-> ${FIRST_CODE_TEXT}`]);
    expect(replies[1]).toEqual([`Breakpoint 1 at pricing.py:${RATE_LINE}`]);
    expect(replies[2]![0]).toBe(`> pricing.py(${RATE_LINE})Frozen.rate()`);
    const stack = replies[3]!.filter((l) => /^[ >] /.test(l));
    expect(stack.map((l) => l.replace(/^[ >] \S+\(\d+\)/, ''))).toEqual(['<module>()', 'check()', 'Frozen.rate()']);
  }, 120_000);

  it.each([
    ['an ordinary exception', RAISING_CONDITION, 'ZeroDivisionError'],
    ['SystemExit', EXITING_CONDITION, 'SystemExit: 2'],
  ])('stops where a breakpoint condition raises %s, says so, and goes on after it', async (_kind, condition, error) => {
    const { replies } = await prompt([`b pricing.py:${LOOP_LINE}, ${condition}`, 'c', 'p x', 'c', 'p x', 'q']);
    expect(replies[1]!.join('\n')).toContain(`the breakpoint's condition raised ${error}`);
    expect(replies[1]).toContain(`> pricing.py(${LOOP_LINE})total()`);
    expect(replies[2]).toEqual(['6']);
    if (condition === RAISING_CONDITION) {
      // x = 9: the condition holds, and says nothing of an error
      expect(replies[3]).toContain(`> pricing.py(${LOOP_LINE})total()`);
      expect(replies[3]!.join('\n')).not.toMatch(/condition raised/);
      expect(replies[4]).toEqual(['9']);
    } else {
      // the condition's SystemExit is not the program's end: it runs on and prints its total
      expect(replies[3]).toEqual([PRINTED.trim(), 'The program finished.', '(rs, rn, rc or rf go back; q quits)']);
    }
  }, 120_000);

  it('keeps a temporary breakpoint whose condition raised, as bdb does, and deletes it where the condition holds', async () => {
    const { replies } = await prompt([`tbreak pricing.py:${LOOP_LINE}, ${RAISING_CONDITION}`, 'c', 'p x', 'c', 'p x', 'c', 'q']);
    expect(replies[1]!.join('\n')).not.toMatch(/Deleted breakpoint/);
    expect(replies[2]).toEqual(['6']);
    expect(replies[3]![0]).toBe(`Deleted breakpoint 1 at pricing.py:${LOOP_LINE}`);
    expect(replies[4]).toEqual(['9']);
    expect(replies[5]).toContain('The program finished.');
  }, 120_000);
});

describe('ndb trace of a program of several files', () => {
  async function trace(...args: string[]): Promise<string[]> {
    const lines: string[] = [];
    expect(await main(['trace', project.main, ...args], (l) => lines.push(l))).toBe(0);
    return lines;
  }

  it("records the program's other modules, and names their events' file", async () => {
    const lines = await trace();
    expect(lines.at(-1)).toBe('exit: normal');
    expect(lines.some((l) => /call +rate:5 \(pricing\.py\)/.test(l))).toBe(true);
    expect(lines.some((l) => /line +check:8 {2}/.test(l))).toBe(true);
    const rec = parseTraceJsonl((await trace('--json')).join('\n'));
    expect(rec.files).toEqual(['main.py', 'pricing.py']);
    expect(rec.exit.status).toBe('normal');
    expect(rec.stdout).toBe(PRINTED);
    expect(rec.codes.find((c) => c.name === 'rate')).toMatchObject({ file: 1, qualname: 'Frozen.rate' });
  }, 120_000);
});
