// What the app and the CLI read from a model folder (Hugging Face layout: docs/architecture.md#model-folders).

import type { Calibration, Platt } from '../core/confidence';
import type { DecoderShape } from './causalLm';

export type ModelDtype = 'fp32' | 'int8' | 'q8' | 'q4' | 'fp16';

/** transformers.js's file name suffixes by dtype. */
export const DTYPE_SUFFIX: Record<ModelDtype, string> = { fp32: '', int8: '_int8', q8: '_quantized', q4: '_q4', fp16: '_fp16' };

export interface HfConfig {
  model_type: string;
  vocab_size: number;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads?: number;
  head_dim?: number;
  max_position_embeddings?: number;
  /** Ours: the training sequence length (`training.export` writes it); positions past it were
   * never trained, whatever max_position_embeddings allows. */
  ndb_trained_context?: number;
  /** Ours: the confidence calibration of each variant (`ndb eval calibrate --write`). */
  ndb_calibration?: Partial<Record<ModelDtype, Calibration>>;
}

export class ModelFolderError extends Error {}

export function decoderShape(config: HfConfig): DecoderShape {
  if (!Number.isInteger(config.num_hidden_layers) || !Number.isInteger(config.num_attention_heads) || !Number.isInteger(config.hidden_size)) {
    throw new ModelFolderError('config.json lacks the layer, head or size counts');
  }
  const shape: DecoderShape = {
    layers: config.num_hidden_layers,
    kvHeads: config.num_key_value_heads ?? config.num_attention_heads,
    headDim: config.head_dim ?? config.hidden_size / config.num_attention_heads,
  };
  if (config.max_position_embeddings !== undefined) shape.maxPositions = config.max_position_embeddings;
  const trained = config.ndb_trained_context;
  if (trained !== undefined) {
    if (!Number.isInteger(trained) || trained < 64) throw new ModelFolderError(`config.json: ndb_trained_context must be an integer ≥ 64, not ${JSON.stringify(trained)}`);
    shape.trainedContext = trained;
  }
  return shape;
}

function isPlatt(p: unknown): p is Platt {
  return typeof p === 'object' && p !== null && Number.isFinite((p as Platt).a) && Number.isFinite((p as Platt).b);
}

/** The calibration of the variant in use (fp32's when it has none of its own), or null; a
 * malformed one is an error, not a silent default. */
export function calibrationOf(config: HfConfig, dtype: ModelDtype): Calibration | null {
  const all = config.ndb_calibration;
  if (all === undefined) return null;
  const c = all[dtype] ?? all.fp32;
  if (c === undefined) return null;
  if (!isPlatt(c.state) || !isPlatt(c.position) || !isPlatt(c.local) || !isPlatt(c.value)) {
    throw new ModelFolderError(`config.json: ndb_calibration.${all[dtype] ? dtype : 'fp32'} needs state, position, local and value, each {a, b}`);
  }
  return c;
}

export function onnxFileName(dtype: ModelDtype): string {
  return `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`;
}
