// The trivial answer beside the model's (trivialStep.ts): one rule per action, read from the stop
// before the step, never from the state it reaches.
import { beforeAll, describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { RecordingSession } from '../core/recordingSession';
import type { Recording } from '../core/trace';
import { loadNodeEngine } from '../realEngine/node/node';
import { trivialNext } from './trivialStep';

const SOURCE = 'def total(n):\n    s = 0\n    s = s + n\n    return s\n\ndef main():\n    t = total(2)\n    return t\n';
let rec: Recording;

beforeAll(async () => {
  rec = (await loadNodeEngine()).record(SOURCE, 'main()');
}, 120_000);

const at = (line: number, event = 'line') => rec.events.findIndex((e) => e.line === line && e.event === event);

describe('trivialNext', () => {
  it("steps to the frame's next line with the locals unchanged, and is right where nothing changes", () => {
    const p = trivialNext(rec, at(2), { kind: 'step_into' }, []);
    expect(p).toMatchObject({ event: 'line', inverse: false, line: 3, locals: { n: '2' } });
    // s = 0 changes s: the rule is wrong there; from the call, the first line with the arguments is right
    const real = new RecordingSession(rec);
    real.jump(at(1, 'call'));
    const guess = trivialNext(rec, real.position, { kind: 'step_into' }, []);
    real.apply({ kind: 'step_into' });
    expect(compareStates(real.state, guess, 'forward').match).toBe(true);
  });

  it('answers each jump by its rule', () => {
    expect(trivialNext(rec, at(2), { kind: 'step_return' }, [])).toMatchObject({ event: 'return', line: 4, value: 'None' });
    expect(trivialNext(rec, at(7), { kind: 'continue' }, [3, 8])).toMatchObject({ event: 'line', line: 8 });
    expect(trivialNext(rec, at(8), { kind: 'continue' }, [3])).toMatchObject({ event: 'line', line: 3 });
    expect(trivialNext(rec, at(7), { kind: 'continue' }, [])).toEqual({ event: 'exit', status: 'normal' });
    expect(trivialNext(rec, at(2), { kind: 'breakpoint', line: 8 }, [])).toMatchObject({ event: 'line', line: 8, locals: { n: '2' } });
  });

  it('steps back to the previous line, or the call at the first', () => {
    expect(trivialNext(rec, at(3), { kind: 'inv_step_over' }, [])).toMatchObject({ event: 'line', inverse: true, line: 2 });
    expect(trivialNext(rec, at(2), { kind: 'inv_step_into' }, [])).toMatchObject({ event: 'call', inverse: true, line: 1 });
    expect(trivialNext(rec, at(3), { kind: 'inv_step_call' }, [])).toMatchObject({ event: 'call', inverse: true, line: 1 });
  });

  it('stays at an end going forward, and gives up stepping back from one', () => {
    expect(trivialNext(rec, rec.events.length, { kind: 'step_into' }, [])).toEqual({ event: 'exit', status: 'normal' });
    expect(trivialNext(rec, rec.events.length, { kind: 'inv_step_into' }, [])).toHaveProperty('unparseable');
  });

  it('from the call of a one-line function, steps to its one line, not to its return', async () => {
    const one = (await loadNodeEngine()).record('def double(x): return 2 * x\n\ndef main():\n    return double(3)\n', 'main()');
    const call = one.events.findIndex((e) => e.event === 'call' && e.line === 1);
    expect(trivialNext(one, call, { kind: 'step_into' }, [])).toMatchObject({ event: 'line', line: 1, locals: { x: '3' } });
  });
});
