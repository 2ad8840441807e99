// One debugging session over the real engine's recordings: navigation (Navigator) plus what-if
// edits (EditHistory). Shared by the CLI and the app; the caller supplies the re-run.

import type { Action } from './actions';
import { Navigator, type BreakCondition } from './navigator';
import { stateAt, type DebugState } from './state';
import type { Position, Recording } from './trace';
import { EditHistory, type Edit } from './whatIf';

/** Runs the program again with these edits (and the session's conditions and watches). */
export type Rerun = (edits: readonly Edit[]) => Recording | Promise<Recording>;

export class RecordingSession {
  private editHistory: EditHistory;
  private nav: Navigator;

  constructor(base: Recording, breakpoints: Iterable<number> = [], conditions: ReadonlyMap<number, BreakCondition> = new Map()) {
    this.editHistory = new EditHistory(base);
    this.nav = new Navigator(base, breakpoints);
    for (const [line, c] of conditions) this.nav.setCondition(line, c);
  }

  /** An independent copy at the same stop: what-if questions ("where would this action go?")
   * are answered on a fork, leaving this session where it is. */
  fork(): RecordingSession {
    const copy = new RecordingSession(this.editHistory.recording);
    copy.editHistory = this.editHistory.clone();
    copy.nav = this.nav.withRecording(this.nav.recording);
    return copy;
  }

  get history(): EditHistory {
    return this.editHistory;
  }

  get recording(): Recording {
    return this.history.recording;
  }

  /** The navigator of the current recording (breakpoints are set on it). */
  get navigator(): Navigator {
    return this.nav;
  }

  get position(): Position {
    return this.nav.position;
  }

  get state(): DebugState {
    return stateAt(this.recording, this.nav.position);
  }

  /** A debugger action; stepping back to before an edit returns to the recording it was made in. */
  apply(action: Action): Position {
    this.settle(this.nav.apply(action));
    return this.nav.position;
  }

  /** pdb's `until [LINE]` (Navigator.until). */
  until(line?: number): Position {
    this.settle(this.nav.until(line));
    return this.nav.position;
  }

  /** Moves to any position (the timeline). */
  jump(pos: Position): void {
    this.nav.jump(pos);
    this.settle(this.nav.position);
  }

  /** `name = expr` at the current stop: the program is run again with the assignment made in the
   * live frame. Throws EditError (the session unchanged) for a bad edit. */
  async edit(name: string, expr: string, rerun: Rerun): Promise<void> {
    const edits = this.history.editsFor(this.nav.position, name, expr);
    const rec = await rerun(edits);
    this.history.push(edits, rec);
    this.nav = this.nav.withRecording(rec);
  }

  /** Records every edit layer again, e.g. after a change of breakpoint conditions or watches. */
  async rerecord(rerun: Rerun): Promise<void> {
    await this.history.rerecordAll(rerun);
    this.nav = this.nav.withRecording(this.history.recording);
  }

  private settle(pos: Position): void {
    if (!this.history.retreat(pos)) return;
    const next = new Navigator(this.history.recording, this.nav.breakpoints);
    for (const line of this.nav.breakpoints) {
      const c = this.nav.conditionOf(line);
      if (c) next.setCondition(line, c);
    }
    next.jump(pos);
    this.nav = next;
  }
}
