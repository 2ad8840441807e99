// Text of generated token ids as they come, for the checks made while a state is written.

import type { TextTokenizer } from './textTokenizer';

const REPLACEMENT = '\uFFFD';
/** A UTF-8 character has at most 4 bytes, each token at least one. */
const MAX_HELD = 4;

/** Text of generated ids as they come. A character the byte-level tokenizer split over several
 * ids decodes as U+FFFD until its last byte arrives, so such text is held back until it does. */
export class IncrementalDecoder {
  private readonly ids: number[] = [];
  private done = 0;

  constructor(private readonly tokenizer: TextTokenizer) {}

  /** The text the id would complete, without taking it: '' while a character is incomplete,
   * null for bytes that cannot become text (a broken character, or more bytes held back than
   * one character has). */
  peek(id: number): string | null {
    const held = [...this.ids.slice(this.done), id];
    const text = this.tokenizer.decode(held);
    const body = text.replace(/\uFFFD+$/, '');
    if (body.includes(REPLACEMENT)) return null;
    if (body.length < text.length) return held.length >= MAX_HELD ? null : '';
    return text;
  }

  /** The text that the new id completes ('' while a character is still incomplete). */
  push(id: number): string {
    this.ids.push(id);
    const text = this.tokenizer.decode(this.ids.slice(this.done));
    if (text.endsWith(REPLACEMENT)) return '';
    this.done = this.ids.length;
    return text;
  }
}
