// For tests: the shipped model's tokenizer, read from its folder (no network).
import { basename, dirname } from 'node:path';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { defaultModelDir } from '../neuralEngine/nodeModel';
import { wrapTokenizer } from '../neuralEngine/hfTokenizer';
import type { TextTokenizer } from '../neuralEngine/textTokenizer';

export async function shippedTokenizer(): Promise<TextTokenizer> {
  const dir = defaultModelDir();
  env.allowRemoteModels = false;
  env.localModelPath = `${dirname(dir)}/`;
  return wrapTokenizer(await AutoTokenizer.from_pretrained(basename(dir), { local_files_only: true }));
}
