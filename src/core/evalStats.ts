// Accumulates next-state exact match per action kind and per field.

import { isInverse, type Action } from './actions';
import type { FieldName, StateComparison } from './compare';

export interface Tally {
  n: number;
  exact: number;
}

export interface EvalReport {
  n: number;
  exact_match: number;
  forward: { n: number; exact_match: number };
  inverse: { n: number; exact_match: number };
  /** States that come after a what-if edit in their trajectory. */
  after_edit: { n: number; exact_match: number };
  per_action: Record<string, { n: number; exact_match: number }>;
  fields: Partial<Record<FieldName, { n: number; accuracy: number }>>;
  /** States whose event and line are both right (where it has a line): where the debugger stops. */
  event_line: { n: number; accuracy: number };
  unparseable: number;
}

/** One action kind's tally: states, exact matches, and per field the states scored and right. */
export interface ActionTally {
  kind: string;
  n: number;
  exact: number;
  fields: Partial<Record<FieldName, Tally>>;
}

export class EvalStats {
  private all: Tally = { n: 0, exact: 0 };
  private forward: Tally = { n: 0, exact: 0 };
  private inverse: Tally = { n: 0, exact: 0 };
  private afterEdit: Tally = { n: 0, exact: 0 };
  private eventLine: Tally = { n: 0, exact: 0 };
  private readonly byAction = new Map<string, Tally>();
  private readonly byField = new Map<FieldName, Tally>();
  private readonly fieldsByAction = new Map<string, Map<FieldName, Tally>>();
  private unparseable = 0;

  /** `afterEdit`: the state comes after a what-if edit in its trajectory. */
  add(action: Action, comparison: StateComparison, afterEdit = false): void {
    const hit = comparison.match ? 1 : 0;
    for (const t of [this.all, isInverse(action) ? this.inverse : this.forward, ...(afterEdit ? [this.afterEdit] : [])]) {
      t.n++;
      t.exact += hit;
    }
    const a = this.byAction.get(action.kind) ?? { n: 0, exact: 0 };
    a.n++;
    a.exact += hit;
    this.byAction.set(action.kind, a);
    const actionFields = this.fieldsByAction.get(action.kind) ?? new Map<FieldName, Tally>();
    this.fieldsByAction.set(action.kind, actionFields);
    for (const [field, ok] of Object.entries(comparison.fields) as Array<[FieldName, boolean]>) {
      for (const tallies of [this.byField, actionFields]) {
        const f = tallies.get(field) ?? { n: 0, exact: 0 };
        f.n++;
        f.exact += ok ? 1 : 0;
        tallies.set(field, f);
      }
    }
    this.eventLine.n++;
    this.eventLine.exact += comparison.fields.event !== false && comparison.fields.line !== false ? 1 : 0;
    if (comparison.unparseable) this.unparseable++;
  }

  /** The counts per action kind, in the order the kinds were first seen (the app's score table). */
  perAction(): ActionTally[] {
    return [...this.byAction].map(([kind, t]) => ({
      kind,
      n: t.n,
      exact: t.exact,
      fields: Object.fromEntries([...(this.fieldsByAction.get(kind) ?? [])].map(([f, c]) => [f, { ...c }])),
    }));
  }

  report(): EvalReport {
    const rate = (t: Tally) => (t.n ? t.exact / t.n : 0);
    return {
      n: this.all.n,
      exact_match: rate(this.all),
      forward: { n: this.forward.n, exact_match: rate(this.forward) },
      inverse: { n: this.inverse.n, exact_match: rate(this.inverse) },
      after_edit: { n: this.afterEdit.n, exact_match: rate(this.afterEdit) },
      per_action: Object.fromEntries([...this.byAction].sort().map(([k, t]) => [k, { n: t.n, exact_match: rate(t) }])),
      fields: Object.fromEntries([...this.byField].map(([k, t]) => [k, { n: t.n, accuracy: rate(t) }])),
      event_line: { n: this.eventLine.n, accuracy: rate(this.eventLine) },
      unparseable: this.unparseable,
    };
  }
}
