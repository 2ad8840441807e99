// The program's stdout as DAP output events. A recording knows the whole output at once; a
// debugger shows what was printed up to the stop, once, as the live program would have. Stepping
// back prints nothing; a what-if run may print something else from some point on.

export interface OutputChunk {
  category: 'stdout' | 'console';
  text: string;
}

export class ProgramOutput {
  /** What was sent so far. */
  private sent = '';

  /** The chunks to send at a stop whose output so far is `stdout`. */
  at(stdout: string): OutputChunk[] {
    if (stdout.startsWith(this.sent)) {
      const rest = stdout.slice(this.sent.length);
      this.sent = stdout;
      return rest ? [{ category: 'stdout', text: rest }] : [];
    }
    if (this.sent.startsWith(stdout)) return []; // stepped back: printed already
    let common = 0;
    while (common < stdout.length && stdout[common] === this.sent[common]) common++;
    this.sent = stdout;
    return [
      { category: 'console', text: '[the edited run prints from here on:]\n' },
      { category: 'stdout', text: stdout.slice(common) },
    ];
  }
}
