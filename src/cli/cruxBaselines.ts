// The trivial baselines beside `ndb eval cruxeval`, measured on the same items with the same
// scoring as the model: Python value equality for output prediction, running f in Pyodide for
// input prediction (src/core/baselines.ts says what each baseline answers).

import { inputBaselines, outputBaselines, type InputBaselines, type OutputBaselines } from '../core/baselines';
import type { RealEngine } from '../realEngine/realEngine';

export interface CruxItem {
  id: string;
  code: string;
  input: string;
  output: string;
}

export interface CruxValueHelpers {
  same_value(a: string, b: string): boolean;
  first_argument(input: string): string | null;
}

/** Whether the item's f, called with `args`, ends normally and returns the expected output. */
export function returnsOutput(engine: RealEngine, values: Pick<CruxValueHelpers, 'same_value'>, item: CruxItem, args: string): boolean {
  const check = engine.record(item.code, `f(${args})`, { maxEvents: 20_000, timeLimit: 5 });
  return check.exit.status === 'normal' && check.exit.value !== undefined && values.same_value(check.exit.value, item.output);
}

export function cruxBaselines(
  items: readonly CruxItem[],
  task: 'output' | 'input',
  engine: RealEngine,
  values: CruxValueHelpers,
): OutputBaselines | InputBaselines {
  if (task === 'output') {
    return outputBaselines(items, { same: (a, b) => values.same_value(a, b), firstArgument: (input) => values.first_argument(input) });
  }
  return inputBaselines(items, { returnsOutput: (item, args) => returnsOutput(engine, values, item, args) });
}
