// The generation loop's early stop, with the shipped model's tokenizer and a scripted decoder:
// text is checked as it comes (characters split over byte tokens included), a broken state stops
// at the token that broke it, and a readable one comes out exactly as without the check.
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKENS } from '../core/stateGrammar';
import { sourceNames, stateLimits } from '../core/stateGuard';
import type { Recording } from '../core/trace';
import type { CausalLM, GenerateOptions, GenerateResult } from './causalLm';
import { shippedTokenizer } from '../testing/testTokenizer';
import { NeuralSession } from './neuralSession';
import { IncrementalDecoder } from './incrementalDecoder';
import { StatePredictor } from './predictor';
import type { TextTokenizer } from './textTokenizer';

let tokenizer: TextTokenizer;
beforeAll(async () => {
  tokenizer = await shippedTokenizer();
}, 60_000);

/** A decoder that writes `script` whatever the prompt, with CausalLM's stopping rules. */
function scripted(script: readonly number[]): { lm: CausalLM; consumed: () => number } {
  let used = 0;
  const generate = async (_prompt: readonly number[], o: GenerateOptions): Promise<GenerateResult> => {
    const tokens: number[] = [];
    const done = (stoppedBy: GenerateResult['stoppedBy']): GenerateResult => ({ tokens, prefillTokens: 0, stoppedBy, prefillMs: 0, decodeMs: 0, decodeSteps: tokens.length, singleRuns: 0, singleRunMs: 0 });
    for (const next of script) {
      tokens.push(next);
      used = tokens.length;
      if (o.stopIds.has(next)) return done('stop');
      if (o.onToken?.(next) === false) return done('callback');
      if (tokens.length >= o.maxNewTokens) return done('length');
    }
    return done('length');
  };
  return { lm: { generate, shape: { layers: 1, kvHeads: 1, headDim: 1 } } as unknown as CausalLM, consumed: () => used };
}

const LIMITS = stateLimits(sourceNames('def f(x):\n    y = x\n    return y\n'), { x: '1' });

describe('IncrementalDecoder', () => {
  it('gives the text of the ids piece by piece, holding back a character split over ids', () => {
    for (const text of [
      '<|line_sep|>3<|src_sep|>s = "é"<|arg_sep|>{"s":"\'😀 …\'","..":".."}',
      '<|return_sep|>8<|src_sep|>return s<|value_sep|>[\'日本語\', \'<||frame_sep|>\']',
    ]) {
      const ids = tokenizer.encode(text);
      const decoder = new IncrementalDecoder(tokenizer);
      let out = '';
      let held = 0;
      for (const id of ids) {
        const piece = decoder.push(id);
        if (piece === '') held++;
        expect(piece).not.toContain('\uFFFD');
        out += piece;
      }
      expect(out).toBe(text);
      expect(tokenizer.decode(ids)).toBe(text);
      if (text.includes('😀')) expect(held).toBeGreaterThan(0);
    }
  });
});

describe('StatePredictor with a guard', () => {
  it('stops a broken state at the token that broke it', async () => {
    const broken = tokenizer.encode(`<|line_sep|>2<|src_sep|>y = x<|arg_sep|>{"y":1${', "z": 2'.repeat(40)}`);
    const guarded = scripted(broken);
    const p = await new StatePredictor(guarded.lm, tokenizer).complete('prompt', { guard: LIMITS });
    expect(p.stoppedBy).toBe('invalid');
    expect(p.refused).toBe('a local whose value is not a string');
    expect(p.text.endsWith('{"y":1')).toBe(true);
    expect(guarded.consumed()).toBeLessThan(broken.length / 4);
    const free = scripted(broken);
    const q = await new StatePredictor(free.lm, tokenizer).complete('prompt');
    expect(q.stoppedBy).toBe('length');
    expect(free.consumed()).toBe(broken.length);
  });

  it('stops a runaway value at the cap', async () => {
    const runaway = tokenizer.encode(`<|return_sep|>3<|src_sep|>return y<|value_sep|>[${'1, '.repeat(200)}`);
    const guarded = scripted(runaway);
    const p = await new StatePredictor(guarded.lm, tokenizer).complete('prompt', { guard: LIMITS });
    expect(p.stoppedBy).toBe('invalid');
    expect(p.refused).toContain('longer than');
    expect(Array.from(p.text.split(TOKENS.valueSep)[1]!).length).toBeLessThan(130);
  });

  it('leaves a readable state exactly as it was, and ends at a terminator written as text', async () => {
    const state = '<|line_sep|>2<|src_sep|>y = x<|arg_sep|>{"y":"1","..":".."}';
    const ids = [...tokenizer.encode(state), tokenizer.tokenId(TOKENS.actionSep)!];
    const [a, b] = [scripted(ids), scripted(ids)];
    const with_ = await new StatePredictor(a.lm, tokenizer).complete('prompt', { guard: LIMITS });
    const without = await new StatePredictor(b.lm, tokenizer).complete('prompt');
    expect(with_).toMatchObject({ text: state, stoppedBy: 'stop', newTokens: ids.length });
    expect(without).toMatchObject({ text: state, stoppedBy: 'stop', newTokens: ids.length });
    expect(with_.refused).toBeUndefined();
    // "<|action_sep|>" spelt in byte tokens is a terminator to parseState too
    const spelt = [...tokenizer.encode(state), ...tokenizer.encode('<').concat(tokenizer.encode('|action_sep|>')), ...tokenizer.encode('junk')];
    const c = scripted(spelt);
    const r = await new StatePredictor(c.lm, tokenizer).complete('prompt', { guard: LIMITS });
    expect(r.text).toBe(state);
    expect(r.stoppedBy).toBe('stop');
  });
});

describe('NeuralSession', () => {
  const rec: Recording = {
    source: 'def f(x):\n    y = x\n    return y\n',
    call: 'f(1)',
    events: [{ event: 'call', line: 1, function: 'f', depth: 0, frame: 1, locals: { x: '1' } }],
    exit: { status: 'normal' },
  } as unknown as Recording;

  it('takes a state stopped early as unreadable, and predicts as before with the stop off', async () => {
    const broken = tokenizer.encode('<|line_sep|>2<|src_sep|>y = x<|arg_sep|>{"y":1}');
    const on = await new NeuralSession(new StatePredictor(scripted(broken).lm, tokenizer), rec, 0, [], { decoder: 'greedy' }).predict({ kind: 'step_into' });
    expect(on.state).toEqual({ unparseable: 'stopped early: a local whose value is not a string' });
    const off = await new NeuralSession(new StatePredictor(scripted(broken).lm, tokenizer), rec, 0, [], { earlyStop: false, decoder: 'greedy' }).predict({ kind: 'step_into' });
    expect(off.stoppedBy).toBe('length');
    expect(off.state).toEqual({ unparseable: 'the value of "y" is not a string' });
  });
});
