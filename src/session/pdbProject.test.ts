// `ndb debug`'s prompt on a program of several files (fixtures/project/shop): breakpoints by
// FILE:LINE, by function in any module (and module.function), a bare line in the current stop's
// file, `l`/`ll` in that file, Python statements at the prompt, `exceptions` changed while
// stopped. Every stop is checked against CPython's bdb on the same project.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { REPO_ROOT } from '../util/repoRoot';
import { projectBdb } from '../testing/oracle';
import { PromptSession } from './promptSession';
import { projectOptions, readProject } from './projectFiles';

const project = readProject(join(REPO_ROOT, 'fixtures/project/shop/main.py'));
let host: PythonHost;

beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

async function open(argv: string[] = ['order.json'], breakpoints: number[] = []): Promise<PromptSession> {
  const { session } = await PromptSession.open(host, project.source, { engine: 'real', file: 'main.py', breakpoints, limits: { ...projectOptions(project), argv } });
  return session;
}

async function run(session: PromptSession, command: string): Promise<string[]> {
  return (await session.run(command)).lines.map((l) => l.text);
}

/** The location line of a stop (`> pricing.py(6)line_total()`), without the program's output. */
function at(lines: string[]): string | undefined {
  return lines.find((l) => l.startsWith('> '));
}

function bdbLocation(s: { file: string; line: number; function: string }): string {
  return `> ${s.file}(${s.line})${s.function}()`;
}

describe('the prompt knows the project', () => {
  it('b FUNCTION finds it in another module, l lists the stop\'s file, b LINE is in that file', async () => {
    const s = await open();
    expect(await run(s, 'b line_total')).toEqual(['Breakpoint 1 at pricing.py:6']);
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['order.json'], breakpoints: [{ file: 'pricing.py', line: 6 }, { file: 'pricing.py', line: 7 }] });
    expect(at(await run(s, 'c'))).toBe(bdbLocation(bdb.stops[0]!));
    const listed = await run(s, 'l');
    expect(listed).toContain('  6 B->\t    price = item["price"]');
    expect(listed.join('\n')).not.toContain('load_order');
    expect((await run(s, 'll'))[0]).toBe('  5    \tdef line_total(item):');
    // a bare line number is a line of the current stop's file, as in pdb
    expect(await run(s, 'b 7')).toEqual(['Breakpoint 2 at pricing.py:7']);
    expect(at(await run(s, 'c'))).toBe(bdbLocation(bdb.stops[1]!));
    expect(at(await run(s, 'c'))).toBe(bdbLocation(bdb.stops[2]!));
    expect(await run(s, 'b')).toEqual(['Num Type         Disp Enb   Where', '1   breakpoint   keep yes   at pricing.py:6', '2   breakpoint   keep yes   at pricing.py:7']);
  }, 120_000);

  it('b FILE:LINE with a condition, tbreak, b module.function and cl FILE:LINE, stopping where bdb stops', async () => {
    const s = await open();
    expect(await run(s, 'b pricing.py:7, item["qty"] == 1')).toEqual(['Breakpoint 1 at pricing.py:7']);
    expect(await run(s, 'tbreak pricing.discount_percent')).toEqual(['Breakpoint 2 at pricing.py:12']);
    expect(await run(s, 'b main.py:17')).toEqual(['Breakpoint 3 at main.py:17']);
    expect(await run(s, 'b nowhere.py:3')).toEqual(['*** nowhere.py is not a Python file of this program (its files: main.py, pricing.py)']);
    expect(await run(s, 'b pricing.py:1')).toEqual(['*** Blank or comment']);
    expect(await run(s, 'b pricing.nothing')).toEqual(['*** no function named nothing in pricing.py that ran (b FILE:LINE sets one at a line)']);
    // bdb: the condition holds at the second item only (qty 1)
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['order.json'], breakpoints: [{ file: 'pricing.py', line: 12 }, { line: 17 }] });
    const c1 = await run(s, 'c');
    expect(at(c1)).toBe('> pricing.py(7)line_total()');
    expect(await run(s, 'p item')).toEqual(["{'price': 5, 'qty': 1}"]);
    expect(await run(s, 'cl pricing.py:7')).toEqual(['Deleted breakpoint 1 at pricing.py:7']);
    expect(at(await run(s, 'c'))).toBe(bdbLocation(bdb.stops[0]!)); // main.py 17
    const c3 = await run(s, 'c');
    expect(at(c3)).toBe(bdbLocation(bdb.stops[1]!)); // pricing.py 12, and the tbreak is gone
    expect(c3).toContain('Deleted breakpoint 2 at pricing.py:12');
  }, 120_000);

  it('--breakpoints FILE:LINE opens the prompt with them', async () => {
    const s = await open(['order.json'], [1_000_000 + 8]);
    expect(await run(s, 'b')).toEqual(['Num Type         Disp Enb   Where', '1   breakpoint   keep yes   at pricing.py:8']);
    expect(at(await run(s, 'c'))).toBe('> pricing.py(8)line_total()');
  }, 120_000);

  it('runs Python statements in the stopped frame as pdb does, and says what it cannot keep', async () => {
    const s = await open();
    await run(s, 'b pricing.py:8');
    await run(s, 'c');
    expect(await run(s, 'print(price, qty)')).toEqual(['3 2']);
    expect(await run(s, '!price * qty')).toEqual(['6']);
    expect(await run(s, 'import traceback')).toEqual([expect.stringMatching(/^\(ndb ran it once at this stop; the recorded run goes on as it ran/)]);
    expect(await run(s, 'item["qty"] += 1')).toEqual([expect.stringMatching(/recorded run goes on as it ran, without its changes/)]);
    expect(await run(s, 'p item')).toEqual(["{'price': 3, 'qty': 2}"]);
    expect(await run(s, 'nosuch')).toEqual(["*** NameError: name 'nosuch' is not defined"]);
    expect(await run(s, 'for x in (1, 2): print(x)')).toEqual(['1', '2', expect.stringMatching(/^\(ndb ran it once/)]);
    // an assignment to a local is the what-if edit: the run goes on with it
    expect(await run(s, 'qty = 10')).toEqual(['qty = 10', '(the program goes on from here with it; stepping back past this stop undoes it)']);
    expect(await run(s, 'r')).toContain('-> return price * qty');
    expect(await run(s, 'retval')).toEqual(['30']);
  }, 120_000);

  it('exceptions raised|uncaught|none changes where moves stop, as bdb stops', async () => {
    const s = await open(['bad_code.json']);
    expect(await run(s, 'exceptions')).toEqual(['Exceptions: moves do not stop for exceptions (exceptions raised|uncaught)']);
    expect(await run(s, 'exceptions uncaught')).toEqual(['Exceptions: moves stop where the exception that ends the program is raised']);
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['bad_code.json'] });
    const stop = await run(s, 'c'); // the program's output first, then the exception stop
    expect(stop).toContain("KeyError('NOPE')");
    expect(at(stop)).toBe(bdbLocation(bdb.uncaught!));
    // back at the module's start: its first line of code (line 1 is a comment)
    expect(await run(s, 'rc')).toContain('> main.py(2)<module>()');
    await run(s, 'exceptions none');
    expect((await run(s, 'c')).join('\n')).toContain('Traceback (most recent call last):');
  }, 120_000);
});
