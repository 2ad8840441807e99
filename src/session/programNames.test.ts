// The session layer with a program whose names a plain object has on its prototype (issue 44):
// evaluating a name reads the frame's own locals only, and `ndb debug`'s "wrong fields" name a
// local the model left out or made up, `toString` and `__proto__` included.

import { beforeAll, describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { parseState, renderState, type ParsedState } from '../core/format';
import { sourceLines } from '../core/sourceLines';
import { stateAt } from '../core/state';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { PROTOTYPE_NAMES_PROGRAM } from '../testing/prototypeNames';
import { LiveSession } from './liveSession';
import { wrongFields } from './pdbOutput';

let host: PythonHost;
let live: LiveSession;
beforeAll(async () => {
  host = await loadInProcessHost();
  live = await LiveSession.start(host, PROTOTYPE_NAMES_PROGRAM, '', { engine: 'real' });
}, 120_000);

function at(fn: string, line: number, event = 'line'): number {
  const pos = live.recording.events.findIndex((e) => e.function === fn && e.line === line && e.event === event);
  if (pos < 0) throw new Error(`no ${event} event of ${fn} at line ${line}`);
  return pos;
}

describe('names a plain object has on its prototype, in the session', () => {
  it('evaluates a name that is no local in Python, not from a prototype', async () => {
    expect(await live.evaluate('hasOwnProperty', at('show', 14))).toEqual({ value: '[[1]]' });
    // deleted in the frame: Python finds the module's, never the prototype's
    expect(await live.evaluate('toString', at('show', 14))).toEqual({ value: "'thing'" });
    expect(await live.evaluate('valueOf', at('Thing', 4))).toEqual({ error: expect.stringMatching(/^NameError/) });
    expect(await live.evaluate('constructor', at('Thing', 6, 'return'))).toEqual({ value: '1' });
  }, 60_000);

  it('names the locals the model left out or made up', () => {
    const real = stateAt(live.recording, at('show', 11));
    const parsed = parseState(
      renderState(sourceLines(live.recording.source), {
        event: 'line',
        line: 11,
        locals: JSON.parse('{"constructor":"[1]","valueOf":"[[1]]","__proto__":"\'p\'"}') as Record<string, string>,
      }),
    ) as ParsedState;
    expect(wrongFields(real, parsed, compareStates(real, parsed, 'forward'))).toEqual(["toString (missing, real 'thing')", '__proto__ (no such local)']);
  });
});
