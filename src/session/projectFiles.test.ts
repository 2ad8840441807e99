// A program of several files, read from its folder and run in the real engine: stepping enters
// the other module, every stop names its file, the data file is a read-only copy, argv reaches
// the program and the standard library stays out of the recording.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventFile } from '../core/location';
import { stackAt, stateAt } from '../core/state';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { readRepoFile } from '../realEngine/node/node';
import { REPO_ROOT } from '../util/repoRoot';
import { makeLinkTrap, SECRET, TRAP_LINKS } from '../testing/linkTrap';
import { MAX_DATA_FILE_BYTES, projectOptions, readProject } from './projectFiles';

const SHOP = join(REPO_ROOT, 'fixtures/project/shop/main.py');
let host: PythonHost;

beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

describe('a project of several files', () => {
  it('reads the modules and the data files of the main file\'s folder', () => {
    const project = readProject(SHOP);
    expect(project.main).toBe('main.py');
    expect(Object.keys(project.files)).toEqual(['pricing.py', 'bad_code.json', 'order.json']);
    expect(project.source).toBe(readRepoFile('fixtures/project/shop/main.py'));
    expect(project.leftOut).toEqual([]);
  });

  it('records the imported module\'s frames, each naming its file, and runs with argv and data', async () => {
    const project = readProject(SHOP);
    const rec = await host.record(project.source, '', { ...projectOptions(project), argv: ['order.json'] });
    expect(rec.exit).toEqual({ status: 'normal' });
    expect(rec.stdout).toBe('total 11\ncode 10\nqty 0\n');
    expect(rec.files).toEqual(['main.py', 'pricing.py']);
    const inPricing = rec.events.filter((e) => eventFile(rec, e) === 'pricing.py');
    expect(inPricing.map((e) => e.function)).toContain('line_total');
    // pricing's module body, then two calls of line_total and one each of discount_percent and parse_qty
    expect(inPricing.filter((e) => e.event === 'call').map((e) => e.function)).toEqual(['<module>', 'line_total', 'line_total', 'discount_percent', 'parse_qty']);
    // json's and the import system's frames are not the program's
    expect(new Set(rec.events.map((e) => eventFile(rec, e)))).toEqual(new Set(['main.py', 'pricing.py']));
    const at = rec.events.findIndex((e) => e.function === 'line_total' && e.event === 'line');
    expect(stateAt(rec, at)).toMatchObject({ file: 'pricing.py', line: 6, function: 'line_total' });
    expect(stackAt(rec, at).map((f) => `${f.file}:${f.line}:${f.function}`)).toEqual(['main.py:16:<module>', 'pricing.py:6:line_total']);
  });

  it('gives tracebacks through both files, and sys.argv as the program was started', async () => {
    const project = readProject(SHOP);
    const rec = await host.record(project.source, '', { ...projectOptions(project), argv: ['bad_code.json'] });
    expect(rec.exit.status).toBe('exception');
    const exit = stateAt(rec, rec.events.length);
    expect(exit.event === 'exit' && exit.traceback).toEqual([
      { function: '<module>', file: 'main.py', line: 18, source: 'print("code", pricing.discount_percent(order["code"]))' },
      { function: 'discount_percent', file: 'pricing.py', line: 12, source: 'percent = DISCOUNTS[code]' },
    ]);
  });

  it('hands data in as read-only copies that vanish after the run', async () => {
    const source = [
      'import os, sys',
      'print(sys.argv)',
      'print(open("order.json").read()[:9])',
      'try:',
      '    open("order.json", "w").write("x")',
      'except OSError as e:',
      '    print(type(e).__name__)',
      'print(open("order.json").read()[:9])',
    ].join('\n');
    const options = { mainFile: 'app.py', files: { 'order.json': '{"items": []}' }, argv: ['-v', 'x y'] };
    const rec = await host.record(source, '', options);
    expect(rec.stdout).toBe("['app.py', '-v', 'x y']\n{\"items\":\nPermissionError\n{\"items\":\n");
    const after = await host.record('import os\nprint(os.path.exists("/ndb_program/order.json"), os.path.exists("order.json"))', '');
    expect(after.stdout).toBe('False False\n');
  });

  it('says which files it left out, and why', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-project-'));
    writeFileSync(join(dir, 'main.py'), 'print(1)\n');
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(MAX_DATA_FILE_BYTES + 1));
    writeFileSync(join(dir, 'small.bin'), Buffer.from([0xff, 0x00, 0x01]));
    const project = readProject(join(dir, 'main.py'));
    expect(project.leftOut).toEqual([{ file: 'big.bin', reason: `larger than ${MAX_DATA_FILE_BYTES} bytes (${MAX_DATA_FILE_BYTES + 1})` }]);
    expect(project.blobs).toEqual({ 'small.bin': '/wAB' });
  });

  it('leaves out every link that leaves the folder or names a hidden file, says why, and follows one that stays inside', async () => {
    const trap = makeLinkTrap();
    const project = readProject(trap.main);
    expect(Object.keys(project.files).sort()).toEqual(['data.txt', 'real/data.txt']);
    expect(project.leftOut.map((l) => l.file).sort()).toEqual(TRAP_LINKS.map(([name]) => name).sort());
    expect(project.leftOut.find((l) => l.file === 'notes.txt')?.reason).toBe("a link out of the program's folder");
    expect(project.leftOut.find((l) => l.file === 'secret.txt')?.reason).toBe('a link to a hidden file or folder');
    const rec = await host.record(project.source, '', projectOptions(project));
    expect(rec.stdout).not.toContain(SECRET);
    expect(rec.stdout).toContain('data.txt plain data');
  });
});
