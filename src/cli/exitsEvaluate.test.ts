// Issue 47, item 1, through `ndb debug`: a program that ends through sys.exit() ends normally
// with its exit code (`--json` and the text lines), and the `(ndb)` prompt says so in pdb's words
// instead of entering post mortem; `p` and `!expr` run their expression once, at the stop; an
// object of a class from the program's other module is shown by its attributes.

import { describe, expect, it } from 'vitest';
import { answers, debugPiped } from '../testing/ndbPrompt';
import { COUNT_STOP_LINE, COUNTING_EXPRESSION, EXIT_PROGRAMS, OBJECT_STOP_LINE, ORDER_SHOWN, writeEndPrograms, type ExitProgram } from '../testing/endPrograms';
import { runCli as run } from './testCli';

const programs = writeEndPrograms();
const NAMES = Object.keys(EXIT_PROGRAMS) as ExitProgram[];

describe('ndb debug --actions: a program that ends through sys.exit()', () => {
  it.each(NAMES)('%s: the exit state is normal with its exit_code, in --json and in text', async (name) => {
    const expected = EXIT_PROGRAMS[name].code;
    const json = await run('debug', programs.exits[name], '--exceptions', 'uncaught', '--actions', 'continue', '--json');
    expect(json.code).toBe(0);
    const { states } = JSON.parse(json.lines[0]!) as { states: Array<Record<string, unknown>> };
    expect(states).toHaveLength(2);
    expect(states[1]).toMatchObject({ event: 'exit', status: 'normal', exit_code: expected });
    expect(states[1]!.traceback).toBeUndefined();
    const text = await run('debug', programs.exits[name], '--actions', 'continue');
    expect(text.lines.at(-1)).toBe(`continue: exit (normal, sys.exit() with exit status ${expected})`);
  });
});

describe('ndb debug FILE at the (ndb) prompt', () => {
  it.each(NAMES)('%s: says pdb\'s "exited via sys.exit()" line and stays at the end, no post mortem', async (name) => {
    const commands = ['c', 'p 1 + 1', 'w', 'q'];
    const { code, out, err } = await debugPiped([programs.exits[name]], `${commands.join('\n')}\n`);
    expect(code, err).toBe(0);
    const a = answers(out);
    expect(a.map((lines) => lines[0])).toEqual(commands);
    const ended = a[0]!.slice(1);
    expect(ended).toContain(`The program exited via sys.exit(). Exit status: ${EXIT_PROGRAMS[name].code}`);
    expect(ended).toContain('(rs, rn, rc or rf go back; q quits)');
    if (name === 'exitMessage') expect(ended).toContain('bad input');
    expect(out).not.toMatch(/post mortem|Traceback|SystemExit/);
    // as at a normal end: no frame to print in or to list
    expect(a[1]!.slice(1).join('\n')).toMatch(/the program has finished: there is no frame/);
    expect(a[2]!.slice(1).join('\n')).toMatch(/there is no frame here/);
  }, 120_000);

  it("p, pp and the stop's locals show an object of the program's other module by its attributes", async () => {
    const commands = [`b ${OBJECT_STOP_LINE}`, 'c', 'p order', 'pp [order]', 'p order.items', 'q'];
    const { code, out, err } = await debugPiped([programs.objects], `${commands.join('\n')}\n`);
    expect(code, err).toBe(0);
    const a = answers(out);
    expect(a[2]!.slice(1)).toEqual([ORDER_SHOWN]);
    expect(a[3]!.slice(1).join('')).toContain(ORDER_SHOWN);
    expect(a[4]!.slice(1)).toEqual(['[3, 4]']);
    const json = await run('debug', programs.objects, '--breakpoints', String(OBJECT_STOP_LINE), '--actions', 'continue', '--json');
    const { states } = JSON.parse(json.lines[0]!) as { states: Array<Record<string, unknown>> };
    expect(states[1]).toMatchObject({ line: OBJECT_STOP_LINE, locals: { order: ORDER_SHOWN } });
  }, 120_000);

  it('p and !expr run their expression once, at the stop, in the frame up selects', async () => {
    const commands = [`b ${COUNT_STOP_LINE}`, 'c', 'c', 'c', 'p i', `p ${COUNTING_EXPRESSION}`, `!${COUNTING_EXPRESSION}`, 'p len(hits)', 'up', 'p got', 'q'];
    const { code, out, err } = await debugPiped([programs.count], `${commands.join('\n')}\n`);
    expect(code, err).toBe(0);
    const a = answers(out);
    expect(a.map((lines) => lines[0])).toEqual(commands);
    expect(a[4]!.slice(1)).toEqual(['2']);
    expect(a[5]!.slice(1)).toEqual(['1']);
    expect(a[6]!.slice(1)).toEqual(['1']);
    expect(a[7]!.slice(1)).toEqual(['0']);
    expect(a[9]!.slice(1)).toEqual(['[0, 1]']);
  }, 120_000);
});
