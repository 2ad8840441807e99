// Exception stops, checked against CPython's bdb on the live program: `raised` stops where each
// exception is raised (bdb's exception events whose traceback starts in that frame), `uncaught`
// where the exception that ends the run was raised, in whichever file of the project. Checked on
// the road every face moves on (LiveSession.move, session/moves.ts), with the reason each face
// reports.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { REPO_ROOT } from '../util/repoRoot';
import { projectBdb } from '../testing/oracle';
import type { DebugState } from '../core/state';
import type { ExceptionMode } from './exceptionStops';
import { LiveSession, type LiveOptions } from './liveSession';
import type { StopReason } from './moves';
import { recordOrThrow } from './programSession';
import { projectOptions, readProject } from './projectFiles';

const project = readProject(join(REPO_ROOT, 'fixtures/project/shop/main.py'));
let host: PythonHost;

beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

type Stop = DebugState & { reason: StopReason };

/** The stops of `continue` (`count` of them, at most), each with the reason the session gives
 * every face, with exception stops in `mode`. */
async function continues(source: string, mode: ExceptionMode, count: number, options: Partial<LiveOptions> = {}): Promise<Stop[]> {
  const live = await LiveSession.start(host, source, '', { engine: 'real', exceptions: mode, ...options });
  const stops: Stop[] = [];
  for (let i = 0; i < count; i++) {
    const { reason } = await live.move({ kind: 'continue' });
    stops.push({ ...live.state, reason });
  }
  return stops;
}

/** The stops of `continue` until the end, with exception stops in `mode`. */
async function continueStops(argv: string[], mode: ExceptionMode): Promise<Array<Record<string, unknown>>> {
  const stops = await continues(project.source, mode, 8, { file: project.main, limits: { ...projectOptions(project), argv } });
  const before = stops.filter((s) => s.event !== 'exit');
  // every stop before the end is an exception stop, as DAP and MCP report it
  expect(before.map((s) => s.reason)).toEqual(before.map(() => 'exception'));
  return before as unknown as Array<Record<string, unknown>>;
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
    const stops = async (mode: ExceptionMode) => await continues(source, mode, 2);
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
      const [stop, end] = await continues(source, mode, 2, { limits: { maxEvents: 10_000 } });
      expect(stop).toMatchObject({ event: 'line', function: 'fact', line: 2, reason: 'exception' });
      expect(stop!.event !== 'entry' && stop!.event !== 'exit' && stop!.depth).toBeGreaterThan(100);
      expect(end).toMatchObject({ event: 'exit', status: 'exception' });
    }, 120_000);
  }
});
