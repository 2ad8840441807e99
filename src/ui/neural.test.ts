// The neural store through its environment seam: a stand-in model worker that speaks the worker's
// messages (load, begin, step, sample) and predicts what the test tells it. Loading and failing,
// the model turned off, no GPU, predictions scored against the real state and started again with
// each run, Real mode that asks nothing, and Guess inputs that shows only calls.

import { describe, expect, it } from 'vitest';
import type { Action } from '../core/actions';
import type { ParseResult } from '../core/format';
import type { Recording, TraceEvent } from '../core/trace';
import type { ModelInfo, ModelRequest, ModelResponse, PredictionResult } from '../neuralEngine/modelClient';
import { LiveSession } from '../session/liveSession';
import { standInHost } from '../testing/standInHost';
import { isScoredStop } from './modelFollower.svelte';
import { Neural, type NeuralEnvironment } from './neural.svelte';

const INFO: ModelInfo = { name: 'stand-in', parameters: 10, bytes: 100, backend: 'wasm', dtype: 'int8', loadMs: 5, threads: 1, cached: false, calibrated: true };

const ev = (event: TraceEvent['event'], line: number, locals: Record<string, string>, value?: string): TraceEvent =>
  ({ event, line, function: 'double', depth: 0, frame: 1, parent: -1, code: 0, locals, out: 0, ...(value ? { value } : {}) }) as TraceEvent;

function recording(call: string): Recording {
  return {
    source: 'def double(n):\n    m = n * 2\n    return m\n',
    call,
    codes: [],
    stdout: '',
    events: [ev('call', 1, { n: '3' }), ev('line', 2, { n: '3' }), ev('line', 3, { n: '3', m: '6' }), ev('return', 3, { n: '3', m: '6' }, '6')],
    exit: { status: 'normal', value: '6' },
  } as unknown as Recording;
}

function prediction(action: Action, state: ParseResult, text = 'state'): PredictionResult {
  return { action, text, state, newTokens: 4, prefillTokens: 0, promptTokens: 10, ms: 2, decodeMs: 2, decodeSteps: 4, stoppedBy: 'stop', confidence: { state: 0.9, position: 0.95, locals: {} } };
}

/** A model worker that answers at once: `predict` gives each step's state, `samples` Guess inputs'. */
class StandInWorker {
  onmessage: ((ev: MessageEvent<ModelResponse>) => void) | null = null;
  onerror: ((ev: ErrorEvent) => void) | null = null;
  readonly requests: ModelRequest[] = [];
  terminated = false;
  /** Clone each message as a browser does (throwing on a proxy). */
  clones = true;

  /** With `holdLoad`, the load's answer waits for this. */
  releaseLoad: () => void = () => undefined;

  constructor(private readonly script: { load?: ModelResponse; predict?: (action: Action) => ParseResult; samples?: PredictionResult[]; holdLoad?: boolean }) {}

  postMessage(req: ModelRequest): void {
    // A real worker's postMessage clones the message, and throws on what it cannot clone (a proxy).
    if (this.clones) structuredClone(req);
    this.requests.push(req);
    const answer = (res: ModelResponse) => queueMicrotask(() => this.onmessage?.({ data: res } as MessageEvent<ModelResponse>));
    if (req.type === 'load' && this.script.holdLoad) this.releaseLoad = () => answer(this.script.load ?? { type: 'loaded', info: INFO });
    else if (req.type === 'load') answer(this.script.load ?? { type: 'loaded', info: INFO });
    else if (req.type === 'begin') answer({ type: 'begun', id: req.id });
    else if (req.type === 'edit') answer({ type: 'edited', id: req.id });
    else if (req.type === 'step') answer({ type: 'stepped', id: req.id, prediction: req.predict && this.script.predict ? prediction(req.action, this.script.predict(req.action)) : null });
    else if (req.type === 'peek' && this.script.predict) answer({ type: 'peeked', id: req.id, prediction: prediction(req.action, this.script.predict(req.action)) });
    else if (req.type === 'sample') answer({ type: 'sampled', id: req.id, predictions: this.script.samples ?? [] });
  }

