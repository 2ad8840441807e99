// A program's output as a terminal debugger shows it: a recording knows the whole output at once,
// but a debugger prints what the program printed up to each stop, once, as the live program would
// have. Stepping back prints nothing; a what-if run may print something else from some point on.

export interface OutputPiece {
  text: string;
  /** The text is what an edited run prints instead of what was shown before. */
  rewritten?: boolean;
}

/** The tracer keeps this much of a program's output (tracer.py, MAX_STDOUT). */
export const OUTPUT_CAP = 100_000;

/** What a face says, once, where the program's output is cut at its cap. */
export function outputCutNotice(total: number | undefined): string {
  const all = total !== undefined ? `${total.toLocaleString('en-US')} characters in all` : 'more was written';
  return `ndb: the program's output past ${OUTPUT_CAP.toLocaleString('en-US')} characters is not shown (${all})`;
}

export class OutputFeed {
  private shown = '';
  private cutSaid = false;

  /** At a stop whose output is cut (the state's `stdout_truncated`): the notice, the first time. */
  cut(truncated: boolean | undefined, total: number | undefined): string | null {
    if (!truncated || this.cutSaid) return null;
    this.cutSaid = true;
    return outputCutNotice(total);
  }

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
