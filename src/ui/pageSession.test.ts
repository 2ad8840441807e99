// The session put together from its parts, with a stand-in engine and address bar: the first
// example is recorded at the start and then written into the hash; the user's commands reach
// their parts; a link's bad condition is dropped before it runs.

import { describe, expect, it } from 'vitest';
import type { Recording } from '../core/trace';
import type { RecordOptions } from '../realEngine/recordOptions';
import { STAND_IN_INFO as INFO, standInHost } from '../testing/standInHost';
import type { Example } from './examples';
import type { LinkEnvironment } from './linkSync.svelte';
import { PageSession } from './pageSession.svelte';
import { decodeHash, encodeHash } from './shareLink';

const EXAMPLE: Example = { id: '01_total', title: 'Total', call: 'total([1, 2])', source: 'def total(xs):\n    s = sum(xs)\n    return s\n' };

/** A run of total(xs): call, two lines, return. */
function recording(source: string, call: string): Recording {
  const at = (event: 'call' | 'line' | 'return', line: number, locals: Record<string, string>, value?: string) => ({
    event,
    line,
    function: 'total',
    depth: 0,
    frame: 1,
    parent: -1,
    code: 0,
    locals,
    out: 0,
    ...(value === undefined ? {} : { value }),
  });
  return {
    source,
    call,
    events: [at('call', 1, { xs: '[1, 2]' }), at('line', 2, { xs: '[1, 2]' }), at('line', 3, { xs: '[1, 2]', s: '3' }), at('return', 3, { xs: '[1, 2]', s: '3' }, '3')],
    codes: [{ name: 'total', firstline: 1, lines: [1, 2, 3], generator: false }],
    stdout: '',
    exit: { status: 'normal', value: '3' },
  };
}

class StandInEngine {
  runs: Array<{ source: string; options: RecordOptions }> = [];
  /** Runs with fewer events allowed than this are cut off by the event budget. */
  needsEvents = 0;
  readonly host = standInHost({
    record: async (source, call, options = {}) => {
      this.runs.push({ source, options });
      const rec = recording(source, call);
      if ((options.maxEvents ?? Infinity) < this.needsEvents) return { ...rec, exit: { status: 'budget', message: 'Stopped after 10000 events' } };
      return rec;
    },
    expressionError: async (expr) => (expr.includes('(') && !expr.includes(')') ? "SyntaxError: '(' was never closed" : null),
  });
}

class AddressBar implements LinkEnvironment {
  current = '';
  hash = (): string => this.current;
  replaceHash = (hash: string): void => {
    this.current = hash;
  };
  onHashChange(): void {}
  href = (): string => `https://ndb.test/${this.current}`;
  copy = async (): Promise<void> => {};
}

async function started(hash = ''): Promise<{ session: PageSession; engine: StandInEngine; bar: AddressBar }> {
  const bar = new AddressBar();
  bar.current = hash;
  const engine = new StandInEngine();
  const session = new PageSession({ examples: [EXAMPLE], link: bar });
  await session.start((onReady) => {
    onReady(INFO);
    return engine.host;
  });
  return { session, engine, bar };
}

const waitFor = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('PageSession', () => {
  it('records the first example at the start, then writes it into the hash', async () => {
    const { session, engine, bar } = await started();
    expect(session.program.exampleId).toBe('01_total');
    expect(engine.runs).toHaveLength(1);
    expect(session.statusText).toBe('call of total (line 1)');
    expect(session.canAct).toBe(true);
    await waitFor(() => bar.current !== '');
    expect(await decodeHash(bar.current)).toMatchObject({ source: EXAMPLE.source, call: EXAMPLE.call, position: 0 });
  });

  it('steps, and moves the hash with the position', async () => {
    const { session, bar } = await started();
    await session.run({ kind: 'step_into' });
    await session.run({ kind: 'step_into' });
    expect(session.statusText).toBe('line 3 in total');
    expect([...session.debug.view.changed]).toEqual(['s']);
    await waitFor(() => bar.current !== '' && bar.current.includes('pos=2'));
  });

  it('drops the condition of a breakpoint that is removed, and refuses one that is not Python', async () => {
    const { session, engine } = await started();
    expect(await session.setCondition(2, { condition: 'len(xs) > 1' })).toBe(true);
    expect(session.program.breakpoints).toEqual([2]);
    // The program ran again with the condition.
    expect(engine.runs.at(-1)?.options.conditions).toEqual({ 2: 'len(xs) > 1' });
    expect(await session.setCondition(2, { condition: 'len(xs' })).toBe(false);
    expect(session.whatIf.error).toMatch(/is not a Python expression/);
    session.toggleBreakpoint(2);
    expect(session.program.conditions).toEqual({});
  });

  it('checks the expressions a link brings before it runs them', async () => {
    const hash = await encodeHash({
      source: EXAMPLE.source,
      call: EXAMPLE.call,
      input: '',
      breakpoints: [2],
      position: 2,
      conditions: { 2: { condition: 'len(xs' } },
      watches: ['s'],
      edits: [],
    });
    const { session, engine } = await started(hash);
    expect(session.link.sharedPending).toBe(true);
    expect(engine.runs).toHaveLength(0);
    await session.link.runShared();
    expect(session.program.conditions).toEqual({});
    expect(session.whatIf.error).toMatch(/^Breakpoint conditions that are not Python expressions were dropped: line 2/);
    expect(session.debug.position).toBe(2);
    expect(session.debug.view.watchRows).toEqual([{ expr: 's', real: null }]);
  });

  it('gives the run the Input field, keeps it in the link, and runs again when it changes', async () => {
    const { session, engine, bar } = await started();
    expect(engine.runs[0]?.options.stdin).toBe('');
    session.setInput('Ada\n36\n');
    expect(session.debug.dirty).toBe(true);
    expect(session.statusNote).toMatch(/changed: the next action runs the program again/);
    await session.run({ kind: 'step_into' });
    expect(engine.runs.at(-1)?.options.stdin).toBe('Ada\n36\n');
    await waitFor(() => bar.current.includes('in='));
    expect(await decodeHash(bar.current)).toMatchObject({ input: 'Ada\n36\n' });
  });

  it('says where a run was cut off, shows its last state, and raises the limit up to the ceiling', async () => {
    const bar = new AddressBar();
    const engine = new StandInEngine();
    engine.needsEvents = 50_000;
    const session = new PageSession({ examples: [EXAMPLE], link: bar });
    await session.start((onReady) => {
      onReady(INFO);
      return engine.host;
    });
    await session.run({ kind: 'continue' });
    expect(session.statusText).toBe('The run was cut off at event 4 in total, line 3 (the event budget of 10,000). It may still finish: raise the limit.');
    expect(session.statusKind).toBe('stopped');
    // The last state reached: its frame and locals, not "the program has ended".
    expect(session.debug.view.stack.map((f) => f.function)).toEqual(['total']);
    expect(session.debug.view.lastReached?.locals).toEqual({ xs: '[1, 2]', s: '3' });
    expect(session.debug.raisable?.maxEvents).toBe(100_000);
    await session.raiseLimit();
    expect(engine.runs.at(-1)?.options.maxEvents).toBe(100_000);
    // It finished this time, and the debugger stands at its end, as Continue had left it.
    expect(session.statusText).toBe('Program finished: returned 3');
    expect(session.debug.view.stack).toEqual([]);
    expect(session.debug.raisable).toBeNull();
  });
});
