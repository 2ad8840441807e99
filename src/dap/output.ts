// The program's stdout as DAP output events, through the session layer's OutputFeed (what was
// printed up to the stop, once; nothing when stepping back; a what-if run's different output from
// where it differs, announced).

import { OutputFeed } from '../session/outputFeed';

export interface OutputChunk {
  category: 'stdout' | 'console';
  text: string;
}

export class ProgramOutput {
  private readonly feed = new OutputFeed();

  /** The chunks to send at a stop whose output so far is `stdout`. */
  at(stdout: string): OutputChunk[] {
    const piece = this.feed.at(stdout);
    if (!piece) return [];
    if (!piece.rewritten) return [{ category: 'stdout', text: piece.text }];
    return [
      { category: 'console', text: '[the edited run prints from here on:]\n' },
      { category: 'stdout', text: piece.text },
    ];
  }
}
