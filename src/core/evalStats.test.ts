import { describe, expect, it } from 'vitest';
import { parseAction } from './actions';
import { EvalStats } from './evalStats';

const hit = { match: true, fields: { event: true, line: true, locals: true } };
const miss = { match: false, fields: { event: true, line: false, locals: false } };

describe('EvalStats', () => {
  it('tallies per direction, per action and per field, and the states after an edit apart', () => {
    const stats = new EvalStats();
    stats.add(parseAction('step_into'), hit);
    stats.add(parseAction('step_into'), miss, true);
    stats.add(parseAction('step_over'), hit, true);
    stats.add(parseAction('inv_step_into'), miss);
    const r = stats.report();
    expect(r.n).toBe(4);
    expect(r.exact_match).toBe(0.5);
    expect(r.forward).toEqual({ n: 3, exact_match: 2 / 3 });
    expect(r.inverse).toEqual({ n: 1, exact_match: 0 });
    expect(r.after_edit).toEqual({ n: 2, exact_match: 0.5 });
    expect(r.per_action.step_into).toEqual({ n: 2, exact_match: 0.5 });
    expect(r.fields.line).toEqual({ n: 4, accuracy: 0.5 });
  });
});
