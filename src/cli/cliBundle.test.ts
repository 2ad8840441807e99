// The CLI's bundle (bin/cliBundle.mjs) is a cache of src/, never a second source: it is used only
// while every file it was built from is as it was, one process builds at a time, and `ndb` run from
// it answers as `ndb` run through tsx.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBundle, freshBundle } from '../../bin/cliBundle.mjs';
import { REPO_ROOT } from '../util/repoRoot';

const scratch = mkdtempSync(join(tmpdir(), 'ndb-cli-bundle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Current {
  dir: string;
  node: string;
  inputs: Record<string, [number, number]>;
}
const readCurrent = (dir: string): Current => JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8')) as Current;

describe('the CLI bundle', () => {
  it('is fresh only while every file it was built from is unchanged, and is rebuilt after', async () => {
    const dir = join(scratch, 'bundles');
    const built = await buildBundle(dir);
    expect(built).toMatch(/\/b-[0-9a-z-]+\/start\.js$/);
    expect(freshBundle(dir)).toBe(built);
    const current = readCurrent(dir);
    // the lazily imported faces are in it too (chunks), and every input is a file of this checkout
    for (const file of ['bin/cliBundle.mjs', 'src/cli/start.ts', 'src/cli/main.ts', 'src/dap/server.ts', 'src/mcp/server.ts', 'src/realEngine/node/nodeHosts.ts']) expect(Object.keys(current.inputs)).toContain(file);
    expect(Object.keys(current.inputs).every((f) => !f.startsWith('..'))).toBe(true);
    // a bundled package is stood for by its package.json (an install rewrites it), not its files
    const packages = Object.keys(current.inputs).filter((f) => f.includes('node_modules/'));
    expect(packages).toContain('node_modules/@modelcontextprotocol/sdk/package.json');
    expect(packages.every((f) => /node_modules\/(@[^/]+\/)?[^/]+\/package\.json$/.test(f))).toBe(true);

    // an input edited since (its mtime and size as recorded no longer hold): stale
    const edited = { ...current, inputs: { ...current.inputs, 'src/cli/main.ts': [current.inputs['src/cli/main.ts']![0], 1] as [number, number] } };
    writeFileSync(join(dir, 'current.json'), JSON.stringify(edited));
    expect(freshBundle(dir)).toBeNull();
    // an input gone: stale
    writeFileSync(join(dir, 'current.json'), JSON.stringify({ ...current, inputs: { ...current.inputs, 'src/cli/gone.ts': [1, 1] } }));
    expect(freshBundle(dir)).toBeNull();
    // another Node: stale
    writeFileSync(join(dir, 'current.json'), JSON.stringify({ ...current, node: 'v0.0.0' }));
    expect(freshBundle(dir)).toBeNull();
    // a damaged record, or a folder name that is not one of ours: stale, never followed
    writeFileSync(join(dir, 'current.json'), '{"dir": "../../etc", "node": "x"');
    expect(freshBundle(dir)).toBeNull();
    writeFileSync(join(dir, 'current.json'), JSON.stringify({ ...current, dir: '../b-x' }));
    expect(freshBundle(dir)).toBeNull();

    const again = await buildBundle(dir);
    expect(again).not.toBe(built);
    expect(freshBundle(dir)).toBe(again);
  }, 120_000);

  it('is built by one process at a time; a lock left by a build that died is taken over', async () => {
    const dir = join(scratch, 'locked');
    await buildBundle(dir);
    writeFileSync(join(dir, 'build.lock'), '');
    expect(await buildBundle(dir)).toBeNull();
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(join(dir, 'build.lock'), old, old);
    expect(await buildBundle(dir)).toMatch(/start\.js$/);
  }, 120_000);

  it('runs ndb as tsx runs it', () => {
    const dir = mkdtempSync(join(scratch, 'prog-'));
    const program = join(dir, 'prog.py');
    writeFileSync(program, 'def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n\nprint(f([1, 2, 3]))\n');
    const ndb = join(REPO_ROOT, 'bin', 'ndb.mjs');
    const run = (bundle: '0' | '1') => spawnSync(process.execPath, [ndb, 'debug', program, '--actions', 'step_into,step_over,continue', '--json'], { encoding: 'utf8', env: { ...process.env, NDB_CLI_BUNDLE: bundle }, timeout: 120_000 });
    const tsx = run('0');
    const bundled = run('1');
    expect(tsx.status).toBe(0);
    expect(bundled.status).toBe(0);
    expect(bundled.stdout).toBe(tsx.stdout);
    expect(JSON.parse(bundled.stdout.trim().split('\n').at(-1)!)).toBeTruthy();
    // a usage error reads the same
    const usage = (bundle: '0' | '1') => spawnSync(process.execPath, [ndb, 'nonsense'], { encoding: 'utf8', env: { ...process.env, NDB_CLI_BUNDLE: bundle } });
    expect(usage('1').stderr).toBe(usage('0').stderr);
    // --version names this checkout's version and default model
    const version = (bundle: '0' | '1') => spawnSync(process.execPath, [ndb, '--version'], { encoding: 'utf8', env: { ...process.env, NDB_CLI_BUNDLE: bundle } });
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version('1').stdout).toMatch(new RegExp(`^ndb ${pkg.version.replace(/\./g, '\\.')} \\(model ndb-`));
    expect(version('1').stdout).toBe(version('0').stdout);
  }, 240_000);
});
