// The navigator against the stops recorded in fixtures/navigator/sequences.jsonl, which
// training/tests/test_navigator_parity.py holds training/navigator.py (the labeller of the training
// data) to as well. A failure here means this navigator changed: if the change is right (check it
// with bdbOracle.test.ts), regenerate the fixture (`npx tsx fixtures/navigator/generate.ts`) and
// port the change to training/navigator.py.

import { describe, expect, it } from 'vitest';
import { navigatorWith, readNavigatorFixture, type Sequence } from '../../fixtures/navigator/fixture';
import { parseAction } from './actions';
import type { Recording } from './trace';

const entries = readNavigatorFixture();

function replay(rec: Recording, seq: Sequence): number[] {
  const nav = navigatorWith(rec, seq.breakpoints, seq.conditions);
  if (seq.start !== undefined) nav.jump(seq.start);
  const stops: number[] = [];
  for (const step of seq.steps === '' ? [] : seq.steps.split(',')) {
    if (step.startsWith('break:')) nav.addBreakpoint(Number(step.slice('break:'.length)));
    else if (step.startsWith('clear:')) nav.removeBreakpoint(Number(step.slice('clear:'.length)));
    else nav.apply(parseAction(step));
    stops.push(nav.position);
  }
  return stops;
}

describe('navigator parity fixture', () => {
  it('has sessions over many recordings, stacks three deep included', () => {
    expect(entries.length).toBeGreaterThanOrEqual(100);
    expect(entries.reduce((n, e) => n + e.sequences.length, 0)).toBeGreaterThanOrEqual(2000);
    expect(entries.filter((e) => e.recording.events.some((ev) => ev.depth >= 2)).length).toBeGreaterThanOrEqual(15);
  });

  for (const entry of entries) {
    it(`stops where the fixture says: ${entry.name}`, () => {
      entry.sequences.forEach((seq, k) => {
        const context = `sequence ${k}: breakpoints [${seq.breakpoints}], conditions ${JSON.stringify(seq.conditions)}, start ${seq.start}, steps ${seq.steps}`;
        expect(replay(entry.recording, seq), context).toEqual(seq.stops);
      });
    });
  }
});
