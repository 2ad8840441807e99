// The debugger store against a stand-in engine whose recordings answer when the test says: an
// answer nobody waits for any more is dropped, whole, whether it is a recording or a failure.

import { describe, expect, it } from 'vitest';
import type { Recording } from '../core/trace';
import { LiveSession } from '../session/liveSession';
import { STAND_IN_INFO as INFO, standInHost } from '../testing/standInHost';
import { EngineError } from '../realEngine/browser/client';
import { loadInProcessHost } from '../realEngine/pythonHost';
import { Debugger, type DebuggerEvent } from './debugger.svelte';
import { Program } from './program.svelte';

function recording(source: string): Recording {
  return {
    source,
    call: 'f()',
    events: [
      { event: 'call', line: 1, function: 'f', depth: 0, frame: 1, parent: -1, code: 0, locals: {}, out: 0 },
      { event: 'line', line: 2, function: 'f', depth: 0, frame: 1, parent: -1, code: 0, locals: {}, out: 0 },
    ],
    codes: [],
    stdout: '',
    exit: { status: 'normal', value: 'None' },
  };
}

/** An engine whose answers wait for `answer` or `fail`. */
class StandInEngine {
  private answers: Array<{ resolve: (r: Recording) => void; reject: (e: Error) => void; source: string }> = [];
  readonly host = standInHost({
    record: (source) => new Promise((resolve, reject) => this.answers.push({ resolve, reject, source })),
    expressionError: async () => null,
  });

  answer(i: number): void {
    const a = this.answers[i]!;
    a.resolve(recording(a.source));
  }
  /** Answers with a run that recorded no event and ended with `exit`. */
  answerWith(i: number, exit: Recording['exit']): void {
    const a = this.answers[i]!;
    a.resolve({ ...recording(a.source), events: [], exit });
  }
  /** Answers with a run of these events. */
  answerEvents(i: number, events: Recording['events']): void {
    const a = this.answers[i]!;
    a.resolve({ ...recording(a.source), events });
  }
  fail(i: number, message: string): void {
    this.answers[i]!.reject(new Error(message));
  }
  failWith(i: number, err: Error): void {
    this.answers[i]!.reject(err);
  }
}

async function started(): Promise<{ debug: Debugger; engine: StandInEngine; events: DebuggerEvent[]; program: Program }> {
  const program = new Program([]);
  program.source = 'def f():\n    pass\n';
  program.call = 'f()';
  const debug = new Debugger(program);
  const engine = new StandInEngine();
  const events: DebuggerEvent[] = [];
  debug.onEvent = (ev) => events.push(ev);
  expect(
    await debug.start((onReady) => {
      onReady(INFO);
      return engine.host;
    }),
  ).toBe(true);
  expect(debug.engine).toBe('ready');
  return { debug, engine, events, program };
}

describe('an answer that cannot be trusted', () => {
  it('is shown as the error, waits for the fresh worker, and runs again only on Restart', async () => {
    const { debug, engine, program } = await started();
    const run = debug.record();
    engine.failWith(0, new EngineError('The run cannot be trusted: events[0].depth is 268435456, outside 0..100000', 'untrusted'));
    expect(await run).toBe(false);
    expect(debug.recording).toBeNull();
    expect(debug.error).toBe('The run cannot be trusted: events[0].depth is 268435456, outside 0..100000');
    expect(debug.engine).toBe('loading');
    expect(debug.haltedBy).toBe('limit');
    // a step does not run it again by itself once Python is back
    debug.connection.status = 'ready';
    expect(debug.canDo({ kind: 'step_into' })).toBe(false);
    expect(debug.canDo({ kind: 'restart' })).toBe(true);
    expect(program.source).toBe('def f():\n    pass\n');
  });
});

describe('Debugger.restoreTo', () => {
  it('marks nothing changed at a restored stop (a reload): the stops before it were never seen', async () => {
    const { debug, engine } = await started();
    const done = debug.record();
    engine.answer(0);
    await done;
    const rec = debug.recording!;
    const withValues: Recording = { ...rec, events: [rec.events[0]!, { ...rec.events[1]!, locals: { x: '1', y: '2' } }] };
    const live = LiveSession.fromRecording(engine.host, withValues.source, withValues.call, withValues, { engine: 'real' });
    await debug.restoreTo(live, 1);
    expect(debug.view.state).toMatchObject({ event: 'line', locals: { x: '1', y: '2' } });
    expect([...debug.view.changed]).toEqual([]);
  });
});

