// The debugger store against a stand-in engine whose recordings answer when the test says: an
// answer nobody waits for any more is dropped, whole, whether it is a recording or a failure.

import { describe, expect, it } from 'vitest';
import type { Recording } from '../core/trace';
import type { EngineInfo, EvaluationResult } from '../realEngine/client';
import { Debugger, type DebuggerEvent, type RealEngine } from './debugger.svelte';
import { Program } from './program.svelte';

const INFO: EngineInfo = { loadMs: 1, pythonVersion: '3.14.2', interruptible: true };

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
class StandInEngine implements RealEngine {
  readonly ready = Promise.resolve(INFO);
  private answers: Array<{ resolve: (r: Recording) => void; reject: (e: Error) => void; source: string }> = [];

  record(source: string): Promise<Recording> {
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject, source }));
  }
  async evaluate(): Promise<EvaluationResult> {
    return { value: 'None' };
  }
  answer(i: number): void {
    const a = this.answers[i]!;
    a.resolve(recording(a.source));
  }
  fail(i: number, message: string): void {
    this.answers[i]!.reject(new Error(message));
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
      return engine;
    }),
  ).toBe(true);
  expect(debug.engine).toBe('ready');
  return { debug, engine, events, program };
}

describe('Debugger.record', () => {
  it('shows the recording at its first stop and reports it', async () => {
    const { debug, engine, events } = await started();
    const done = debug.record();
    expect(debug.busy).toBe(true);
    engine.answer(0);
    expect(await done).toBe(true);
    expect(debug.busy).toBe(false);
    expect(debug.dirty).toBe(false);
    expect(debug.state).toMatchObject({ event: 'call', line: 1 });
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
