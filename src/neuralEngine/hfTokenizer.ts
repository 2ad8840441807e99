// The model's tokenizer through transformers.js (the same code in Node and in the browser).

import type { PreTrainedTokenizer } from '@huggingface/transformers';
import type { TextTokenizer } from './textTokenizer';

export function wrapTokenizer(tok: PreTrainedTokenizer): TextTokenizer {
  const vocab = tok.get_vocab();
  return {
    encode: (text) => tok.encode(text, { add_special_tokens: false }),
    // transformers.js throws on no ids; a model whose first token ends the state predicted ''.
    decode: (ids) => (ids.length === 0 ? '' : tok.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false })),
    tokenId: (token) => vocab.get(token),
  };
}
