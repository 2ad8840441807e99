// The model a command runs: `--model DIR` (default the shipped one) and `--dtype D`.

import type { ModelDtype } from '../neuralEngine/modelConfig';
import { defaultModelDir, loadNodeModel, type LoadedModel } from '../neuralEngine/nodeModel';
import { stringOption, UsageError, type ParsedArgs } from './args';

const DTYPES: readonly ModelDtype[] = ['fp32', 'int8', 'q8', 'q4', 'fp16'];

export async function modelFromArgs(args: ParsedArgs): Promise<LoadedModel> {
  const dtype = (stringOption(args, 'dtype') ?? 'fp32') as ModelDtype;
  if (!DTYPES.includes(dtype)) throw new UsageError(`--dtype must be one of ${DTYPES.join(', ')}`);
  return loadNodeModel(stringOption(args, 'model') ?? defaultModelDir(), dtype);
}
