// The trivial baselines beside `ndb eval cruxeval`, measured on the same items with the same
// scoring as the model: Python value equality for output prediction, running f in Pyodide for
// input prediction (src/core/baselines.ts says what each baseline answers).

import { randomUUID } from 'node:crypto';
import { inputBaselines, outputBaselines, type InputBaselines, type OutputBaselines } from '../core/baselines';
import type { PythonHost } from '../realEngine/pythonHost';
import type { CruxItem } from './items';
import { CHECK_LIMITS } from '../core/limits';

/** Whether the item's f, called with `args`, ends normally and returns the expected output. */
export async function returnsOutput(engine: PythonHost, item: CruxItem, args: string): Promise<boolean> {
  const check = await engine.record(item.code, `f(${args})`, CHECK_LIMITS);
  return check.exit.status === 'normal' && check.exit.value !== undefined && (await engine.sameValue(check.exit.value, item.output));
}

export async function cruxBaselines(items: readonly CruxItem[], task: 'output' | 'input', engine: PythonHost): Promise<OutputBaselines | InputBaselines> {
  if (task === 'output') {
    return outputBaselines(items, { same: (a, b) => engine.sameValue(a, b), firstArgument: (input) => engine.firstArgument(input) });
  }
  // each run of an item's f in an interpreter of its own (one program, one interpreter)
  return inputBaselines(items, { returnsOutput: (item, args) => returnsOutput(engine.forOwner(`baseline ${randomUUID()}`), item, args) });
}
