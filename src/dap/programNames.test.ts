// DAP's "Predicted" scope for a program whose names a plain object has on its prototype (issue
// 44): each local is marked against the real one of that name only, `toString` and `__proto__`
// included.

import { beforeAll, describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { parseState, renderState, type ParsedState } from '../core/format';
import { sourceLines } from '../core/sourceLines';
import { stateAt } from '../core/state';
import type { Recording } from '../core/trace';
import { recordPrototypeNames } from '../testing/prototypeNames';
import { OK, predictedRows, WRONG } from './predicted';

let rec: Recording;
beforeAll(async () => {
  rec = await recordPrototypeNames();
}, 120_000);

describe('the Predicted scope, for names a plain object has on its prototype', () => {
  it('marks each predicted local against the real one of its name', () => {
    const pos = rec.events.findIndex((e) => e.function === 'show' && e.line === 11 && e.event === 'line');
    const real = stateAt(rec, pos);
    const parsed = parseState(
      renderState(sourceLines(rec.source), {
        event: 'line',
        line: 11,
        locals: JSON.parse('{"constructor":"[1]","hasOwnProperty":"[[1]]","__proto__":"\'p\'"}') as Record<string, string>,
      }),
    ) as ParsedState;
    const rows = predictedRows(real, parsed, compareStates(real, parsed, 'forward'));
    expect(rows.filter((r) => !['match', 'event', 'line'].includes(r.name))).toEqual([
      { name: 'constructor', value: `[1] ${OK}` },
      { name: 'hasOwnProperty', value: `[[1]] ${WRONG} (real: not a local)` },
      { name: '__proto__', value: `'p' ${WRONG} (real: not a local)` },
      { name: 'toString', value: `(not predicted) ${WRONG} (real: 'thing')` },
      { name: 'valueOf', value: `(not predicted) ${WRONG} (real: [[1]])` },
    ]);
  });
});
