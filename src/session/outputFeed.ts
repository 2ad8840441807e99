// A program's output as a terminal debugger shows it: a recording knows the whole output at once,
// but a debugger prints what the program printed up to each stop, once, as the live program would
// have. Stepping back prints nothing; a what-if run may print something else from some point on.

export interface OutputPiece {
  text: string;
  /** The text is what an edited run prints instead of what was shown before. */
  rewritten?: boolean;
}

export class OutputFeed {
  private shown = '';

  /** What was shown so far, to go back to when what `at` answered was never printed. */
  snapshot(): string {
    return this.shown;
  }

  restore(shown: string): void {
    this.shown = shown;
  }

  /** What to print at a stop whose output so far is `text` (nothing when it was all shown). */
  at(text: string): OutputPiece | null {
    if (text.startsWith(this.shown)) {
      const rest = text.slice(this.shown.length);
      this.shown = text;
      return rest === '' ? null : { text: rest };
    }
    if (this.shown.startsWith(text)) return null;
    let common = 0;
    while (common < text.length && text[common] === this.shown[common]) common++;
    this.shown = text;
    return { text: text.slice(common), rewritten: true };
  }
}
