// Trivial answers to CruxEval-style items, scored the way the model is scored on the same items,
// so that a reader sees what the model adds. Pure: comparing Python values and running a function
// are given as callbacks, asynchronous (the CLI's Python runs in a process of its own), that may
// answer at once (tests).

export interface CruxLikeItem {
  /** The call's argument list as written, e.g. `[1, 2], 3` for `f([1, 2], 3)`. */
  input: string;
  /** The expected return value, a repr. */
  output: string;
}

export interface BaselineScore {
  passed: number;
  pass_at_1: number;
}

export interface OutputBaselines {
  /** The most frequent expected output over the items, given as the answer to every item. */
  most_common_answer: BaselineScore & { answer: string | null };
  /** The value of the first argument, given as the answer ("f returns its first argument"). */
  first_argument: BaselineScore;
}

export interface InputBaselines {
  /** The most frequent argument list over the items, given to every item's f. */
  most_common_input: BaselineScore & { input: string | null };
  /** The expected output as f's only argument ("f returns what it was given"). */
  output_as_input: BaselineScore;
}

/** The most frequent text (the first to reach that count on a tie), or null for none. */
export function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}

function score(hits: readonly boolean[]): BaselineScore {
  const passed = hits.filter(Boolean).length;
  return { passed, pass_at_1: hits.length ? passed / hits.length : 0 };
}

export interface OutputHelpers {
  /** Whether two reprs denote the same value (the model's own scoring rule). */
  same(predicted: string, expected: string): boolean | Promise<boolean>;
  /** The first argument of an argument list as written, or null when there is none. */
  firstArgument(input: string): string | null | Promise<string | null>;
}

/** Each item's verdict, in order (one at a time: the helpers may share one Python). */
async function each<T>(items: readonly T[], verdict: (item: T) => Promise<boolean>): Promise<boolean[]> {
  const hits: boolean[] = [];
  for (const item of items) hits.push(await verdict(item));
  return hits;
}

export async function outputBaselines(items: readonly CruxLikeItem[], h: OutputHelpers): Promise<OutputBaselines> {
  const answer = mostCommon(items.map((i) => i.output));
  return {
    most_common_answer: { answer, ...score(await each(items, async (i) => answer !== null && (await h.same(answer, i.output)))) },
    first_argument: score(
      await each(items, async (i) => {
        const first = await h.firstArgument(i.input);
        return first !== null && (await h.same(first, i.output));
      }),
    ),
  };
}

export interface InputHelpers<T extends CruxLikeItem> {
  /** Whether the item's f, called with this argument list, returns the item's output (the
   * model's own scoring rule for input prediction). */
  returnsOutput(item: T, args: string): boolean | Promise<boolean>;
}

export async function inputBaselines<T extends CruxLikeItem>(items: readonly T[], h: InputHelpers<T>): Promise<InputBaselines> {
  const input = mostCommon(items.map((i) => i.input));
  return {
    most_common_input: { input, ...score(await each(items, async (i) => input !== null && (await h.returnsOutput(i, input)))) },
    output_as_input: score(await each(items, async (i) => h.returnsOutput(i, i.output))),
  };
}
