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

  /** The chunks to send at a stop whose output so far is `stdout`; `cut`: the output reached
   * its cap by this stop (said once, after what is shown, with `total`, its real length). */
  at(stdout: string, cut?: { truncated?: boolean; total?: number }): OutputChunk[] {
    const piece = this.feed.at(stdout);
    const chunks: OutputChunk[] = [];
    if (piece?.rewritten) chunks.push({ category: 'console', text: '[the edited run prints from here on:]\n' });
    if (piece) chunks.push({ category: 'stdout', text: piece.text });
    const notice = this.feed.cut(cut?.truncated, cut?.total);
    if (notice) chunks.push({ category: 'console', text: `${piece && !piece.text.endsWith('\n') ? '\n' : ''}${notice}\n` });
    return chunks;
  }
}
