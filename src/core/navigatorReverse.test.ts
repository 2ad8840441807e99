// Reverse continue (Navigator.previousBreakHit) and forks of a session (RecordingSession.fork), on
// the recordings of the navigator's parity fixture.

import { describe, expect, it } from 'vitest';
import { navigatorWith as navigator, readNavigatorFixture } from '../../fixtures/navigator/fixture';
import { parseAction } from './actions';
import { RecordingSession } from './recordingSession';

const entries = readNavigatorFixture();

describe('Navigator.previousBreakHit', () => {
  const cases = entries.flatMap((e) => e.sequences.filter((s) => s.breakpoints.length > 0).map((s) => ({ entry: e, seq: s })));

  it('has cases with breakpoints to check', () => {
    expect(cases.length).toBeGreaterThan(10);
  });

  it('visits, newest first, the stops that continue makes from the start', () => {
    for (const { entry, seq } of cases) {
      const rec = entry.recording;
      const forward = navigator(rec, seq.breakpoints, seq.conditions);
      const hits: number[] = [];
      for (let pos = forward.position; ; ) {
        pos = forward.apply({ kind: 'continue' });
        if (pos >= rec.events.length) break;
        hits.push(pos);
      }
      const back = navigator(rec, seq.breakpoints, seq.conditions);
      back.jump(rec.events.length);
      const visited: number[] = [];
      for (let hit = back.previousBreakHit(); hit !== null; hit = back.previousBreakHit()) {
        visited.push(hit);
        expect(back.breaksAt(hit), entry.name).toBe(true);
        back.jump(hit);
      }
      // The first event is where a session starts, not a stop of continue.
      expect(visited.filter((p) => p > 0).reverse(), `${entry.name} ${JSON.stringify(seq.breakpoints)}`).toEqual(hits);
    }
  });

  it('is null with no breakpoint behind', () => {
    const rec = entries[0]!.recording;
    const nav = navigator(rec, []);
    nav.jump(rec.events.length);
    expect(nav.previousBreakHit()).toBeNull();
  });
});

describe('RecordingSession.fork', () => {
  it('answers where an action goes without moving the session', () => {
    for (const entry of entries) {
      for (const seq of entry.sequences.slice(0, 3)) {
        const session = new RecordingSession(entry.recording, seq.breakpoints, new Map(Object.entries(seq.conditions ?? {}).map(([l, c]) => [Number(l), c])));
        for (const step of seq.steps.split(',').filter(Boolean)) {
          // The fixture's breakpoint edits (break:L, clear:L) are no actions.
          if (step.includes(':') && !step.startsWith('breakpoint:')) continue;
          const action = parseAction(step);
          const before = session.position;
          const fork = session.fork();
          const there = fork.apply(action);
          expect(session.position).toBe(before);
          expect(session.apply(action), `${entry.name}: ${seq.steps}`).toBe(there);
        }
      }
    }
  });
});
