// A jump composed of steps (composeJump.ts): which step it takes, where it stops, and what it
// reports; on a scripted session, so each stop rule is checked on its own. And the two things the
// composition needs from a session: a fork that leaves the session's history as it is, and (for
// measuring issue 45's name constraint) a switch that leaves the frame's names out.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../core/actions';
import { renderAction, renderState, type ParseResult } from '../core/format';
import { TOKENS } from '../core/stateGrammar';
import type { Recording } from '../core/trace';
import { loadNodeEngine } from '../realEngine/node/node';
import { shippedTokenizer } from '../testing/testTokenizer';
import type { CausalLM, GenerateOptions, GenerateResult } from './causalLm';
import { composedConfidence, composeJump } from './composeJump';
import { NeuralSession, type Prediction } from './neuralSession';
import { StatePredictor, type CompleteOptions } from './predictor';
import type { TextTokenizer } from './textTokenizer';

const line = (n: number): ParseResult => ({ event: 'line', inverse: false, line: n, src: '', locals: {} });
const call = (n: number): ParseResult => ({ event: 'call', inverse: false, line: n, src: '', locals: {} });
const ret = (n: number): ParseResult => ({ event: 'return', inverse: false, line: n, src: '', value: 'None' });

/** A session that answers the scripted states in order, and keeps the actions it was asked. */
function scripted(states: ParseResult[], confidence = 0.5): { session: NeuralSession; asked: string[]; accepted: number } {
  const asked: string[] = [];
  const box = { accepted: 0 };
  const fake = {
    async predict(action: Action): Promise<Prediction> {
      asked.push(action.kind);
      const state = states[asked.length - 1] ?? { unparseable: 'script ran out' };
      return { action, state, text: '', confidence: { state: confidence, position: confidence, locals: {} } } as unknown as Prediction;
    },
    acceptPredicted() {
      box.accepted++;
    },
  };
  return {
    session: fake as unknown as NeuralSession,
    asked,
    get accepted() {
      return box.accepted;
    },
  };
}

describe('composeJump', () => {
  it('composes a step over a call: into the call, over its lines, back into the caller', async () => {
    // from line 10 (calls f at 2): call f, its lines 3 and 4, its return, then line 11 of the caller
    const s = scripted([call(2), line(3), line(4), ret(4), line(11)]);
    const r = await composeJump(s.session, 'step_over', [], 30);
    expect(s.asked).toEqual(['step_into', 'step_over', 'step_over', 'step_over', 'step_over']);
    expect(r).toMatchObject({ steps: 5, reached: true, state: line(11) });
    expect(s.accepted).toBe(4);
    expect(r.confidences).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });

  it('a step over whose first step is a line of the same frame is that step; a call made right after a return goes deeper again', async () => {
    expect((await composeJump(scripted([line(11)]).session, 'step_over', [], 30)).steps).toBe(1);
    // f(g()): g is called, returns, then f is called from the same line; then the caller's line 11
    const s = scripted([call(2), ret(2), call(5), ret(5), line(11)]);
    const r = await composeJump(s.session, 'step_over', [], 30);
    expect(r).toMatchObject({ steps: 5, reached: true, state: line(11) });
    // at g's return a step over is a step into the caller (pdb): it enters f
    expect(s.asked).toEqual(['step_into', 'step_over', 'step_over', 'step_over', 'step_over']);
  });

  it("a step over stops at the starting frame's return, and at a breakpoint in a frame it entered", async () => {
    expect(await composeJump(scripted([ret(10)]).session, 'step_over', [], 30)).toMatchObject({ steps: 1, reached: true });
    expect(await composeJump(scripted([call(2), line(3)]).session, 'step_over', [3], 30)).toMatchObject({ steps: 2, reached: true, state: line(3) });
  });

  it('composes continue from steps into, to a line on a breakpoint in any frame or the end', async () => {
    const s = scripted([line(11), call(2), line(3), line(4)]);
    const r = await composeJump(s.session, 'continue', [4], 30);
    expect(s.asked).toEqual(['step_into', 'step_into', 'step_into', 'step_into']);
    expect(r).toMatchObject({ steps: 4, reached: true, state: line(4) });
    expect(await composeJump(scripted([line(11), { event: 'exit', status: 'normal' }]).session, 'continue', [4], 30)).toMatchObject({ steps: 2, reached: true });
  });

  it('composes a step out from steps over, to a return', async () => {
    const s = scripted([line(3), line(4), ret(4)]);
    expect(await composeJump(s.session, 'step_return', [], 30)).toMatchObject({ steps: 3, reached: true, state: ret(4) });
    expect(s.asked).toEqual(['step_over', 'step_over', 'step_over']);
  });

  it('ends unreached past its time budget', async () => {
    // each scripted step takes no time: a budget of 0 ms is passed only by a step that took some
    const slow = scripted([line(3), line(4), line(5)]);
    const session = { ...slow.session, predict: async (a: Action) => ({ ...(await slow.session.predict(a)), ms: 40 }) } as unknown as NeuralSession;
    expect(await composeJump(session, 'continue', [5], 30, 'line', 70)).toMatchObject({ steps: 2, reached: false, ms: 80 });
    expect(await composeJump(scripted([line(3), line(4)]).session, 'continue', [4], 30, 'line', 0)).toMatchObject({ steps: 2, reached: true });
  });

  it('ends unreached at the cap or at an unreadable step', async () => {
    expect(await composeJump(scripted([line(3), line(4), line(5)]).session, 'continue', [9], 2)).toMatchObject({ steps: 2, reached: false, state: line(4) });
    expect(await composeJump(scripted([line(3)]).session, 'continue', [9], 5)).toMatchObject({ steps: 2, reached: false });
  });

  it("combines the steps' confidences by product or smallest", () => {
    expect(composedConfidence([0.5, 0.8], 'product')).toBeCloseTo(0.4);
    expect(composedConfidence([0.5, 0.8], 'min')).toBe(0.5);
    expect(composedConfidence([], 'min')).toBe(0);
  });
});

