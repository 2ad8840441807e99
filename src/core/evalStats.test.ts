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
    expect(r.event_line).toEqual({ n: 4, accuracy: 0.5 });
  });

  it('counts event and line together, a state without a line by its event alone', () => {
    const stats = new EvalStats();
    stats.add(parseAction('step_into'), { match: false, fields: { event: true, line: true, locals: false } });
    stats.add(parseAction('step_into'), { match: false, fields: { event: false, line: true } });
    stats.add(parseAction('step_into'), { match: true, fields: { event: true, value: true } }); // the exit
    expect(stats.report().event_line).toEqual({ n: 3, accuracy: 2 / 3 });
  });

  it('counts per action kind, fields included, in the order the kinds were first seen', () => {
    const stats = new EvalStats();
    stats.add(parseAction('step_over'), miss);
    stats.add(parseAction('step_into'), hit);
    stats.add(parseAction('step_over'), hit);
    expect(stats.perAction()).toEqual([
      { kind: 'step_over', n: 2, exact: 1, fields: { event: { n: 2, exact: 2 }, line: { n: 2, exact: 1 }, locals: { n: 2, exact: 1 } } },
      { kind: 'step_into', n: 1, exact: 1, fields: { event: { n: 1, exact: 1 }, line: { n: 1, exact: 1 }, locals: { n: 1, exact: 1 } } },
    ]);
  });
});