  terminate(): void {
    this.terminated = true;
  }
}

function environment(worker: StandInWorker, query = '', hasWebGpu = true): NeuralEnvironment {
  return { query, baseUrl: 'http://ndb.test/', requestAdapter: async () => null, hasWebGpu, modelWorker: () => worker as unknown as Worker };
}

const SRC = ['def double(n):', 'm = n * 2', 'return m'];
/** A state as the parser reads one. */
const parsed = (event: TraceEvent['event'], line: number, locals: Record<string, string>): ParseResult => ({ event, inverse: event === 'call', line, src: SRC[line - 1]!, locals });

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const stepInto: Action = { kind: 'step_into' };

async function ready(worker: StandInWorker, query = ''): Promise<Neural> {
  const neural = new Neural(environment(worker, query));
  await neural.start(() => null);
  return neural;
}

describe('the neural store', () => {
  it('loads on WASM when the browser offers no GPU, and says why', async () => {
    const worker = new StandInWorker({});
    const neural = await ready(worker);
    expect(neural.status).toBe('ready');
    expect(neural.backend).toBe('wasm');
    expect(neural.webgpuReason).toMatch(/no GPU adapter/);
    expect(worker.requests[0]).toMatchObject({ type: 'load', backend: 'wasm', baseUrl: 'http://ndb.test/' });
    const noWebGpu = new Neural(environment(new StandInWorker({}), '', false));
    await noWebGpu.start(() => null);
    expect(noWebGpu.webgpuReason).toBe('this browser does not offer WebGPU');
  });

  it('turns the model off with ?model=none and stays real-only; a failed load says the real engine still works', async () => {
    const off = await ready(new StandInWorker({}), '?model=none');
    expect(off.status).toBe('off');
    expect(off.mode).toBe('real');
    const broken = await ready(new StandInWorker({ load: { type: 'load-error', message: 'config.json is not JSON', kind: 'corrupt' } }));
    expect(broken.status).toBe('failed');
    expect(broken.error).toMatch(/config\.json is not JSON.*real engine works/);
  });

  it('scores each prediction against the real state, and starts the scores again with a new run', async () => {
    const worker = new StandInWorker({ predict: () => parsed('line', 2, { n: '3' }) });
    const neural = await ready(worker);
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    await settle();
    expect(worker.requests.at(-1)).toMatchObject({ type: 'begin', position: 0 });
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 1, breakpoints: [] });
    await settle();
    expect(neural.prediction?.comparison.match).toBe(true);
    expect(neural.ghostLine).toBe(2);
    // the same guess one step later is wrong: the real stop is line 3 with m
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 2, breakpoints: [] });
    await settle();
    expect(neural.prediction?.comparison.match).toBe(false);
    expect(neural.scores).toEqual([expect.objectContaining({ kind: 'step_into', n: 2, exact: 1 })]);
    expect(neural.scoredRun).toBe('double(3)');
    // Restart (a new recording) starts the scores again
    const again = recording('double(4)');
    neural.onDebugger({ kind: 'recorded', recording: again, position: 0, breakpoints: [] });
    expect(neural.scores).toEqual([]);
    expect(neural.scoredRun).toBe('double(4)');
    neural.onDebugger({ kind: 'action', recording: again, action: stepInto, position: 1, breakpoints: [] });
    await settle();
    expect(neural.scores).toHaveLength(1);
    // a replay with a line typed live (input()) is the same run: its scores go on
    neural.onDebugger({ kind: 'recorded', recording: recording('double(4)'), position: 0, breakpoints: [], replay: true });
    expect(neural.scores).toHaveLength(1);
    // an engine restart starts them again (no recording until the program runs again)
    neural.onDebugger({ kind: 'cleared' });
    expect(neural.scores).toEqual([]);
    expect(neural.scoredRun).toBe('');
    expect(neural.prediction).toBeNull();
  });

  it('asks the model nothing in Real mode', async () => {
    const worker = new StandInWorker({ predict: () => parsed('line', 2, { n: '3' }) });
    const neural = await ready(worker);
    neural.setMode('real');
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 1, breakpoints: [] });
    await settle();
    expect(worker.requests.map((r) => r.type)).toEqual(['load']);
    expect(neural.prediction).toBeNull();
  });

  it('guesses inputs as calls only: what is not a call or repeats is counted in the note, never shown', async () => {
    const call = (n: string) => prediction({ kind: 'inv_step_call' }, parsed('call', 1, { n }));
    const samples = [
      call('3'),
      call('5'),
      call('3'),
      prediction({ kind: 'inv_step_call' }, { unparseable: 'cut' }, '<|inv_call_sep|>'),
      call('<object at 0x1>'),
    ];
    const worker = new StandInWorker({ samples });
    const neural = new Neural(environment(worker));
    // Python's answer: the doubled argument, or (for a value that is not an expression) call_error
    const host = standInHost({
      record: async (_source, c) =>
        /^double\(\d+\)$/.test(c)
          ? { ...recording(c), exit: { status: 'normal', value: String(Number(/\d+/.exec(c)![0]) * 2) } }
          : { ...recording(c), events: [], exit: { status: 'call_error', message: 'The call is not an expression: invalid syntax' } },
    });
    const rec = recording('double(3)');
    const live = LiveSession.fromRecording(host, rec.source, rec.call, rec, { engine: 'real' });
    await live.jump(3);
    await neural.start(() => live);
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 3, breakpoints: [] });
    await settle();
    await neural.guessInputs(5);
    expect(neural.candidates).toEqual([
      { call: 'double(3)', verdict: 'yes', got: '6' },
      { call: 'double(5)', verdict: 'no', got: '10' },
    ]);
    expect(neural.guessNote).toBe('1 of 2 candidate calls return 6 (5 drawn: 2 not a call, 1 repeated).');
  });

  it('takes Predict first\'s chosen move (Enter, Check) to the model as a plain object: scored, no error', async () => {
    const worker = new StandInWorker({ predict: () => parsed('line', 2, { n: '3' }) });
    const neural = await ready(worker);
    neural.setPredictFirst(true);
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    await settle();
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 1, breakpoints: [] });
    await settle();
    // Enter in "Your next line" runs the move the learner chose: Step into until they pick another
    expect(neural.checkMove).toEqual({ kind: 'step_into' });
    neural.setCheckMove('step_over');
    neural.setCheckMove('inv_step_into'); // not a move a guess is checked with: ignored
    expect(neural.checkMove).toEqual({ kind: 'step_over' });
    neural.setCheckMove('step_into');
    const next = neural.checkMove;
    expect(() => structuredClone(next)).not.toThrow();
    neural.onDebugger({ kind: 'action', recording: rec, action: next, position: 2, breakpoints: [] });
    await settle();
    expect(neural.note).toBeNull();
    expect(neural.scores).toEqual([expect.objectContaining({ kind: 'step_into', n: 2 })]);
  });

  it('says why a prediction failed for that step only, and predicts the next step from where the program stands', async () => {
    const worker = new StandInWorker({ predict: () => parsed('line', 3, { n: '3', m: '6' }) });
    const neural = await ready(worker);
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    await settle();
    // an action the structured clone refuses (a function inside it)
    const unclonable = { kind: 'step_into', bad: () => 0 } as unknown as Action;
    neural.onDebugger({ kind: 'action', recording: rec, action: unclonable, position: 1, breakpoints: [] });
    await settle();
    expect(neural.note).toMatch(/^The prediction failed: /);
    expect(neural.predicting).toBe(false);
    // the model's history starts again at the real stop after the failed step
    expect(worker.requests.at(-1)).toMatchObject({ type: 'begin', position: 1 });
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 2, breakpoints: [] });
    await settle();
    expect(neural.note).toBeNull();
    expect(neural.prediction?.comparison.match).toBe(true);
  });

  it('does not score the entry, the start of the module (Back to call there) or the exit', () => {
    const at = (event: 'call' | 'line', fn: string, line: number) => ({ event, line, function: fn, depth: 0, locals: {}, stdout: '' });
    expect(isScoredStop({ event: 'entry' })).toBe(false);
    expect(isScoredStop({ event: 'exit', status: 'normal', stdout: '' })).toBe(false);
    expect(isScoredStop(at('call', '<module>', 0))).toBe(false);
    expect(isScoredStop(at('line', '<module>', 1))).toBe(true);
    expect(isScoredStop(at('call', 'f', 1))).toBe(true);
  });

  it('predicts the step taken while the model was loading, once it is ready, from the stop before it', async () => {
    const worker = new StandInWorker({ predict: () => parsed('line', 2, { n: '3' }), holdLoad: true });
    const neural = new Neural(environment(worker));
    const started = neural.start(() => null);
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 1, breakpoints: [] });
    await settle();
    expect(neural.status).toBe('loading');
    expect(neural.prediction).toBeNull();
    worker.releaseLoad();
    await started;
    await settle();
    await settle();
    expect(worker.requests.filter((r) => r.type === 'begin').at(-1)).toMatchObject({ position: 0 });
    expect(neural.prediction?.comparison.match).toBe(true);
    expect(neural.scores).toEqual([expect.objectContaining({ kind: 'step_into', n: 1, exact: 1 })]);
  });

  it('never shows a prediction or a reveal for a stop the debugger has left, and no marker at the end (issue 46)', async () => {
    const worker = new HeldSteps({ predict: () => parsed('line', 2, { n: '3' }) });
    const neural = await ready(worker);
    neural.setPredictFirst(true);
    const rec = recording('double(3)');
    neural.onDebugger({ kind: 'recorded', recording: rec, position: 0, breakpoints: [] });
    await settle();
    neural.guess = { line: 2, value: 'n = 3' };
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 1, breakpoints: [] });
    // a second step before the model answered the first
    neural.onDebugger({ kind: 'action', recording: rec, action: stepInto, position: 2, breakpoints: [] });
    worker.answerOne();
    await settle();
    // the first step's answer came: scored, but it is not the stop the debugger stands at
    expect(neural.scores).toEqual([expect.objectContaining({ kind: 'step_into', n: 1, exact: 1 })]);
    expect(neural.prediction).toBeNull();
    expect(neural.ghostLine).toBeNull();
    expect(neural.reveal).toBeNull();
    expect(neural.learnerScore).toMatchObject({ lines: 1, line: 1 });
    worker.answerOne();
    await settle();
    expect(neural.prediction?.position).toBe(2);
    expect(neural.reveal?.truth.line).toBe(3);
    // the same run recorded again (a watch added): the same stop, still shown
    const again = { ...rec };
    neural.onDebugger({ kind: 'rerecorded', recording: again });
    expect(neural.prediction?.position).toBe(2);
    expect(neural.reveal?.truth.line).toBe(3);
    // the end of the program: the model's line is not marked once no line runs
    neural.onDebugger({ kind: 'action', recording: again, action: { kind: 'continue' }, position: 4, breakpoints: [] });
    worker.answerOne();
    await settle();
    expect(neural.prediction?.real.event).toBe('exit');
    expect(neural.ghostLine).toBeNull();
  });
});

/** A stand-in worker that answers steps only when told, one at a time, in order. */
class HeldSteps extends StandInWorker {
  private held: Array<() => void> = [];
  override postMessage(req: ModelRequest): void {
    if (req.type !== 'step') return super.postMessage(req);
    this.held.push(() => super.postMessage(req));
  }
  answerOne(): void {
    this.held.shift()?.();
  }
}
