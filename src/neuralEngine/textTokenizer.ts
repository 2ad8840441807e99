// What the decoder needs of a tokenizer, in a file of its own: the predictor, the decoders and
// each tokenizer's adapter all name it, and none of them should have to import another for it.

export interface TextTokenizer {
  encode(text: string): number[];
  decode(ids: readonly number[]): string;
  tokenId(token: string): number | undefined;
}
