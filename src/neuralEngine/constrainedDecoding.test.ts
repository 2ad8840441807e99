// The constrained decoder with the shipped tokenizer and a stand-in model whose preferences are
// scripted: it passes over tokens the program rules out, writes the source text itself in one
// run, keeps the model's probabilities of what it chose, and ends a runaway state readably.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseState } from '../core/format';
import { TOKENS } from '../core/stateGrammar';
import { stateConstraints } from '../core/stateConstraints';
import { sourceNames, stateLimits } from '../core/stateGuard';
import type { CausalLM, GenerateOptions, GenerateResult } from './causalLm';
import { StatePredictor } from './predictor';
import type { TextTokenizer } from './textTokenizer';
import { shippedTokenizer } from '../testing/testTokenizer';

let tokenizer: TextTokenizer;
beforeAll(async () => {
  tokenizer = await shippedTokenizer();
}, 60_000);

const SOURCE = 'def f(x):\n    y = x + 1\n    return y\n';
const SHAPE = { lines: [1, 2, 3], calls: [0, 1] };
const names = sourceNames(SOURCE);

/** A model that, after the text so far, ranks the given continuations first (each a text whose
 * first token gets the highest logit, the next ones lower), everything else far below. */
function standIn(prefer: (text: string) => string[]): { lm: CausalLM; runs: number[][] } {
  const runs: number[][] = [];
  const generate = async (_prompt: readonly number[], o: GenerateOptions): Promise<GenerateResult> => {
    const out: number[] = [];
    const done = (stoppedBy: GenerateResult['stoppedBy']): GenerateResult => ({ tokens: out, prefillTokens: 0, stoppedBy, prefillMs: 0, decodeMs: 0, decodeSteps: runs.length, singleRuns: 0, singleRunMs: 0 });
    for (;;) {
      const logits = new Float32Array(2048).fill(-20);
      prefer(tokenizer.decode(out)).forEach((text, rank) => {
        const id = tokenizer.encode(text)[0]!;
        logits[id] = Math.max(logits[id]!, 10 - rank);
      });
      const choice = o.choose!(logits);
      runs.push(choice.tokens);
      for (const t of choice.tokens) {
        out.push(t);
        if (o.stopIds.has(t)) return done('stop');
      }
      if (choice.stop || choice.tokens.length === 0) return done('callback');
      if (out.length >= o.maxNewTokens) return done('length');
    }
  };
  return { lm: { generate, shape: { layers: 1, kvHeads: 1, headDim: 1 } } as unknown as CausalLM, runs };
}

const options = (previous: Record<string, string> | null) => ({
  guard: stateLimits(names, previous),
  constraints: stateConstraints({ kind: 'step_into' }, [], SOURCE, SHAPE, new Set([...names, ...Object.keys(previous ?? {})])),
});

describe('constrained decoding', () => {
  it('takes the most likely token the program allows, and writes the source text itself in one run', async () => {
    // the model would like line 7 (no such line) and an inverse event: neither can follow step_into
    const model = standIn((text) => {
      if (text === '') return [TOKENS.invLineSep, TOKENS.lineSep];
      if (text === TOKENS.lineSep) return ['7', '2'];
      if (text.endsWith(TOKENS.argSep)) return ['{"'];
      if (text.endsWith('{"')) return ['z', 'y'];
      if (text.endsWith('{"y')) return ['":"'];
      if (text.endsWith('"..":"')) return ['..'];
      if (text.endsWith('":"')) return ['2'];
      if (text.endsWith(':"2')) return ['","'];
      if (text.endsWith('","')) return ['..'];
      if (text.endsWith('",".')) return ['.'];
      if (text.endsWith('","..')) return ['":"'];
      if (text.endsWith('":"..')) return ['"}'];
      return [TOKENS.actionSep];
    });
    const p = await new StatePredictor(model.lm, tokenizer).complete('prompt', options({ x: '1' }));
    expect(p.refused).toBeUndefined();
    expect(p.text).toBe(`${TOKENS.lineSep}2${TOKENS.srcSep}y = x + 1${TOKENS.argSep}{"y":"2","..":".."}`);
    expect(parseState(p.text, { x: '1' })).toMatchObject({ event: 'line', line: 2, locals: { x: '1', y: '2' } });
    // the source text and <|arg_sep|> went in with the line number's token, as one run
    const forcedRun = model.runs.find((r) => r.length > 1)!;
    expect(tokenizer.decode(forcedRun)).toBe(`2${TOKENS.srcSep}y = x + 1${TOKENS.argSep}`);
    expect(p.forcedTokens).toBe(forcedRun.length - 1);
    // the first token was the model's second choice among all, its first among those allowed
    expect(p.chosen![0]).toMatchObject({ part: 'position' });
    expect(p.chosen![0]!.logp).toBeGreaterThan(Math.log(0.5));
    expect(p.chosen!.some((c) => typeof c.part === 'object' && c.part.entry === 0)).toBe(true);
    expect(p.keys).toEqual(['y', '..']);
  });

  it('ends a state that runs on, readably, before the token budget', async () => {
    const model = standIn((text) => {
      if (text === '') return [TOKENS.returnSep];
      if (text === TOKENS.returnSep) return ['3'];
      if (text.endsWith('return y')) return [TOKENS.valueSep];
      return ['1', ', '];
    });
    const p = await new StatePredictor(model.lm, tokenizer, 100).complete('prompt', options({ x: '1', y: '2' }));
    expect(p.refused).toBeUndefined();
    expect(p.closedEarly).toBe(true);
    expect(parseState(p.text, null)).toMatchObject({ event: 'return', line: 3 });
    expect(p.newTokens).toBeLessThanOrEqual(100);
  });

  it('ends a state that takes too long, readably, however few tokens it has (issue 46)', async () => {
    const model = standIn((text) => {
      if (text === '') return [TOKENS.returnSep];
      if (text === TOKENS.returnSep) return ['3'];
      if (text.endsWith('return y')) return [TOKENS.valueSep];
      return ['1', ', '];
    });
    // a clock that moves 100 ms per token read: past 1 s the state is ended
    let clock = 0;
    const predictor = new StatePredictor(model.lm, tokenizer, 384, () => (clock += 100));
    predictor.maxMs = 1_000;
    const p = await predictor.complete('prompt', options({ x: '1', y: '2' }));
    expect(p.refused).toBeUndefined();
    expect(p.closedEarly).toBe(true);
    expect(parseState(p.text, null)).toMatchObject({ event: 'return', line: 3 });
    expect(p.newTokens).toBeLessThan(30);
  });
});