describe('Debugger.record', () => {
  it('shows the recording at its first stop and reports it', async () => {
    const { debug, engine, events } = await started();
    const done = debug.record();
    expect(debug.busy).toBe(true);
    engine.answer(0);
    expect(await done).toBe(true);
    expect(debug.busy).toBe(false);
    expect(debug.dirty).toBe(false);
    expect(debug.view.state).toMatchObject({ event: 'call', line: 1 });
    expect(events.map((e) => e.kind)).toEqual(['recorded']);
  });

  it('drops an answer that comes when it is no longer wanted (a newer link was loaded)', async () => {
    const { debug, engine, events, program } = await started();
    let wanted = true;
    const done = debug.record(() => wanted);
    wanted = false;
    program.source = 'def g():\n    pass\n';
    engine.answer(0);
    expect(await done).toBe(false);
    expect(debug.recording).toBeNull();
    expect(debug.busy).toBe(false);
    expect(events).toEqual([]);
  });

  it('drops a failure that comes when it is no longer wanted, and shows one that is', async () => {
    const { debug, engine, events } = await started();
    let wanted = false;
    const late = debug.record(() => wanted);
    engine.fail(0, 'boom');
    expect(await late).toBe(false);
    expect(debug.error).toBeNull();
    expect(events).toEqual([]);
    wanted = true;
    const current = debug.record(() => wanted);
    engine.fail(1, 'boom');
    expect(await current).toBe(false);
    expect(debug.error).toBe('Something went wrong: boom');
    expect(events.map((e) => e.kind)).toEqual(['cleared']);
  });
});

describe('buttons that would do nothing', () => {
  it('are disabled at the entry and at the end, and a press there reports nothing (nothing is scored)', async () => {
    const { debug, engine, events } = await started();
    const done = debug.record();
    engine.answer(0);
    await done;
    // At the first event: back to the entry works, forward works.
    expect(debug.available.step_into).toBe(true);
    expect(debug.available.inv_step_into).toBe(true);
    await debug.run({ kind: 'inv_step_into' });
    expect(debug.position).toBe(-1);
    expect(debug.available.inv_step_into).toBe(false);
    expect(debug.available.inv_step_over).toBe(false);
    expect(debug.available.inv_step_call).toBe(false);
    const before = events.length;
    await debug.run({ kind: 'inv_step_into' });
    expect(events.length).toBe(before);
    await debug.run({ kind: 'continue' });
    expect(debug.view.state?.event).toBe('exit');
    for (const kind of ['step_into', 'step_over', 'step_return', 'continue'] as const) expect(debug.available[kind], kind).toBe(false);
    expect(debug.available.restart).toBe(true);
    const atEnd = events.length;
    await debug.run({ kind: 'step_into' });
    await debug.run({ kind: 'continue' });
    expect(events.length).toBe(atEnd);
  });

  it('lets the steps run a changed program, but never steps back into an old one', async () => {
    const { debug, engine, program } = await started();
    const done = debug.record();
    engine.answer(0);
    await done;
    program.source = 'def f():\n    return 1\n';
    expect(debug.available.step_into).toBe(true);
    expect(debug.available.inv_step_into).toBe(false);
  });

  it('leaves only Restart after a run that could not start', async () => {
    const { debug, engine } = await started();
    const done = debug.record();
    engine.answerWith(0, { status: 'syntax_error', message: 'SyntaxError: invalid syntax (line 2)', line: 2, column: 5 });
    await done;
    expect(Object.entries(debug.available).filter(([, on]) => on).map(([k]) => k)).toEqual(['restart']);
    expect(debug.view.errorMarker).toMatchObject({ line: 2, column: 5, kind: 'syntax' });
  });
});

describe('Debugger: reverse continue and exception stops', () => {
  const at = (event: 'call' | 'line' | 'exception' | 'return', line: number, extra: object = {}) => ({ event, line, function: 'f', depth: 0, frame: 1, parent: -1, code: 0, locals: {}, out: 0, ...extra });
  // f: line 2 three times (a loop); an exception raised and caught at line 3 in the second pass.
  const EVENTS: Recording['events'] = [
    at('call', 1),
    at('line', 2, { locals: { i: '0' } }),
    at('line', 3),
    at('line', 2, { locals: { i: '1' } }),
    at('line', 3),
    at('exception', 3, { exc_type: 'ValueError', value: "ValueError('no')" }),
    at('line', 4),
    at('line', 2, { locals: { i: '2' } }),
    at('return', 5, { value: 'None' }),
  ];

  async function recorded() {
    const s = await started();
    const done = s.debug.record();
    s.engine.answerEvents(0, EVENTS);
    await done;
    return s;
  }

  it('goes back to the previous breakpoint stop, then to the entry, and is disabled there', async () => {
    const { debug, program, events } = await recorded();
    program.breakpoints = [2];
    expect(debug.available.inv_continue).toBe(false);
    await debug.run({ kind: 'continue' });
    await debug.run({ kind: 'continue' });
    await debug.run({ kind: 'continue' });
    expect(debug.position).toBe(7);
    const before = events.length;
    await debug.run({ kind: 'inv_continue' });
    expect(debug.position).toBe(3);
    // Not one of the model's actions: the model starts again from the stop, as after a jump.
    expect(events.slice(before).map((e) => e.kind)).toEqual(['jump']);
    await debug.run({ kind: 'inv_continue' });
    expect(debug.position).toBe(1);
    await debug.run({ kind: 'inv_continue' });
    expect(debug.position).toBe(0);
    expect(debug.available.inv_continue).toBe(false);
  });

  it('stops forward moves where an exception is raised only while the switch is on', async () => {
    const { debug, events } = await recorded();
    debug.exceptions = 'raised';
    await debug.run({ kind: 'continue' });
    expect(debug.position).toBe(5);
    expect(debug.atExceptionStop).toBe(true);
    expect(events[events.length - 1]!.kind).toBe('jump');
    await debug.run({ kind: 'continue' });
    expect(debug.position).toBe(EVENTS.length);
    await debug.run({ kind: 'inv_continue' });
    debug.exceptions = 'none';
    await debug.run({ kind: 'step_over' });
    await debug.run({ kind: 'continue' });
    expect(debug.position).toBe(EVENTS.length);
    expect(debug.atExceptionStop).toBe(false);
  });
});