const SOURCE = 'def total(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n';
let tokenizer: TextTokenizer;
let rec: Recording;

beforeAll(async () => {
  tokenizer = await shippedTokenizer();
  rec = (await loadNodeEngine()).record(SOURCE, 'total(3)');
}, 120_000);

/** A predictor whose model always writes `answer`, and which keeps the options of each call. */
function fixedPredictor(answer: string): { predictor: StatePredictor; seen: CompleteOptions[] } {
  const generate = async (prompt: readonly number[], o: GenerateOptions): Promise<GenerateResult> => {
    const tokens = [...tokenizer.encode(answer), [...o.stopIds][0]!];
    return { tokens, prefillTokens: prompt.length, stoppedBy: 'stop', prefillMs: 0, decodeMs: 0, decodeSteps: tokens.length, singleRuns: 0, singleRunMs: 0 };
  };
  const lm = { generate, shape: { layers: 1, kvHeads: 1, headDim: 1 } } as unknown as CausalLM;
  const predictor = new StatePredictor(lm, tokenizer);
  const seen: CompleteOptions[] = [];
  const complete = predictor.complete.bind(predictor);
  predictor.complete = (prompt, options = {}) => {
    seen.push(options);
    return complete(prompt, options);
  };
  return { predictor, seen };
}

describe('what composition needs from the session', () => {
  it("forks: steps taken on the fork leave the session's history as it was", async () => {
    const { predictor } = fixedPredictor('<|line_sep|>2<|src_sep|>s = 0<|arg_sep|>{"n":"3"}');
    const session = new NeuralSession(predictor, rec, 0);
    const before = session.trajectory;
    const fork = session.fork();
    expect(fork.promptFor({ kind: 'step_over' })).toBe(session.promptFor({ kind: 'step_over' }));
    fork.acceptPredicted(await fork.predict({ kind: 'step_into' }));
    fork.acceptPredicted(await fork.predict({ kind: 'step_into' }));
    expect(fork.trajectory.length).toBeGreaterThan(before.length);
    expect(session.trajectory).toBe(before);
    expect(fork.trajectory.startsWith(before)).toBe(true);
  });

  it('holds local names to the frame unless frameNames is off', async () => {
    expect(rec.program?.frames?.length).toBeGreaterThan(0);
    const on = fixedPredictor('<|line_sep|>2<|src_sep|>s = 0<|arg_sep|>{"n":"3"}');
    await new NeuralSession(on.predictor, rec, 0).predict({ kind: 'step_into' });
    // line 2 is total's: its names (and the names no source spells), never the module's `total`
    expect([...on.seen[0]!.constraints!.namesAt('line', 2)!.names].sort()).toEqual(['.0', 'i', 'input', 'n', 's']);
    const off = fixedPredictor('<|line_sep|>2<|src_sep|>s = 0<|arg_sep|>{"n":"3"}');
    await new NeuralSession(off.predictor, rec, 0, [], { frameNames: false }).predict({ kind: 'step_into' });
    expect(off.seen[0]!.constraints!.namesAt('line', 2)).toBeNull();
    // the rest of the constraints are the same
    expect(off.seen[0]!.constraints!.codeLines).toEqual(on.seen[0]!.constraints!.codeLines);
  });
});

