// The trivial baselines on a tiny handmade set (not CruxEval): what each one answers and how it
// is scored, with plain string equality here and Python's in src/eval/cruxBaselines.test.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inputBaselines, mostCommon, outputBaselines, type CruxLikeItem } from './baselines';

const items = readFileSync(new URL('../../fixtures/eval/baselines_tiny.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as CruxLikeItem & { id: string });

describe('mostCommon', () => {
  it('takes the most frequent text, the first to get there on a tie, null for none', () => {
    expect(mostCommon(['a', 'b', 'b', 'a', 'c'])).toBe('b');
    expect(mostCommon(['x', 'y'])).toBe('x');
    expect(mostCommon([])).toBeNull();
  });
});

describe('output baselines', () => {
  const same = (a: string, b: string) => a.trim() === b.trim();
  // the first argument as a test can find it: up to the first comma outside brackets and quotes
  const firstArgument = (input: string): string | null => {
    let depth = 0;
    let quote = '';
    for (let i = 0; i < input.length; i++) {
      const c = input[i]!;
      if (quote) quote = c === quote ? '' : quote;
      else if (c === "'" || c === '"') quote = c;
      else if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
      else if (c === ',' && depth === 0) return input.slice(0, i).trim();
    }
    return input.trim() || null;
  };

  it('answers the most common expected output everywhere, and the first argument', async () => {
    const b = await outputBaselines(items, { same, firstArgument });
    expect(b.most_common_answer).toEqual({ answer: 'True', passed: 3, pass_at_1: 3 / 7 });
    // t1 only: [1.0, 2] is not the text [1, 2] (Python's equality says it is: see the CLI test)
    expect(b.first_argument).toEqual({ passed: 1, pass_at_1: 1 / 7 });
  });

  it('scores nothing on no items and skips items without arguments', async () => {
    expect(await outputBaselines([], { same, firstArgument })).toEqual({
      most_common_answer: { answer: null, passed: 0, pass_at_1: 0 },
      first_argument: { passed: 0, pass_at_1: 0 },
    });
    expect((await outputBaselines([{ input: '', output: 'None' }], { same, firstArgument: () => null })).first_argument.passed).toBe(0);
  });
});

describe('input baselines', () => {
  // f run as JavaScript stand-ins for the handmade programs
  const run: Record<string, (args: unknown[]) => unknown> = {
    t1: ([x]) => x,
    t2: ([a, b]) => (typeof a === 'number' && typeof b === 'number' ? a + b : undefined),
    t3: ([s]) => (typeof s === 'string' ? s.toUpperCase() : undefined),
    t4: ([xs]) => (Array.isArray(xs) ? xs.length > 2 : undefined),
    t5: ([n]) => (n as number) > 0,
    t6: ([n]) => n === 3,
    t7: ([xs]) => (Array.isArray(xs) ? [...(xs as number[])].sort() : undefined),
  };
  const parse = (text: string): unknown[] => JSON.parse(`[${text.replace(/'/g, '"').replace(/True/g, 'true')}]`) as unknown[];
  const returnsOutput = (item: CruxLikeItem & { id: string }, args: string) =>
    JSON.stringify(run[item.id]!(parse(args))) === JSON.stringify(parse(item.output)[0]);

  it('calls every f with the most common input, and with the expected output', async () => {
    const b = await inputBaselines(items, { returnsOutput });
    expect(b.most_common_input).toEqual({ input: '3', passed: 3, pass_at_1: 3 / 7 });
    expect(b.output_as_input).toEqual({ passed: 4, pass_at_1: 4 / 7 });
  });
});
