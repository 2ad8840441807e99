// The session's window: a prompt never outgrows the model's trained context; the history starts
// again from its newest readable state, written as a trajectory's first state is. A model whose
// config names no trained context reads the whole history, as before.
import { beforeAll, describe, expect, it } from 'vitest';
import { renderAction, renderContext, renderState, sourceLines, type FormatState } from '../core/format';
import { TOKENS } from '../core/stateGrammar';
import { formatStateAt, promptForNext } from '../core/trajectory';
import type { Recording } from '../core/trace';
import { loadNodeEngine } from '../realEngine/node/node';
import type { CausalLM, GenerateOptions, GenerateResult } from './causalLm';
import { shippedTokenizer } from '../testing/testTokenizer';
import { NeuralSession } from './neuralSession';
import { StatePredictor } from './predictor';
import type { TextTokenizer } from './textTokenizer';

const SOURCE = 'def total(n):\n    s = 0\n    for i in range(n):\n        s += i\n    return s\n';
let tokenizer: TextTokenizer;
let rec: Recording;

beforeAll(async () => {
  tokenizer = await shippedTokenizer();
  rec = (await loadNodeEngine()).record(SOURCE, 'total(12)');
}, 120_000);

/** A decoder that writes `answer()` whatever the prompt, and keeps every prompt it was given. */
function recordingLm(trainedContext: number | undefined, answer: () => string): { lm: CausalLM; prompts: number[][] } {
  const prompts: number[][] = [];
  const generate = async (prompt: readonly number[], o: GenerateOptions): Promise<GenerateResult> => {
    prompts.push([...prompt]);
    const tokens = [...tokenizer.encode(answer()), [...o.stopIds][0]!];
    return { tokens, prefillTokens: prompt.length, stoppedBy: 'stop', prefillMs: 0, decodeMs: 0, decodeSteps: tokens.length, singleRuns: 0, singleRunMs: 0 };
  };
  const shape = { layers: 1, kvHeads: 1, headDim: 1, ...(trainedContext ? { trainedContext } : {}) };
  return { lm: { generate, shape } as unknown as CausalLM, prompts };
}

const firstStatePrompt = (state: FormatState, action: Parameters<typeof renderAction>[0]) =>
  promptForNext(renderContext(SOURCE) + renderState(sourceLines(SOURCE), state), action);

describe('NeuralSession window', () => {
  it('keeps every prompt within the trained context, starting again from the newest real state', async () => {
    const trained = 160;
    const { lm, prompts } = recordingLm(trained, () => '<|line_sep|>4<|src_sep|>s += i<|arg_sep|>{"..":".."}');
    const session = new NeuralSession(new StatePredictor(lm, tokenizer), rec, 0);
    const step = { kind: 'step_into' } as const;
    let restartedAt: number | null = null;
    for (let pos = 1; pos < rec.events.length; pos++) {
      const before = session.restarts;
      const p = await session.predict(step);
      expect(prompts.at(-1)!.length).toBeLessThanOrEqual(trained);
      if (session.restarts > before && restartedAt === null) {
        restartedAt = pos;
        // the newest state, written in full as a first state, then the action
        expect(tokenizer.decode(prompts.at(-1)!)).toBe(firstStatePrompt(formatStateAt(rec, pos - 1), step));
      }
      expect(p.state).not.toHaveProperty('unparseable');
      session.acceptReal(step, pos);
    }
    expect(restartedAt).not.toBeNull();
    expect(session.restarts).toBeGreaterThan(1);
  });

  it('reads the whole history when the model names no trained context', async () => {
    const { lm, prompts } = recordingLm(undefined, () => '<|line_sep|>4<|src_sep|>s += i<|arg_sep|>{"..":".."}');
    const session = new NeuralSession(new StatePredictor(lm, tokenizer), rec, 0);
    for (let pos = 1; pos < rec.events.length; pos++) {
      await session.predict({ kind: 'step_into' });
      session.acceptReal({ kind: 'step_into' }, pos);
    }
    expect(session.restarts).toBe(0);
    expect(prompts.at(-1)!.length).toBeGreaterThan(256);
    expect(tokenizer.decode(prompts.at(-1)!).startsWith(renderContext(SOURCE) + renderState(sourceLines(SOURCE), formatStateAt(rec, 0)))).toBe(true);
  });

  it('in neural use starts again from the newest readable prediction, in full', async () => {
    let n = 0;
    // every third prediction is unreadable
    const answer = () => (++n % 3 === 0 ? '<|line_sep|>x' : `<|line_sep|>4<|src_sep|>s += i<|arg_sep|>{"n":"12","s":"${n}"}`);
    const trained = 104;
    const { lm, prompts } = recordingLm(trained, answer);
    const session = new NeuralSession(new StatePredictor(lm, tokenizer), rec, 1);
    const step = { kind: 'step_over' } as const;
    let readable: FormatState | null = null;
    let sawRestart = false;
    for (let i = 0; i < 40; i++) {
      const before = session.restarts;
      const p = await session.predict(step);
      expect(prompts.at(-1)!.length).toBeLessThanOrEqual(trained);
      if (session.restarts > before) {
        sawRestart = true;
        const text = tokenizer.decode(prompts.at(-1)!);
        // the newest readable state, written in full as a first state
        expect(readable).not.toBeNull();
        expect(text.startsWith(renderContext(SOURCE) + renderState(sourceLines(SOURCE), readable!) + TOKENS.actionSep)).toBe(true);
      }
      if (!('unparseable' in p.state) && p.state.event === 'line') readable = { event: 'line', line: p.state.line, locals: p.state.locals ?? {} };
      session.acceptPredicted(p);
    }
    expect(sawRestart).toBe(true);
  });
});
