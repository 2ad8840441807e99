// The mark of a run in progress that a reload finds (runMark.ts): set before Python runs a
// program, cleared only once no run is left and the page has drawn what the last one changed.

import { describe, expect, it } from 'vitest';
import type { Recording } from '../core/trace';
import type { AppEngine } from './engineConnection.svelte';
import { RunMark } from './runMark';

function flag(on = false): { value: boolean; get(): boolean; set(v: boolean): void } {
  const f = { value: on, get: () => f.value, set: (v: boolean) => void (f.value = v) };
  return f;
}

describe('RunMark', () => {
  it('reads at load whether the last page stopped during a run', () => {
    expect(new RunMark(flag(true)).unfinishedAtLoad).toBe(true);
    expect(new RunMark(flag(false)).unfinishedAtLoad).toBe(false);
    expect(new RunMark(null).unfinishedAtLoad).toBe(false);
  });

  it('stays set until every run ended and the page drew the last one', () => {
    const f = flag();
    const drawn: Array<() => void> = [];
    const marks = new RunMark(f, (done) => drawn.push(done));
    const first = marks.begin();
    const second = marks.begin();
    expect(f.value).toBe(true);
    first();
    first(); // ending twice counts once
    drawn.shift()!();
    expect(f.value).toBe(true); // the second still runs
    second();
    expect(f.value).toBe(true); // not drawn yet: a page that froze while drawing keeps it
    drawn.shift()!();
    expect(f.value).toBe(false);
  });

  it('marks every recording the engine makes, and nothing else', async () => {
    const f = flag();
    const seen: boolean[] = [];
    const rec = { source: '', call: '', events: [], codes: [], stdout: '', exit: { status: 'normal' } } as Recording;
    const engine = {
      ready: Promise.resolve({ loadMs: 1, pythonVersion: '3.14', interruptible: false }),
      record: async () => (seen.push(f.value), rec),
      ask: async () => (seen.push(f.value), rec),
      codeLines: async () => (seen.push(f.value), { lines: [] }),
    } as unknown as AppEngine;
    const marked = new RunMark(f, (done) => done()).wrap(engine);
    await marked.record('x = 1', '');
    await marked.ask({ kind: 'record', source: 'x = 1', call: '', options: {} });
    await marked.codeLines('x = 1');
    expect(seen).toEqual([true, true, false]);
    expect(f.value).toBe(false);
    await expect(marked.ready).resolves.toMatchObject({ pythonVersion: '3.14' });
  });
});
