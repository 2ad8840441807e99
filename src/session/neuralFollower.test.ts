// The model beside a real session, with a stand-in predictor: which history it reads, and that a
// long session starts its history again instead of outgrowing the model's context.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAction } from '../core/actions';
import { RecordingSession } from '../core/recordingSession';
import type { Recording, TraceEvent } from '../core/trace';
import { LocalModelHistory } from '../neuralEngine/modelHistory';
import type { CompleteOptions, Completion, StatePredictor } from '../neuralEngine/predictor';
import { cliState, NeuralFollower } from './neuralFollower';

const entry = readFileSync(new URL('../../fixtures/navigator/sequences.jsonl', import.meta.url), 'utf8').split('\n')[0]!;
const raw = JSON.parse(entry) as { recording: Recording };
// The fixture keeps only what navigation reads.
const rec: Recording = { ...raw.recording, stdout: raw.recording.stdout ?? '', events: raw.recording.events.map((e): TraceEvent => ({ ...e, locals: e.locals ?? {}, out: e.out ?? 0 })) };

/** Answers every prompt with the same text; counts a token per character; `maxPositions`: the
 * model's positions, as its config would say. */
function standIn(answer: string, maxPositions?: number): StatePredictor & { prompts: string[] } {
  const prompts: string[] = [];
  const complete = async (prompt: string, _options?: CompleteOptions): Promise<Completion> => {
    prompts.push(prompt);
    return { text: answer, ids: [], newTokens: 0, prefillTokens: 0, ms: 0, promptTokens: prompt.length, prefillMs: 0, decodeMs: 0, decodeSteps: 0, singleRuns: 0, singleRunMs: 0, stoppedBy: 'stop' };
  };
  const encode = (t: string) => Array.from(t, () => 0);
  const lm = { shape: { layers: 1, kvHeads: 1, headDim: 1, ...(maxPositions ? { maxPositions } : {}) } };
  return { prompts, maxNewTokens: 50, lm, encode, tokenizer: { encode, decode: () => '', tokenId: () => 0 }, complete } as unknown as StatePredictor & {
    prompts: string[];
  };
}

describe('NeuralFollower', () => {
  it('predicts, then moves the real session; both mode keeps the real history', async () => {
    const predictor = standIn('garbage');
    const real = new RecordingSession(rec);
    const follower = await NeuralFollower.start(new LocalModelHistory(predictor), 'both', real);
    real.apply(parseAction('step_into'));
    const step = (await follower.follow(parseAction('step_into'), real))!;
    expect(real.position).toBe(1);
    expect(step.comparison.match).toBe(false);
    expect(cliState('both', real.state, step)).toMatchObject({ real: { event: 'line' }, neural: { event: 'unparseable', confidence: 0 }, match: false });
    // the first stop is given, not predicted: certain
    expect(cliState('both', new RecordingSession(rec).state)).toMatchObject({ neural: { confidence: 1 } });
    real.apply(parseAction('step_into'));
    await follower.follow(parseAction('step_into'), real);
    // The second prompt holds the real state of the first stop, not the model's garbage.
    expect(predictor.prompts[1]).not.toContain('garbage');
    // predict() moves nothing.
    await follower.predict(parseAction('step_over'));
    expect(real.position).toBe(2);
  });

  it('keeps the prompts of a long session within the model\'s positions', async () => {
    const probe = standIn('x');
    await (await NeuralFollower.start(new LocalModelHistory(probe), 'both', new RecordingSession(rec))).predict(parseAction('step_into'));
    const room = probe.prompts[0]!.length + 400;
    const predictor = standIn('x', room + probe.maxNewTokens);
    const real = new RecordingSession(rec);
    const follower = await NeuralFollower.start(new LocalModelHistory(predictor), 'both', real);
    for (let i = 0; i < 30 && real.position < rec.events.length; i++) {
      real.apply(parseAction('step_into'));
      await follower.follow(parseAction('step_into'), real);
    }
    const lengths = predictor.prompts.map((p) => p.length);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(room);
    // It did grow, and was cut back at least once.
    expect(lengths.some((n, i) => i > 0 && n < lengths[i - 1]!)).toBe(true);
  });

  it('neural mode goes on from its own predictions, and a jump starts it again at the real stop', async () => {
    const predictor = standIn('<|frame_sep|><|line_sep|>2<|src_sep|>x<|arg_sep|>{"MODEL_SAYS":"1"}');
    const real = new RecordingSession(rec);
    const follower = await NeuralFollower.start(new LocalModelHistory(predictor), 'neural', real);
    for (let i = 0; i < 2; i++) {
      real.apply(parseAction('step_into'));
      await follower.follow(parseAction('step_into'), real);
    }
    expect(predictor.prompts[1]).toContain('MODEL_SAYS');
    real.jump(0);
    await follower.restart(real);
    real.apply(parseAction('step_into'));
    await follower.follow(parseAction('step_into'), real);
    expect(predictor.prompts[2]).not.toContain('MODEL_SAYS');
  });

  it('asks nothing when told not to predict, and still takes the real state in both mode', async () => {
    const predictor = standIn('garbage');
    const real = new RecordingSession(rec);
    const follower = await NeuralFollower.start(new LocalModelHistory(predictor), 'both', real);
    real.apply(parseAction('step_into'));
    expect(await follower.follow(parseAction('step_into'), real, false)).toBeNull();
    expect(predictor.prompts).toEqual([]);
    real.apply(parseAction('step_into'));
    await follower.follow(parseAction('step_into'), real);
    expect(predictor.prompts).toHaveLength(1);
  });
});
