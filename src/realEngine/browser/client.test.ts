// The Pyodide worker's client against stand-in workers: answers are matched to requests by id,
// stale answers (a repeated id, a replaced worker) are dropped, and a restart fails what waits.

import { describe, expect, it, vi } from 'vitest';
import type { Recording } from '../../core/trace';
import { EngineClient, EngineError, type WorkerRequest, type WorkerResponse } from './client';
import type { EngineQuestion, QuestionKind } from '../engineProtocol';

/** A worker that keeps what it was sent and answers when the test says. */
class StandInWorker {
  sent: WorkerRequest[] = [];
  terminated = false;
  onmessage: ((ev: MessageEvent<WorkerResponse>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;

  postMessage(msg: WorkerRequest): void {
    this.sent.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(msg: WorkerResponse): void {
    this.onmessage?.({ data: msg } as MessageEvent<WorkerResponse>);
  }
  /** The id of the last question of this kind. */
  idOf(kind: QuestionKind): number {
    const msg = [...this.sent].reverse().find((m) => m.type === 'ask' && m.question.kind === kind);
    if (!msg || msg.type !== 'ask') throw new Error(`no ${kind} question`);
    return msg.id;
  }
  /** The question of request `id`. */
  question(id: number): EngineQuestion {
    const msg = this.sent.find((m) => m.type === 'ask' && m.id === id);
    if (!msg || msg.type !== 'ask') throw new Error(`no question ${id}`);
    return msg.question;
  }
  /** Answers the last question of a recording (with `change`, a recording no tracer wrote). */
  recorded(value: string, id = this.idOf('record'), change: (rec: Recording) => unknown = (rec) => rec): void {
    const q = this.question(id);
    const rec = q.kind === 'record' ? recording(q.source, q.call, value) : recording('', '', value);
    this.answer({ type: 'answered', id, kind: 'record', answer: change(rec) as Recording, elapsedMs: 1 });
  }
}

function recording(source: string, call: string, value: string): Recording {
  return { source, call, events: [], codes: [], stdout: '', exit: { status: 'normal', value } };
}

function client(): { engine: EngineClient; workers: StandInWorker[] } {
  const workers: StandInWorker[] = [];
  const engine = new EngineClient({}, () => {
    const w = new StandInWorker();
    workers.push(w);
    return w as unknown as Worker;
  });
  return { engine, workers };
}

const READY: WorkerResponse = { type: 'ready', loadMs: 1, pythonVersion: '3.14.2', interruptible: false };

/** Lets the client's awaits (ready, then the request) run. */
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('EngineClient', () => {
  it('matches answers to requests by id and drops an answer nobody waits for', async () => {
    const { engine, workers } = client();
    const w = workers[0]!;
    w.answer(READY);
    const first = engine.record('a = 1', '');
    const second = engine.evaluateOnLocals('a', { a: '1' });
    await tick();
    const ids = [w.idOf('record'), w.idOf('evaluateOnLocals')];
    w.answer({ type: 'answered', id: ids[1]!, kind: 'evaluateOnLocals', answer: { value: '1' }, elapsedMs: 1 });
    w.recorded('x', ids[0]!);
    w.recorded('late', ids[0]!);
    expect((await first).exit.value).toBe('x');
    expect(await second).toEqual({ value: '1' });
    const failing = engine.record('a = 1', '');
    await tick();
    w.answer({ type: 'error', id: w.idOf('record'), message: 'boom' });
    await expect(failing).rejects.toMatchObject({ message: 'boom', kind: 'engine' });
  });

  it('fails what waits when the worker is replaced, and ignores the old worker after', async () => {
    const { engine, workers } = client();
    const old = workers[0]!;
    old.answer(READY);
    const pending = engine.record('while True: pass', '');
    await tick();
    const id = old.idOf('record');
    engine.restart();
    await expect(pending).rejects.toBeInstanceOf(EngineError);
    await expect(pending).rejects.toMatchObject({ kind: 'stopped' });
    expect(old.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    // The old worker's answer arrives after all: it is not taken for anything.
    old.recorded('stale', id);
    workers[1]!.answer(READY);
    const next = engine.record('a = 2', '');
    await tick();
    workers[1]!.recorded('fresh');
    expect((await next).exit.value).toBe('fresh');
  });

  it('runs another program in a fresh worker (made ahead), and the same program in its own', async () => {
    vi.useFakeTimers();
    try {
      const { engine, workers } = client();
      const first = workers[0]!;
      first.answer(READY);
      const answer = async (w: StandInWorker, value: string): Promise<void> => {
        await vi.advanceTimersByTimeAsync(0);
        w.recorded(value);
      };
      let run = engine.record('a = 1', '');
      await answer(first, 'a');
      expect((await run).exit.value).toBe('a');
      // the same program with other options (an edit, a watch) stays where it ran
      run = engine.record('a = 1', '', { watch: ['a'] });
      await answer(first, 'a again');
      await run;
      expect(workers).toHaveLength(1);
      // the worker for the next program is made ahead
      await vi.advanceTimersByTimeAsync(2_000);
      expect(workers).toHaveLength(2);
      const spare = workers[1]!;
      expect(spare.sent).toEqual([]);
      run = engine.record('b = 2', '');
      expect(first.terminated).toBe(true);
      // a real worker holds its messages until init: it answers ready only now
      expect(spare.sent[0]).toMatchObject({ type: 'init' });
      spare.answer(READY);
      await answer(spare, 'b');
      expect((await run).exit.value).toBe('b');
      // a different call is another program too
      await vi.advanceTimersByTimeAsync(2_000);
      run = engine.record('b = 2', 'print(1)');
      expect(spare.terminated).toBe(true);
      workers[2]!.answer(READY);
      await answer(workers[2]!, 'c');
      expect((await run).exit.value).toBe('c');
      engine.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops an answer that fails its check, says the run cannot be trusted and replaces the worker', async () => {
    const { engine, workers } = client();
    const w = workers[0]!;
    w.answer(READY);
    const run = engine.record('def f():\n    return 1\n', 'f()');
    await tick();
    // one event at depth 2**28, forged past Python's layer
    w.recorded('1', undefined, (rec) => ({
      ...rec,
      events: [{ event: 'call', line: 1, function: 'f', depth: 2 ** 28, frame: 0, parent: -1, code: 0, locals: {}, out: 0 }],
      codes: [{ name: 'f', firstline: 1, lines: [2], generator: false }],
    }));
    await expect(run).rejects.toMatchObject({ kind: 'untrusted', message: 'The run cannot be trusted: events[0].depth is 268435456, outside 0..100000' });
    expect(w.terminated).toBe(true);
    expect(workers).toHaveLength(2);
    // the fresh worker answers honestly
    workers[1]!.answer(READY);
    const next = engine.record('a = 2', '');
    await tick();
    workers[1]!.recorded('fine');
    expect((await next).exit.value).toBe('fine');
  });

  it('replaces a worker that posts outside its protocol, failing what waits on it', async () => {
    const { engine, workers } = client();
    const w = workers[0]!;
    w.answer(READY);
    const waiting = engine.sameValue('1', '1');
    await tick();
    w.answer({ type: 'ready', loadMs: 1, pythonVersion: '3.14.2', interruptible: false });
    await expect(waiting).rejects.toMatchObject({ kind: 'untrusted', message: 'The run cannot be trusted: the Python worker sent ready a second time' });
    expect(w.terminated).toBe(true);
    workers[1]!.answer(READY);
    const again = engine.sameValue('1', '1');
    await tick();
    const id = [...workers[1]!.sent].reverse().find((m) => m.type === 'ask')!;
    workers[1]!.answer({ type: 'answered', id: (id as { id: number }).id, kind: 'sameValue', answer: 'yes' as unknown as boolean, elapsedMs: 1 });
    await expect(again).rejects.toMatchObject({ kind: 'untrusted', message: 'The run cannot be trusted: the answer is text, not true or false' });
    expect(workers).toHaveLength(3);
  });
});
