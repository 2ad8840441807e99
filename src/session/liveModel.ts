// Loads the model for the long-running front ends (`ndb dap`, `ndb mcp`), once per folder and
// variant: loading takes seconds and a server may be asked for it by many sessions.

import type { ModelDtype } from '../neuralEngine/modelConfig';
import type { LiveModel } from './liveSession';

/** The model cannot be used; the message says why (no model shipped, a folder that is none). */
export class ModelUnavailable extends Error {}

const loaded = new Map<string, Promise<LiveModel>>();

/** `dir`: a model folder, default the app's (public/models/index.json). */
export function loadLiveModel(dir?: string, dtype: ModelDtype = 'fp32'): Promise<LiveModel> {
  const key = `${dir ?? ''}\u0000${dtype}`;
  let model = loaded.get(key);
  if (!model) {
    model = load(dir, dtype);
    loaded.set(key, model);
    // A failure is not kept: the folder may be fixed and asked for again.
    model.catch(() => loaded.delete(key));
  }
  return model;
}

async function load(dir: string | undefined, dtype: ModelDtype): Promise<LiveModel> {
  const { defaultModelDir, loadNodeModel } = await import('../neuralEngine/nodeModel');
  let folder: string;
  try {
    folder = dir ?? defaultModelDir();
  } catch (err) {
    throw new ModelUnavailable(`no model: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return { predictor: (await loadNodeModel(folder, dtype)).predictor };
  } catch (err) {
    throw new ModelUnavailable(`the model could not be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
}
