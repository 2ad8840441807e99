// `ndb debug FILE` with no --actions as a user meets it: commands piped on stdin (as pdb reads a
// pipe), and in a real terminal (a pty) for readline's history, colour and Ctrl-C.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answers, debugInTerminal, debugPiped, hasScript, PROMPT } from '../testing/ndbPrompt';

const program = join(mkdtempSync(join(tmpdir(), 'ndb-repl-')), 'prog.py');
writeFileSync(program, 'def total(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n\nprint("start")\nprint(total([1, 2, 3]))\n');

describe('ndb debug FILE with commands on stdin', () => {
  it('answers b, c, n, s, r, p, w, l, rs, rn, rc, rf, one prompt a command, and q ends with status 0', async () => {
    const commands = ['b 4', 'c', 'n', 's', 'r', 'p s', 'w', 'l', 'rs', 'rn', 'rc', 'rf', 'nonsense', 'p s +', 'c', 'q'];
    const { code, out, err } = await debugPiped([program], `${commands.join('\n')}\n`);
    expect(code, err).toBe(0);
    const a = answers(out);
    // one prompt a command, each command echoed after it and answered on lines of its own
    expect(a.map((lines) => lines[0])).toEqual(commands);
    expect(a.map((lines) => lines.slice(1))).toEqual([
      ['Breakpoint 1 at prog.py:4'],
      ['start', '> prog.py(4)total()', '-> s += x'], // the program's own output, as it is printed
      ['> prog.py(3)total()', '-> for x in xs:'],
      ['> prog.py(4)total()', '-> s += x'],
      ['> prog.py(4)total()', '-> s += x'], // r: the breakpoint stops it, as in pdb
      ['3'],
      ['  prog.py(8)<module>()', '-> print(total([1, 2, 3]))', '> prog.py(4)total()', '-> s += x'],
      ['  1    \tdef total(xs):', '  2    \t    s = 0', '  3    \t    for x in xs:', '  4 B->\t        s += x', '  5    \t    return s', '  6    \t', '  7    \tprint("start")', '  8    \tprint(total([1, 2, 3]))'],
      ['> prog.py(3)total()', '-> for x in xs:'],
      ['> prog.py(4)total()', '-> s += x'],
      ['> prog.py(4)total()', '-> s += x'], // rc: the previous breakpoint stop, the loop's first turn
      ['--Call--', '> prog.py(1)total()', '-> def total(xs):'],
      ["*** NameError: name 'nonsense' is not defined"],
      ['*** SyntaxError: invalid syntax'],
      ['> prog.py(4)total()', '-> s += x'], // what was printed already is not printed again
      ['ndb: 16 commands, 10 stops'],
    ]);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  }, 120_000);

  it("--engine both: every stop mentions the model's prediction and how sure it was; end of input quits with status 0", async () => {
    const commands = ['b 4', 'c', 'n', 'w', 's', 'r', 'rs', 'rn', 'rf', 'rc', 'unt'];
    const { code, out, err } = await debugPiped([program, '--engine', 'both'], `${commands.join('\n')}\n`);
    expect(code, err).toBe(0);
    const stops = [out.split(PROMPT)[0]!, ...answers(out).map((l) => l.join('\n'))].filter((t) => t.includes('> prog.py('));
    expect(stops).toHaveLength(commands.length);
    for (const stop of stops) expect(stop).toMatch(/^model.*(✓|✗) (sure|likely|a guess) \d+ %/m);
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^ndb: 11 commands, \d+ stops; the model predicted \d+, \d+ right/);
  }, 180_000);
});

describe.runIf(hasScript())('ndb debug FILE in a terminal (a pty)', () => {
  it('edits with readline history, colours its stops, and Ctrl-C stops a long command, not the debugger', async () => {
    const env = { ...process.env };
    delete env.NO_COLOR;
    const keys = [
      { type: 'b 4\r', prompts: 1 },
      { type: 'c\r', prompts: 2 },
      { type: '\x1b[A\r', prompts: 3 }, // ↑ recalls c
      { type: '\x03', prompts: 4 }, // Ctrl-C at the prompt
      { type: 'p __import__("time").sleep(3) or 4242424242\r', prompts: 5 }, // long: the program runs again, and the expression takes 3 s
      { type: '\x03', prompts: 5, waitMs: 300 },
      { type: 'p s\r', prompts: 6 },
      { type: 'q\r', prompts: 7 },
    ];
    const { code, out, typedAt } = await debugInTerminal([program], keys, env);
    expect(code).toBe(0);
    const text = out.replace(/\r/g, '');
    expect(text.match(/\x1b\[1m> prog\.py\(4\)total\(\)\x1b\[0m\n\x1b\[36m-> s \+= x\x1b\[0m/g)).toHaveLength(2);
    expect(text.match(/--KeyboardInterrupt--/g)).toHaveLength(2);
    // the interrupted command's answer never comes; the prompt comes back at once and the session goes on
    const afterInterrupt = out.slice(typedAt[5]!);
    expect(afterInterrupt).not.toContain('4242424242');
    expect(afterInterrupt.indexOf('--KeyboardInterrupt--')).toBeLessThan(afterInterrupt.indexOf(PROMPT));
    expect(text).toMatch(/p s\n1\n[\s\S]*ndb: 6 commands, 3 stops/);
  }, 180_000);

  it('prints no colour with NO_COLOR set', async () => {
    const { code, out } = await debugInTerminal([program], [{ type: 'q\r', prompts: 1 }], { ...process.env, NO_COLOR: '1' });
    expect(code).toBe(0);
    expect(out).toContain('> prog.py(1)<module>()');
    expect(out).not.toMatch(/\x1b\[[0-9;]*m/);
  }, 120_000);
});
