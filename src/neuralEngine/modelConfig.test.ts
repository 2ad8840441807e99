import { describe, expect, it } from 'vitest';
import { decoderShape, ModelFolderError, type HfConfig } from './modelConfig';

const base: HfConfig = { model_type: 'llama', vocab_size: 2048, hidden_size: 256, num_hidden_layers: 4, num_attention_heads: 8, num_key_value_heads: 4 };

describe('decoderShape', () => {
  it('reads the trained context when the config names it, and leaves it out otherwise', () => {
    expect(decoderShape({ ...base, ndb_trained_context: 512 })).toEqual({ layers: 4, kvHeads: 4, headDim: 32, trainedContext: 512 });
    expect(decoderShape(base)).toEqual({ layers: 4, kvHeads: 4, headDim: 32 });
  });

  it('refuses a trained context that cannot be one', () => {
    for (const bad of [10, 512.5, '512'] as unknown[]) {
      expect(() => decoderShape({ ...base, ndb_trained_context: bad as number })).toThrow(ModelFolderError);
    }
  });
});
