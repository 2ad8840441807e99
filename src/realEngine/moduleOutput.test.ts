// A program run with a call keeps what its module printed before the call: the output is the
// terminal's, module first.

import { beforeAll, describe, expect, it } from 'vitest';
import { stateAt } from '../core/state';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
}, 60_000);

describe('output with a call', () => {
  it('keeps the module-level prints before the call\'s own', () => {
    const rec = engine.record('print("loading")\n\ndef f(x):\n    print("f", x)\n    return x\n', 'f(2)');
    expect(rec.stdout).toBe('loading\nf 2\n');
    // the call's first stop has seen the module's output, not yet its own
    expect(stateAt(rec, 0)).toMatchObject({ event: 'call', stdout: 'loading\n' });
    expect(rec.exit).toMatchObject({ status: 'normal', value: '2' });
  });
});
