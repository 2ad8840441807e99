// How an evaluation item is replayed: each action predicted before the real session takes it, the
// truth read after; a what-if edit given to both and the run goes on edited; a refused edit ends
// the item. In-process Pyodide, no model: the scorer records what it is asked.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../core/actions';
import type { RecordingSession } from '../core/recordingSession';
import { loadInProcessHost, type PythonHost } from '../realEngine/pythonHost';
import type { EvalItem } from './items';
import { recordItem, replayItem, type StepScorer } from './replay';

const SOURCE = ['def total(xs):', '    s = 0', '    for x in xs:', '        s += x', '    return s', ''].join('\n');
const item = (actions: string[], start: number | null = null): EvalItem => ({ source: SOURCE, call: 'total([1, 2])', start, actions });

let engine: PythonHost;
beforeAll(async () => {
  engine = await loadInProcessHost();
}, 120_000);

/** A scorer that writes down each call: where the real session stood, and its locals after a move. */
function recorder(log: string[], session: RecordingSession): StepScorer<number> {
  return {
    predict: async (action: Action) => {
      log.push(`predict ${action.kind} at ${session.position}`);
      return log.length;
    },
    moved(action, real, predicted) {
      const locals = 'locals' in real.state ? JSON.stringify(real.state.locals) : '';
      log.push(`moved ${action.kind} to ${real.position} ${locals} (predicted as #${predicted})`);
    },
    edited(real) {
      const locals = 'locals' in real.state ? JSON.stringify(real.state.locals) : '';
      log.push(`edited at ${real.position} ${locals}`);
    },
  };
}

describe('replayItem', () => {
  it('predicts before the real session moves, and goes on over the edited run', async () => {
    const start = await recordItem(engine, item(['step_into', 'step_over', 'set:s=10', 'step_over', 'step_over']));
    expect(start.real.position).toBe(0);
    const log: string[] = [];
    expect(await replayItem(start, ['step_into', 'step_over', 'set:s=10', 'step_over', 'step_over'], recorder(log, start.real))).toBe(true);
    expect(log).toEqual([
      'predict step_into at 0',
      'moved step_into to 1 {"xs":"[1, 2]"} (predicted as #1)',
      'predict step_over at 1',
      'moved step_over to 2 {"xs":"[1, 2]","s":"0"} (predicted as #3)',
      'edited at 2 {"xs":"[1, 2]","s":"10"}',
      'predict step_over at 2',
      'moved step_over to 3 {"xs":"[1, 2]","s":"10","x":"1"} (predicted as #6)',
      'predict step_over at 3',
      'moved step_over to 4 {"xs":"[1, 2]","s":"11","x":"1"} (predicted as #8)',
    ]);
    expect(start.real.recording).not.toBe(start.rec);
  }, 60_000);

  it('starts where the item says', async () => {
    const start = await recordItem(engine, item([], 3));
    expect(start.real.position).toBe(3);
  }, 60_000);

  it('ends the item at an edit the program refuses, and scores nothing after it', async () => {
    const start = await recordItem(engine, item([]));
    const log: string[] = [];
    expect(await replayItem(start, ['step_into', 'set:nope=1', 'step_over'], recorder(log, start.real))).toBe(false);
    expect(log).toEqual(['predict step_into at 0', 'moved step_into to 1 {"xs":"[1, 2]"} (predicted as #1)']);
  }, 60_000);
});
