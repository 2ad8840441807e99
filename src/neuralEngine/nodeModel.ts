// Loads a model folder in Node (CLI, tests, benchmarks): onnxruntime-node for the decoder,
// transformers.js for the tokenizer.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { REPO_ROOT } from '../util/repoRoot';
import { CausalLM, type TensorFactory } from './causalLm';
import { wrapTokenizer } from './hfTokenizer';
import { calibrationOf, decoderShape, ModelFolderError, onnxFileName, type HfConfig, type ModelDtype } from './modelConfig';
import { StatePredictor } from './predictor';

export interface LoadedModel {
  dir: string;
  dtype: ModelDtype;
  config: HfConfig;
  predictor: StatePredictor;
  session: ort.InferenceSession;
  onnxBytes: number;
  loadMs: number;
}

/** The shipped models' folder, found from the repository's root rather than from this module:
 * the CLI also runs this code from its esbuild bundle (node_modules/.cache/ndb-cli/<dir>/: bin/cliBundle.mjs), at another depth. */
function modelsDir(): string {
  return join(REPO_ROOT, 'public/models');
}

/** The model the app uses by default: public/models/index.json names it. */
export function defaultModelDir(): string {
  const models = modelsDir();
  const index = join(models, 'index.json');
  if (!existsSync(index)) throw new ModelFolderError('no model is shipped yet: pass --model DIR');
  const { default: name } = JSON.parse(readFileSync(index, 'utf8')) as { default: string };
  return join(models, name);
}

export async function loadNodeModel(dir: string, dtype: ModelDtype = 'fp32', threads = 2): Promise<LoadedModel> {
  const started = performance.now();
  const abs = resolve(dir);
  const configPath = join(abs, 'config.json');
  if (!existsSync(configPath)) throw new ModelFolderError(`${abs} is not a model folder: config.json is missing`);
  let config: HfConfig;
  try {
    config = JSON.parse(readFileSync(configPath, 'utf8')) as HfConfig;
  } catch {
    throw new ModelFolderError(`${configPath} is not valid JSON`);
  }
  const onnxPath = join(abs, onnxFileName(dtype));
  if (!existsSync(onnxPath)) throw new ModelFolderError(`${abs} has no ${dtype} model (${onnxFileName(dtype)})`);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(onnxPath, { intraOpNumThreads: threads, graphOptimizationLevel: 'all' });
  } catch (err) {
    throw new ModelFolderError(`${onnxPath} could not be loaded (corrupt?): ${err instanceof Error ? err.message : String(err)}`);
  }
  env.allowRemoteModels = false;
  env.localModelPath = `${dirname(abs)}/`;
  let tokenizer;
  try {
    tokenizer = await AutoTokenizer.from_pretrained(basename(abs), { local_files_only: true });
  } catch (err) {
    throw new ModelFolderError(`the tokenizer in ${abs} could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
  const lm = new CausalLM(ort.Tensor as unknown as TensorFactory, session, decoderShape(config));
  const predictor = new StatePredictor(lm, wrapTokenizer(tokenizer));
  predictor.calibration = calibrationOf(config, dtype);
  return { dir: abs, dtype, config, predictor, session, onnxBytes: statSync(onnxPath).size, loadMs: performance.now() - started };
}
