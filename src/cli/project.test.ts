// `ndb debug` on a project of several files (fixtures/project/shop): the folder of FILE is the
// program, its arguments come after --, breakpoints take FILE:LINE, and inv_continue goes back to
// the previous breakpoint stop; the stops are CPython's bdb's.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { readProject } from '../session/projectFiles';
import { makeLinkTrap, SECRET } from '../testing/linkTrap';
import { projectBdb } from '../testing/oracle';
import { runCli as run } from './testCli';

const MAIN = join(REPO_ROOT, 'fixtures/project/shop/main.py');

type State = Record<string, unknown>;

describe('ndb debug on a project', () => {
  it('stops at FILE:LINE breakpoints where bdb stops, reads its data file and argv, and reverse-continues', async () => {
    const { code, lines } = await run('debug', MAIN, '--breakpoints', 'pricing.py:7,17', '--actions', 'continue,continue,continue,inv_continue,inv_continue,inv_continue', '--json', '--', 'order.json');
    expect(code).toBe(0);
    const { states } = JSON.parse(lines[0]!) as { states: State[] };
    const project = readProject(MAIN);
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['order.json'], breakpoints: [{ file: 'pricing.py', line: 7 }, { line: 17 }] });
    const forward = states.slice(1, 4);
    expect(forward.map((s) => ({ file: s.file, line: s.line, function: s.function, event: s.event }))).toEqual(bdb.stops);
    expect(forward[1]).toMatchObject({ file: 'pricing.py', line: 7, locals: { item: "{'price': 5, 'qty': 1}", price: '5' } });
    // back: the two earlier breakpoint stops, then the entry
    expect(states.slice(4).map((s) => [s.file, s.line, s.event])).toEqual([
      [forward[1]!.file, forward[1]!.line, 'line'],
      [forward[0]!.file, forward[0]!.line, 'line'],
      ['main.py', states[0]!.line, 'call'],
    ]);
    // the entry is the first stop, as every face shows it
    expect(states.at(-1)).toEqual(states[0]);
  });

  it('stops where the uncaught exception was raised with --exceptions uncaught', async () => {
    const { code, lines } = await run('debug', MAIN, '--exceptions', 'uncaught', '--actions', 'continue,continue', '--json', '--', 'bad_code.json');
    expect(code).toBe(0);
    const { states } = JSON.parse(lines[0]!) as { states: State[] };
    expect(states[1]).toMatchObject({ event: 'exception', file: 'pricing.py', line: 12, function: 'discount_percent' });
    expect(states[2]).toMatchObject({ event: 'exit', status: 'exception' });
    expect((await run('debug', MAIN, '--exceptions', 'some', '--actions', 'continue', '--json')).code).toBe(2);
  });

  it('refuses a breakpoint in a file that is not the program\'s, and says FILE goes before --', async () => {
    const bad = await run('debug', MAIN, '--breakpoints', 'nope.py:3', '--actions', 'continue', '--json');
    expect(bad.code).toBe(2);
    const both = await run('debug', MAIN, 'other.py', '--actions', 'continue', '--json');
    expect(both.code).toBe(2);
  });

  it('never hands the program a file through a link out of its folder', async () => {
    const trap = makeLinkTrap();
    const { code, lines } = await run('debug', trap.main, '--actions', 'continue', '--json');
    expect(code).toBe(0);
    const { states } = JSON.parse(lines[0]!) as { states: State[] };
    const stdout = String(states.at(-1)!.stdout);
    expect(stdout).toContain('data.txt plain data');
    expect(stdout).toContain('notes.txt FileNotFoundError');
    expect(stdout).not.toContain(SECRET);
  });
});
