// The end of a `yield from` (and of an `await`): the StopIteration that ends the inner generator is
// raised in the outer frame without a traceback and caught by the `yield from` itself. bdb does
// not stop at it, and the outer frame's next return is an ordinary one: CPython's bdb in Pyodide
// decides, stop by stop, with `step` through the whole program.

import { beforeAll, describe, expect, it } from 'vitest';
import { eventState } from '../core/state';
import { oracleEngine } from '../testing/oracle';
import type { PythonHost } from './pythonHost';

let host: PythonHost;
let runSegments: (request: string) => string;

beforeAll(async () => {
  ({ host, runSegments } = await oracleEngine());
}, 60_000);

const PROGRAMS: Array<[string, string, string]> = [
  ['yield from, last statement', 'def inner():\n    yield 1\n\ndef outer():\n    yield from inner()\n\ndef run():\n    return list(outer())\n', 'run()'],
  ['yield from, value used', 'def inner():\n    yield 1\n    return 5\n\ndef outer():\n    r = yield from inner()\n    return r\n\ndef run():\n    return list(outer())\n', 'run()'],
  // driven by hand: the oracle runs outside the sandbox, where asyncio's loop is Pyodide's
  ['await, last statement', 'async def inner():\n    return 3\n\nasync def outer():\n    await inner()\n\ndef run():\n    c = outer()\n    try:\n        c.send(None)\n    except StopIteration as e:\n        return e.value\n', 'run()'],
];

describe('the end of a yield from, as bdb sees it', () => {
  for (const [name, source, call] of PROGRAMS) {
    it(name, async () => {
      const rec = await host.record(source, call);
      expect(rec.exit.status).toBe('normal');
      // step through everything under bdb: each stop's event, line, function and value
      const commands = Array(rec.events.length + 2).fill('step_into');
      const [bdb] = JSON.parse(runSegments(JSON.stringify({ source, call, segments: [{ goto: 0, breakpoints: [], commands }] }))) as Array<Array<Record<string, unknown>>>;
      const skipped = (i: number) => {
        const e = rec.events[i]!;
        return e.event === 'exception' && !!rec.codes[e.code]?.generator && e.exc_type === 'StopIteration' && !!e.exc_tb_none;
      };
      const ours = rec.events
        .map((e, i) => ({ e, i }))
        .filter(({ i }) => !skipped(i))
        .map(({ e }) => {
          const s = eventState(rec, e);
          return { event: s.event, line: s.line, function: s.function, ...(s.value !== undefined ? { value: s.value } : {}), ...(s.raising ? { raising: true } : {}) };
        });
      const theirs = bdb!.filter((s) => s.event !== 'exit').map((s) => ({ event: s.event, line: s.line, function: s.function, ...(s.value !== undefined ? { value: s.value } : {}) }));
      expect(ours).toEqual(theirs);
    });
  }
});
