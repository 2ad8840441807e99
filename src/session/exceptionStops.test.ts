// Exception stops, checked against CPython's bdb on the live program: `raised` stops where each
// exception is raised (bdb's exception events whose traceback starts in that frame), `uncaught`
// where the exception that ends the run was raised, in whichever file of the project.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { REPO_ROOT } from '../realEngine/node';
import { projectBdb } from '../testing/oracle';
import type { ExceptionMode } from './exceptionStops';
import { debugStates, recordOrThrow, rerunWith } from './programSession';
import { projectOptions, readProject } from './projectFiles';

const project = readProject(join(REPO_ROOT, 'fixtures/project/shop/main.py'));
let host: PythonHost;

beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

/** The stops of `continue` until the end, with exception stops in `mode`. */
async function continueStops(argv: string[], mode: ExceptionMode): Promise<Array<Record<string, unknown>>> {
  const run = { ...projectOptions(project), argv };
  const rec = await recordOrThrow(host, project.source, '', undefined, undefined, run);
  const states = await debugStates(rec, Array(8).fill({ kind: 'continue' }), [], rerunWith(host, rec, undefined, run), mode);
  return states.slice(1).filter((s) => s.event !== 'exit') as unknown as Array<Record<string, unknown>>;
}

describe('exception stops', () => {
  for (const argv of [['order.json'], ['bad_code.json']]) {
    it(`stops where each exception is raised, as bdb sees it (${argv[0]})`, async () => {
      const stops = await continueStops(argv, 'raised');
      const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv, exceptions: 'raised' });
      expect(stops.map((s) => ({ file: s.file, line: s.line, function: s.function, event: s.event }))).toEqual(
        bdb.stops.map(({ file, line, function: fn, event }) => ({ file, line, function: fn, event })),
      );
      // the ValueError parse_qty catches, or the KeyError nobody catches (raised once, not again in main.py)
      expect(stops).toContainEqual(expect.objectContaining(argv[0] === 'order.json' ? { file: 'pricing.py', line: 18 } : { file: 'pricing.py', line: 12 }));
      expect(stops.filter((s) => s.file === 'main.py')).toEqual([]);
    });
  }

  it('stops once where the uncaught exception was raised, in the module that raised it', async () => {
    const stops = await continueStops(['bad_code.json'], 'uncaught');
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['bad_code.json'] });
    expect(bdb.uncaught).toMatchObject({ file: 'pricing.py', line: 12, exc_type: 'KeyError' });
    expect(stops).toEqual([expect.objectContaining({ event: 'exception', file: bdb.uncaught!.file, line: bdb.uncaught!.line, function: bdb.uncaught!.function, value: "KeyError('NOPE')" })]);
    // a run that ends normally has no uncaught stop; raised ones are not it
    expect(await continueStops(['order.json'], 'uncaught')).toEqual([]);
  });

  it('never stops at a sys.exit(): the program ends normally there, with its exit code', async () => {
    const source = 'import sys\n\ntry:\n    int("x")\nexcept ValueError:\n    pass\nsys.exit(2)\n';
    const rec = await recordOrThrow(host, source, '');
    expect(rec.exit).toEqual({ status: 'normal', exit_code: 2 });
    expect(rec.events.some((e) => e.event === 'exception' && e.exc_type === 'SystemExit')).toBe(true);
    const stops = async (mode: ExceptionMode) =>
      (await debugStates(rec, [{ kind: 'continue' }, { kind: 'continue' }], [], rerunWith(host, rec), mode)).slice(1);
    // raised: the ValueError only
    expect(await stops('raised')).toEqual([
      expect.objectContaining({ event: 'exception', line: 4, value: expect.stringMatching(/^ValueError/) }),
      expect.objectContaining({ event: 'exit', status: 'normal', exit_code: 2 }),
    ]);
    expect(await stops('uncaught')).toEqual([
      expect.objectContaining({ event: 'exit', status: 'normal', exit_code: 2 }),
      expect.objectContaining({ event: 'exit', status: 'normal', exit_code: 2 }),
    ]);
  });

  // The RecursionError runs the tracer itself out of stack, and CPython drops a tracer that raises:
  // no exception event is recorded. Continue still stops where it was raised, in both modes: the
  // deepest call's line, whose call ran out of stack (issue 46).
  for (const mode of ['raised', 'uncaught'] as const) {
    it(`stops at a RecursionError where it is raised (${mode})`, async () => {
      const source = 'def fact(n):\n    return n * fact(n - 1)\n\nprint(fact(5))\n';
      const rec = await recordOrThrow(host, source, '', 10_000);
      expect(rec.exit).toMatchObject({ status: 'exception', exc_type: 'RecursionError' });
      expect(rec.events.some((e) => e.event === 'exception')).toBe(false);
      const states = await debugStates(rec, [{ kind: 'continue' }, { kind: 'continue' }], [], rerunWith(host, rec, 10_000), mode);
      const stop = states[1]!;
      expect(stop).toMatchObject({ event: 'line', function: 'fact', line: 2 });
      expect(stop.event !== 'entry' && stop.event !== 'exit' && stop.depth).toBeGreaterThan(100);
      expect(states[2]).toMatchObject({ event: 'exit', status: 'exception' });
    }, 120_000);
  }
});