describe('the session composes Continue (COMPOSED_ACTIONS)', () => {
  const lines = SOURCE.split('\n');
  const stop = (line: number, locals: Record<string, string>) => ({ event: 'line' as const, inverse: false, line, src: lines[line - 1]!, locals });
  // step into from the call of total(3): its lines 2, 3 and 4, each surer than the one before is right
  const script = [
    { state: stop(2, { n: '3' }), c: 0.9 },
    { state: stop(3, { n: '3', s: '0' }), c: 0.8 },
    { state: stop(4, { n: '3', s: '0', i: '0' }), c: 0.5 },
  ];

  /** A session whose single predictions are scripted (step into: the script in order; anything
   * else: an answer at once, line 5), and the actions it was asked one at a time. */
  function scriptedSession(breakpoints: number[], options: ConstructorParameters<typeof NeuralSession>[4] = {}) {
    const { predictor } = fixedPredictor('<|line_sep|>2<|src_sep|>s = 0<|arg_sep|>{"n":"3"}');
    const session = new NeuralSession(predictor, rec, 0, breakpoints, options);
    const asked: string[] = [];
    let into = 0;
    const once = async (action: Action): Promise<Prediction> => {
      asked.push(action.kind);
      const step = action.kind === 'step_into' ? script[into++] : { state: stop(5, { n: '3', s: '3', i: '2' }), c: 0.6 };
      const text = step ? renderState(lines, { event: 'line', line: step.state.line, locals: step.state.locals }).slice(TOKENS.frameSep.length) : '<|line_sep|>x';
      const state: ParseResult = step ? step.state : { unparseable: 'script ran out' };
      const c = step?.c ?? 0;
      return { text, ms: 10, action, state, confidence: { state: c, position: 0.7, locals: { n: 0.9 } }, scores: { state: 0, position: 0, locals: {} } } as unknown as Prediction;
    };
    // the fork copies the session's own properties: it answers from the same script
    (session as unknown as { predictOnce: typeof once }).predictOnce = once;
    return { session, asked };
  }

  it('composes Continue to a breakpoint of steps into, with the product of their confidences', async () => {
    const { session, asked } = scriptedSession([4]);
    const before = session.trajectory;
    const p = await session.predict({ kind: 'continue' });
    expect(asked).toEqual(['step_into', 'step_into', 'step_into']);
    expect(p.action).toEqual({ kind: 'continue' });
    expect(p.state).toEqual(script[2]!.state);
    expect(p.composedSteps).toBe(3);
    expect(p.ms).toBe(30);
    // the whole state: 0.9 × 0.8 × 0.5; each field: the last step's times the earlier steps' 0.72
    expect(p.confidence!.state).toBeCloseTo(0.36);
    expect(p.confidence!.position).toBeCloseTo(0.7 * 0.72);
    expect(p.confidence!.locals.n).toBeCloseTo(0.9 * 0.72);
    // no raw scores: calibration is never fitted on a composed answer
    expect(p.scores).toBeUndefined();
    // the steps were taken on a fork; the answer is written as Continue's state, locals in full
    expect(session.trajectory).toBe(before);
    session.acceptPredicted(p);
    expect(session.trajectory).toBe(before + renderAction({ kind: 'continue' }, [4]) + renderState(lines, { event: 'line', line: 4, locals: { n: '3', s: '0', i: '0' } }));
  });

  it('predicts at once a Continue with no breakpoint, one whose steps reach no stop, a step over, and with compose off', async () => {
    const none = scriptedSession([]);
    expect((await none.session.predict({ kind: 'continue' })).composedSteps).toBeUndefined();
    expect(none.asked).toEqual(['continue']);
    // the script runs out before line 5: the steps end unreadable, and Continue is asked at once
    const far = scriptedSession([5]);
    const p = await far.session.predict({ kind: 'continue' });
    expect(far.asked).toEqual(['step_into', 'step_into', 'step_into', 'step_into', 'continue']);
    expect(p.composedSteps).toBeUndefined();
    expect(p.confidence!.state).toBe(0.6);
    const over = scriptedSession([4]);
    await over.session.predict({ kind: 'step_over' });
    expect(over.asked).toEqual(['step_over']);
    const off = scriptedSession([4], { compose: [] });
    await off.session.predict({ kind: 'continue' });
    expect(off.asked).toEqual(['continue']);
  });
});