describe('input() that waits like a terminal (issue 46)', () => {
  const ASKS = 'def ask():\n    return input("Name? ")\n\nname = ask()\nprint("Hello", name)\n';

  async function realDebugger(source: string): Promise<{ debug: Debugger; program: Program; events: DebuggerEvent[] }> {
    const host = await loadInProcessHost();
    const program = new Program([]);
    program.source = source;
    program.call = '';
    const debug = new Debugger(program);
    const events: DebuggerEvent[] = [];
    debug.onEvent = (ev) => events.push(ev);
    await debug.start((onReady) => {
      onReady(INFO);
      return Object.assign(Object.create(host) as typeof host, { ready: Promise.resolve(INFO) });
    });
    expect(await debug.record()).toBe(true);
    return { debug, program, events };
  }

  it('waits at the line that calls input(), with no exception, and goes on with the typed line to where the move ends', async () => {
    const { debug, program, events } = await realDebugger(ASKS);
    await debug.run({ kind: 'step_into' });
    await debug.run({ kind: 'step_into' });
    expect(debug.view.state).toMatchObject({ event: 'line', line: 4, function: '<module>' });
    expect(debug.inputAsked).toBeNull();
    // Step over the line whose call asks for input: it waits inside, where input() is called
    await debug.run({ kind: 'step_over' });
    expect(debug.waitingForInput).toBe(true);
    expect(debug.inputAsked).toBe('Name? ');
    expect(debug.view.state).toMatchObject({ event: 'line', line: 2, function: 'ask' });
    expect(debug.view.errorMarker).toBeNull();
    expect(events.at(-1)?.kind).toBe('jump');
    // the line typed: the same Step over goes on and ends after the line, in the module
    expect(await debug.answerInput('Ada')).toBe(true);
    expect(program.input).toBe('Ada\n');
    expect(debug.waitingForInput).toBe(false);
    expect(debug.inputAsked).toBeNull();
    expect(debug.view.state).toMatchObject({ event: 'line', line: 5, function: '<module>', locals: { name: "'Ada'" } });
    expect(events.at(-1)).toMatchObject({ kind: 'action', action: { kind: 'step_over' } });
  }, 120_000);

  it('waits again where Continue meets the next input(), and a move back ends the wait', async () => {
    const { debug } = await realDebugger('a = input("A? ")\nb = input("B? ")\nprint(a + b)\n');
    await debug.run({ kind: 'continue' });
    expect(debug.inputAsked).toBe('A? ');
    expect(debug.view.state).toMatchObject({ event: 'line', line: 1 });
    await debug.answerInput('1');
    expect(debug.inputAsked).toBe('B? ');
    expect(debug.view.state).toMatchObject({ event: 'line', line: 2, locals: { a: "'1'" } });
    // a forward move while waiting still waits; a move back leaves the wait
    await debug.run({ kind: 'step_into' });
    expect(debug.waitingForInput).toBe(true);
    await debug.run({ kind: 'inv_step_into' });
    expect(debug.waitingForInput).toBe(false);
    expect(debug.inputAsked).toBeNull();
    await debug.run({ kind: 'continue' });
    await debug.answerInput('2');
    expect(debug.view.state).toMatchObject({ event: 'exit', status: 'normal' });
    expect(debug.view.state?.event === 'exit' && debug.view.state.stdout).toBe('A? 1\nB? 2\n12\n');
  }, 120_000);
});

describe('the footer\'s load time', () => {
  it('is measured once: a worker started again later does not change it', async () => {
    const program = new Program([]);
    const debug = new Debugger(program);
    let ready: (info: typeof INFO) => void = () => undefined;
    await debug.start((onReady) => {
      ready = onReady;
      onReady({ ...INFO, loadMs: 21_200 });
      return standInHost({});
    });
    expect(debug.connection.loadMs).toBe(21_200);
    ready({ ...INFO, loadMs: 508_600 });
    expect(debug.connection.loadMs).toBe(21_200);
    expect(debug.connection.info?.loadMs).toBe(508_600);
  });
});
