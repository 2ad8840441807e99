// What the panels show of the stop the debugger stands at: its state, the frames, the locals that
// changed since the last stop in the same frame, the watch rows, the traceback, a caller's frame
// picked in the Call stack. The debugger (debugger.svelte.ts) moves it; it only reads.

import { frameArguments } from '../core/frameArgs';
import { NO_OBJECTS, objectsAt, type ObjectsView } from '../core/objects';
import { changedLocals, stateAt, type DebugState, type EventState, type StackFrame } from '../core/state';
import type { Position, Recording, TraceEvent } from '../core/trace';
import { tracebackOf, unrecordedRaise, type TracebackEntry } from '../core/traceback';
import { currentLineOf, errorMarkerOf, framesShown, frameViewOf, lastReachedAt, watchRowsAt, type ErrorMarker, type FrameView, type WatchRow } from './debuggerViews';
import { cutOffOf, type CutOff } from './runEnd';
import { hasOwnName, own } from '../core/names';

/** What the view reads from the debugger and the program. */
export interface StopSource {
  readonly recording: Recording | null;
  readonly position: Position;
  /** The watch expressions as written, and those the recording evaluated (in its order). */
  readonly watches: Parameters<typeof watchRowsAt>[2];
  readonly recordedWatches: readonly string[];
}

export class StopView {
  /** The frame picked in the Call stack (null: the current frame). */
  selectedFrame = $state<number | null>(null);
  /** The previous stop in the same frame: what "changed" values are compared with. */
  private compareWith = $state<Position>(-2);
  private visited: Position[] = [];

  constructor(private readonly at: StopSource) {}

  readonly state = $derived.by<DebugState | null>(() => this.at.recording ? stateAt(this.at.recording, this.at.position) : null);

  /** A run stopped by a limit, not by its own end (null: it ended, or there is none). */
  readonly cutOff = $derived.by<CutOff | null>(() => this.at.recording ? cutOffOf(this.at.recording) : null);

  /** At the exit of a run that was cut off: the last state it reached (its frame and locals), which
   * the panels show; null elsewhere. */
  readonly lastReached = $derived.by<EventState | null>(() => this.at.recording ? lastReachedAt(this.at.recording, this.at.position, this.cutOff) : null);

  /** The frames at the stop: none once the program has ended (it finished, or an exception ended
   * it); the frames it was in when a limit cut it off. */
  readonly stack = $derived.by<StackFrame[]>(() => this.at.recording ? framesShown(this.at.recording, this.at.position, this.cutOff) : []);

  readonly changed = $derived.by<Set<string>>(() => this.at.recording ? changedLocals(this.at.recording, this.at.position, this.compareWith) : new Set());
  readonly lastPosition = $derived.by(() => this.at.recording ? this.at.recording.events.length : 0);

  /** The watch rows at the current stop. */
  readonly watchRows = $derived.by<WatchRow[]>(() => watchRowsAt(this.at.recording, this.at.position, this.at.watches, this.at.recordedWatches));

  /** The traceback of a run that ended with an uncaught exception (outermost frame first). */
  readonly traceback = $derived.by<TracebackEntry[]>(() => this.at.recording ? tracebackOf(this.at.recording) : []);

  readonly errorMarker = $derived.by<ErrorMarker | null>(() => this.at.recording ? errorMarkerOf(this.at.recording, this.traceback, this.at.position) : null);

  /** The frame picked in the Call stack, when it is not the current one: its line and its locals
   * as they were when it last ran (at its call of the frame above it). */
  readonly frameView = $derived.by<FrameView | null>(() => this.at.recording ? frameViewOf(this.at.recording, this.at.position, this.stack, this.selectedFrame) : null);

  /** The event whose locals Variables shows: a caller's latest (picked in the Call stack), the
   * current stop, or where a limit cut the run off. */
  private readonly shownEvent = $derived.by<TraceEvent | null>(() => {
    const rec = this.at.recording;
    if (!rec) return null;
    const pos = this.at.position;
    if (this.frameView) {
      for (let j = Math.min(pos, rec.events.length - 1); j >= 0; j--) if (rec.events[j]!.frame === this.frameView.frame) return rec.events[j]!;
      return null;
    }
    if (pos >= 0 && pos < rec.events.length) return rec.events[pos]!;
    return this.cutOff?.last ?? null;
  });

  /** Which shown names are one object, the module's variables in a function, a closure's. */
  readonly objects = $derived.by<ObjectsView>(() => {
    const e = this.shownEvent;
    return e && this.at.recording ? objectsAt(this.at.recording, e) : NO_OBJECTS;
  });

  /** The globals that changed since the previous stop in the same frame (as `changed`). */
  readonly changedGlobals = $derived.by<Set<string>>(() => {
    const rec = this.at.recording;
    const pos = this.at.position;
    const out = new Set<string>();
    if (!rec || this.frameView || pos < 0 || pos >= rec.events.length || this.compareWith < 0) return out;
    const now = rec.events[pos]!.globals ?? {};
    const before = rec.events[this.compareWith]?.globals ?? {};
    for (const [name, value] of Object.entries(now)) if (!hasOwnName(before, name) || own(before, name) !== value) out.add(name);
    return out;
  });

  /** Each live frame's arguments, as it was called (frame id → `n=6`). */
  readonly frameArgs = $derived.by<Map<number, string>>(() => this.at.recording ? frameArguments(this.at.recording, this.at.position) : new Map());

  /** The exception raised at this stop that the recording has no event for: a RecursionError that
   * ran the tracer itself out of stack, raised by the call on the last recorded line (null: none). */
  readonly raisedHere = $derived.by<string | null>(() => {
    const rec = this.at.recording;
    return rec && unrecordedRaise(rec) === this.at.position ? (rec.exit.message ?? rec.exit.exc_type ?? 'RecursionError') : null;
  });

  /** The line the editor highlights, with the kind of stop (an exception's where a RecursionError
   * that stopped the tracer was raised: core/traceback.ts). */
  readonly currentLine = $derived.by(() => {
    const line = currentLineOf(this.state);
    const rec = this.at.recording;
    return line && rec && unrecordedRaise(rec) === this.at.position ? { ...line, kind: 'exception' as const } : line;
  });

  /** Shows a caller's frame (its line and locals), or with null the current one again. */
  selectFrame(frame: number | null): void {
    this.selectedFrame = frame;
  }

  /** A new recording: no earlier stop to compare with. */
  restart(): void {
    this.visited = [];
    this.compareWith = -2;
  }

  /** The debugger moved to `pos` (of `rec`): "changed" compares with the last stop in its frame. */
  movedTo(rec: Recording | null, pos: Position): void {
    let compare: Position = -2;
    if (rec && pos >= 0 && pos < rec.events.length) {
      const frame = rec.events[pos]!.frame;
      for (let i = this.visited.length - 1; i >= 0; i--) {
        const p = this.visited[i]!;
        if (p !== pos && p >= 0 && p < rec.events.length && rec.events[p]!.frame === frame) {
          compare = p;
          break;
        }
      }
    }
    this.visited.push(pos);
    if (this.visited.length > 1000) this.visited.splice(0, this.visited.length - 1000);
    this.compareWith = compare;
    this.selectedFrame = null;
  }
}
