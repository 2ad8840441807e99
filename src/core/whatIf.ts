// What-if debugging: a local edited at a stop. The real engine re-runs the program and makes the
// assignment in the live frame when it reaches that event (RecordOptions.edits), then records from
// there. A session keeps one recording per edit, stacked: stepping back to before the newest edit
// returns to the recording it was made in.

import { hasOwnName } from './names';
import type { Position, Recording, TraceEvent } from './trace';

/** An assignment `name = expr` made in the frame of the `at`-th recorded event. */
export interface Edit {
  at: number;
  name: string;
  expr: string;
}

/** Whether `name` can be assigned by an edit (an identifier in ASCII, as the tracer accepts). */
export function isVariableName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/** A bad edit: the session is left as it was. */
export class EditError extends Error {}

interface Layer {
  recording: Recording;
  /** All edits this recording was made with, oldest first. */
  edits: Edit[];
}

export class EditHistory {
  private readonly layers: Layer[];

  constructor(base: Recording) {
    this.layers = [{ recording: base, edits: [] }];
  }

  get recording(): Recording {
    return this.top.recording;
  }

  /** An independent copy (the recordings are shared: they are never changed in place). */
  clone(): EditHistory {
    const copy = new EditHistory(this.layers[0]!.recording);
    copy.layers.splice(0, 1, ...this.layers.map((l) => ({ recording: l.recording, edits: l.edits })));
    return copy;
  }

  get edits(): readonly Edit[] {
    return this.top.edits;
  }

  /** How many edits are in force. */
  get depth(): number {
    return this.layers.length - 1;
  }

  private get top(): Layer {
    return this.layers[this.layers.length - 1]!;
  }

  /** The edits a re-run needs for `name = expr` at `pos`; throws EditError for a stop that
   * cannot be edited or a name that is not one of its locals. */
  editsFor(pos: Position, name: string, expr: string): Edit[] {
    const events = this.recording.events;
    if (pos < 0) throw new EditError('nothing to edit before the program starts: step into it first');
    if (pos >= events.length) throw new EditError('nothing to edit after the program has ended');
    if (!isVariableName(name)) throw new EditError(`'${name}' is not a variable name`);
    if (expr.trim() === '') throw new EditError(`no value for ${name}: type a Python expression`);
    const e = events[pos]!;
    if (!hasOwnName(e.locals, name)) {
      const names = Object.keys(e.locals);
      throw new EditError(
        `'${name}' is not a local of ${e.function}() at line ${e.line}` + (names.length ? ` (its locals: ${names.join(', ')})` : ' (it has no locals yet)'),
      );
    }
    return [...this.edits, { at: pos, name, expr: expr.trim() }];
  }

  /** Takes the re-run made with `edits` (from editsFor). Throws EditError when the edit failed in
   * Python, or when the re-run went another way before the edit (a program that is not
   * deterministic: random numbers, time, ids). */
  push(edits: Edit[], rerun: Recording): void {
    const edit = edits[edits.length - 1];
    if (!edit) throw new Error('push needs at least one edit');
    if (rerun.exit.status === 'edit_error') throw new EditError(rerun.exit.message ?? 'the edit failed');
    const before = this.recording.events;
    const after = rerun.events;
    if (after.length <= edit.at || !sameStop(before[edit.at], after[edit.at]) || !after[edit.at]!.edits?.length) {
      throw new EditError('the program ran differently when it was run again (it is not deterministic), so the edit cannot be made');
    }
    for (let j = 0; j < edit.at; j++) {
      if (!sameStop(before[j], after[j])) {
        throw new EditError(`the program ran differently when it was run again (at event ${j}): it is not deterministic, so the edit cannot be made`);
      }
    }
    this.layers.push({ recording: rerun, edits });
  }

  /** After a move to `pos`: recordings whose newest edit lies after `pos` are left, back to the one
   * the user was in before those edits. Returns whether the recording changed. */
  retreat(pos: Position): boolean {
    let changed = false;
    while (this.layers.length > 1 && pos < this.top.edits[this.top.edits.length - 1]!.at) {
      this.layers.pop();
      changed = true;
    }
    return changed;
  }

  /** Records every layer again (new breakpoint conditions or watch expressions): `record` gets
   * each layer's edits; if it throws for one, no layer changes. */
  async rerecordAll(record: (edits: readonly Edit[]) => Recording | Promise<Recording>): Promise<void> {
    // All or nothing: a re-run that throws leaves every layer as it was.
    const recordings: Recording[] = [];
    for (const layer of this.layers) recordings.push(await record(layer.edits));
    this.layers.forEach((layer, i) => (layer.recording = recordings[i]!));
  }
}

function sameStop(a: TraceEvent | undefined, b: TraceEvent | undefined): boolean {
  return !!a && !!b && a.event === b.event && a.line === b.line && a.frame === b.frame && a.function === b.function;
}
