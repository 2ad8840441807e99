// The command line's bounds of a run (issue 47, item 4): `ndb debug --help` and the README list
// --max-events and --timeout with their defaults and ranges; bad values are refused; the prompt
// says a recording a limit cut before its first stop, naming --max-events, and says "may not
// terminate" only of a loop whose state came back.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, SERVER_LIMIT_CEILING } from '../core/limits';
import { REPO_ROOT } from '../util/repoRoot';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { PromptSession } from '../session/promptSession';
import { parseArgs, UsageError } from './args';
import { CLI_LIMIT_OPTIONS, limitsFromArgs } from './limitOptions';
import { DEBUG_HELP } from './main';

const FINITE = 'total = 0\nfor i in range(20000):\n    total += i\nprint("total", total)\n';
const SPIN = 'def spin():\n    x = 1\n    while x > 0:\n        pass\n\nspin()\n';

/** Every option `ndb debug` accepts (main.ts's checkKnown list for debug). */
const DEBUG_OPTIONS = ['call', 'json', 'actions', 'breakpoints', 'engine', 'batch', 'max-events', 'timeout', 'model', 'dtype', 'exceptions'];

describe('ndb debug --help', () => {
  it('lists every option, and the limits with their defaults and ranges', () => {
    for (const name of DEBUG_OPTIONS) expect(DEBUG_HELP).toContain(`--${name}`);
    const events = DEBUG_HELP.split('\n').find((l) => l.trimStart().startsWith('--max-events'))!;
    expect(events).toContain(`default ${DEFAULT_LIMITS.maxEvents.toLocaleString('en-US')}`);
    expect(events).toContain(`100 to ${SERVER_LIMIT_CEILING.maxEvents.toLocaleString('en-US')}`);
    const time = DEBUG_HELP.split('\n').find((l) => l.trimStart().startsWith('--timeout'))!;
    expect(time).toContain(`default ${DEFAULT_LIMITS.timeLimit}`);
    expect(time).toContain(`0.5 to ${SERVER_LIMIT_CEILING.timeLimit} seconds`);
  });

  it('is what `ndb debug --help` prints, with status 0', async () => {
    const exec = promisify(execFile);
    const { stdout } = await exec('node', ['bin/ndb.mjs', 'debug', '--help'], { cwd: REPO_ROOT });
    expect(stdout).toBe(DEBUG_HELP);
  }, 60_000);

  it('the README\'s command-line section lists the same options with the same defaults', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## The `ndb` command line'), readme.indexOf('## How exact is it?'));
    for (const name of DEBUG_OPTIONS) expect(section, `--${name}`).toContain(`--${name}`);
    expect(section).toMatch(/`--max-events N`[^|]*\| [^|]*default 10,000[^|]*100 to 1,000,000/);
    expect(section).toMatch(/`--timeout S`[^|]*\| [^|]*default 8[^|]*0\.5 to 45/);
  });
});

describe('--max-events and --timeout', () => {
  const limits = (...argv: string[]) => limitsFromArgs(parseArgs(argv, []));
  it('default to every session\'s limits, and take values in range', () => {
    expect(limits()).toEqual(DEFAULT_LIMITS);
    expect(limits('--max-events', '100000', '--timeout', '2.5')).toEqual({ maxEvents: 100_000, timeLimit: 2.5 });
    expect(limits('--max-events', String(SERVER_LIMIT_CEILING.maxEvents), '--timeout', String(SERVER_LIMIT_CEILING.timeLimit))).toEqual(SERVER_LIMIT_CEILING);
  });
  it('refuse values out of range or not numbers', () => {
    for (const argv of [['--max-events', '99'], ['--max-events', '1000001'], ['--max-events', '1.5'], ['--max-events', 'x'], ['--timeout', '0.1'], ['--timeout', '46'], ['--timeout', 'soon'], ['--timeout', '']]) {
      expect(() => limits(...argv), argv.join(' ')).toThrow(UsageError);
    }
  });
});

describe('the prompt says a cut recording before its first stop', () => {
  let host: PythonHost;
  beforeAll(async () => {
    host = await loadInProcessHost();
  }, 120_000);

  const open = async (source: string, maxEvents?: number) =>
    (await PromptSession.open(host, source, { engine: 'real', file: 'prog.py', limitOptions: CLI_LIMIT_OPTIONS, ...(maxEvents ? { limits: { maxEvents } } : {}) })).lines.map((l) => l.text);

  it('a finite loop cut by the budget: where, and --max-events, never "may not terminate"', async () => {
    const first = await open(FINITE);
    expect(first[0]).toContain('The recording was cut at 10,000 events (the event budget)');
    expect(first[0]).toContain('raise --max-events (up to 1,000,000 events)');
    expect(first.join('\n')).not.toContain('terminate');
    expect(first.some((l) => l.startsWith('> prog.py(1)'))).toBe(true);
    // with a budget that fits, nothing is said
    const whole = await open(FINITE, 100_000);
    expect(whole.join('\n')).not.toContain('cut');
  }, 120_000);

  it('a loop whose state comes back: may not terminate', async () => {
    const first = await open(SPIN);
    expect(first[0]).toContain('may not terminate');
    expect(first[0]).not.toContain('--max-events');
  }, 120_000);

  it('ndb debug says it on its first lines, and at the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-limits-'));
    const file = join(dir, 'loop.py');
    writeFileSync(file, FINITE);
    const run = promisify((cb: (err: Error | null, out: string) => void) => {
      const child = execFile('node', ['bin/ndb.mjs', 'debug', file, '--max-events', '500'], { cwd: REPO_ROOT }, (err, stdout) => cb(err, stdout));
      child.stdin!.end('c\nq\n');
    });
    const stdout = await run();
    const lines = stdout.split('\n');
    expect(lines[0]).toContain('The recording was cut at 500 events (the event budget)');
    expect(lines[0]).toContain('--max-events');
    const end = lines.findIndex((l) => l.endsWith('(ndb) c'));
    expect(end).toBeGreaterThan(0);
    expect(lines.slice(end).join('\n')).toContain('The recording was cut at 500 events');
  }, 120_000);
});
