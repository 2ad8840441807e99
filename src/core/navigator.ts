// Navigates a recording the way pdb would have stopped in the live program.
//
// Forward actions replay CPython 3.14's bdb decision logic (dispatch_call/line/return/exception,
// stop_here, break_here, the f_trace bookkeeping) over the recorded events of the user's frames.
// Library frames never stop (they are "skipped modules"), so leaving their events out of the
// recording changes no stop. Inverse actions walk the recording backwards.

import type { Action, Until } from './actions';
import { eventKey, keyFileIndex, keyLine } from './location';
import { stackAt } from './state';
import { ENTRY, type Position, type Recording, type TraceEvent } from './trace';

/** A frame reference as bdb holds it: a user frame id, NONE (Python's None), or a frame that is
 * never stopped in (a library frame, or bdb's bottom frame). */
type FrameRef = number | typeof NONE | typeof ELSEWHERE;
const NONE = null;
const ELSEWHERE = -1;

interface StopInfo {
  stopframe: FrameRef;
  returnframe: FrameRef;
  stoplineno: number;
  cmdframe: FrameRef;
  cmdlineno: number | null;
}

/** What makes a breakpoint stop besides its line: a condition (its value at each line event is in
 * the recording's `hit`, see RecordOptions.conditions) and a hit count (stop from the N-th time
 * the line is reached with the condition true, counted from the program's start, as bdb's
 * `ignore N-1` from the start would). A condition that raises stops, as in bdb. */
export interface BreakCondition {
  condition?: string;
  hitCount?: number;
}

const STEP_ANYWHERE: StopInfo = { stopframe: NONE, returnframe: NONE, stoplineno: 0, cmdframe: NONE, cmdlineno: null };

export class Navigator {
  readonly recording: Recording;
  /** Lines with a user breakpoint (the gutter), as keys (core/location.ts: in the main file, the
   * line number). */
  breakpoints: Set<number>;
  /** Conditions and hit counts of some of those breakpoints. */
  private readonly conditions = new Map<number, BreakCondition>();
  /** Per line: the events that count as hits of its breakpoint, in order. */
  private readonly hitCache = new Map<number, number[]>();
  private pos: Position = 0;
  /** Frames whose f_trace is set: only their line/return/exception events reach bdb. */
  private traced = new Set<number>();
  private readonly frameCode = new Map<number, number>();

  constructor(recording: Recording, breakpoints: Iterable<number> = []) {
    this.recording = recording;
    this.breakpoints = new Set(breakpoints);
    for (const e of recording.events) {
      if (!this.frameCode.has(e.frame)) this.frameCode.set(e.frame, e.code);
    }
    this.jump(recording.events.length > 0 ? 0 : recording.events.length);
  }

  /** The same stop in a re-run of the program (a what-if edit at the current event): the
   * position, breakpoints, conditions and which frames are traced carry over. */
  withRecording(recording: Recording): Navigator {
    const next = new Navigator(recording, this.breakpoints);
    for (const [line, c] of this.conditions) next.setCondition(line, c);
    next.pos = this.pos;
    next.traced = new Set(this.traced);
    return next;
  }

  get position(): Position {
    return this.pos;
  }

  get atExit(): boolean {
    return this.pos >= this.recording.events.length;
  }

  /** Moves to any position as if the debugger had stepped there one event at a time. */
  jump(pos: Position): void {
    const n = this.recording.events.length;
    this.pos = Math.max(ENTRY, Math.min(n, pos));
    this.traced = new Set(this.pos >= 0 && this.pos < n ? stackAt(this.recording, this.pos).map((f) => f.frame) : []);
  }

  apply(action: Action): Position {
    switch (action.kind) {
      case 'inv_step_into':
        this.jump(this.pos >= 0 ? this.pos - 1 : ENTRY);
        break;
      case 'inv_step_over':
        this.jump(previousAtOrAbove(this.recording.events, this.pos));
        break;
      case 'inv_step_call':
        this.jump(callOfFrame(this.recording.events, this.pos));
        break;
      default:
        this.pos = this.forward(action);
    }
    return this.pos;
  }

  /** pdb's `until [LINE]` (bdb's set_until): on to the first line or exception of this frame at
   * `line` (default: the line after the current one) or past it, or to this frame's return (a
   * generator's returns ignored, as bdb ignores them), breakpoints stopping it anywhere on the way.
   * At a return (or before the start) it steps on into the caller, as step_over does. No model
   * action: the session's moves (session/moves.ts) make it. */
  until(line?: number): Position {
    this.pos = this.forward({ kind: 'until', ...(line !== undefined ? { target: line } : {}) });
    return this.pos;
  }

  /** Reverse continue: the latest line event before the current position where a breakpoint
   * stops (its condition and hit count included), or null when there is none. */
  previousBreakHit(): Position | null {
    for (let j = Math.min(this.pos, this.recording.events.length) - 1; j >= 0; j--) {
      if (this.breaksAt(j)) return j;
    }
    return null;
  }

  /** Whether event `pos` is a line event where a user breakpoint stops (condition and hit
   * count included): what tells a breakpoint stop from a step that happens to end on its line. */
  breaksAt(pos: Position): boolean {
    const e = this.recording.events[pos];
    return !!e && e.event === 'line' && this.breakpoints.has(eventKey(this.recording, e)) && this.effective(e, pos);
  }

  /** Sets a persistent breakpoint while stopped, as pdb's `break` does. */
  addBreakpoint(line: number): void {
    this.breakpoints.add(line);
    this.traceFramesThatCanBreak(this.breakpoints);
  }

  removeBreakpoint(line: number): void {
    this.breakpoints.delete(line);
  }

  /** Sets (or with `undefined`, clears) the condition and hit count of the breakpoint at `line`.
   * A condition needs a recording made with it (the events' `hit`). */
  setCondition(line: number, condition: BreakCondition | undefined): void {
    this.hitCache.delete(line);
    if (condition && (condition.condition || (condition.hitCount ?? 0) > 1)) this.conditions.set(line, { ...condition });
    else this.conditions.delete(line);
  }

  conditionOf(line: number): BreakCondition | undefined {
    return this.conditions.get(line);
  }

  /** bdb's `effective`: does the breakpoint at this line event stop? */
  private effective(e: TraceEvent, j: number): boolean {
    const key = eventKey(this.recording, e);
    const spec = this.conditions.get(key);
    if (!spec) return true;
    if (spec.condition && e.hit !== true) return false;
    // As bdb: a condition that raises stops whatever the hit count says, and is no hit.
    if (spec.condition && e.hit_error !== undefined) return true;
    const need = spec.hitCount ?? 1;
    if (need <= 1) return true;
    return countUpTo(this.hitsOf(key, spec), j) >= need;
  }

  private hitsOf(line: number, spec: BreakCondition): number[] {
    let hits = this.hitCache.get(line);
    if (!hits) {
      hits = [];
      this.recording.events.forEach((e, i) => {
        if (e.event === 'line' && eventKey(this.recording, e) === line && (!spec.condition || (e.hit === true && e.hit_error === undefined))) hits!.push(i);
      });
      this.hitCache.set(line, hits);
    }
    return hits;
  }

  /** bdb's set_break: every frame on the stack that contains a breakpoint line gets f_trace. */
  private traceFramesThatCanBreak(breaks: ReadonlySet<number>): void {
    const events = this.recording.events;
    if (this.pos < 0 || this.pos >= events.length) return;
    for (const frame of stackAt(this.recording, this.pos)) {
      const code = this.frameCode.get(frame.frame);
      if (code !== undefined && this.codeHasBreak(code, breaks)) this.traced.add(frame.frame);
    }
  }

  private codeHasBreak(codeIndex: number, breaks: ReadonlySet<number>): boolean {
    const code = this.recording.codes[codeIndex];
    if (!code) return false;
    const file = code.file ?? 0;
    for (const key of breaks) {
      const line = keyLine(key);
      if (keyFileIndex(key) === file && line >= code.firstline && code.lines.includes(line)) return true;
    }
    return false;
  }

  private isGenerator(frame: FrameRef): boolean {
    if (typeof frame !== 'number' || frame < 0) return false;
    const code = this.frameCode.get(frame);
    return code !== undefined && (this.recording.codes[code]?.generator ?? false);
  }

  private forward(action: Action | Until): Position {
    const events = this.recording.events;
    const n = events.length;
    if (this.pos >= n) return n;
    if (this.pos < 0) {
      this.jump(0);
      if (action.kind !== 'continue' && action.kind !== 'breakpoint') return this.pos;
      if (n === 0) return n;
    }
    const breaks = new Set(this.breakpoints);
    const runTo = action.kind === 'breakpoint' ? action.line : null;
    if (action.kind === 'breakpoint') {
      breaks.add(action.line);
      this.traceFramesThatCanBreak(breaks);
    }
    const cur = events[this.pos]!;
    const here: FrameRef = cur.frame;
    let st: StopInfo;
    switch (action.kind) {
      case 'step_into':
        st = { ...STEP_ANYWHERE, cmdframe: here, cmdlineno: cur.line };
        break;
      case 'step_over':
        st = { stopframe: here, returnframe: NONE, stoplineno: 0, cmdframe: here, cmdlineno: cur.line };
        break;
      case 'until':
        st = { stopframe: here, returnframe: here, stoplineno: action.target ?? cur.line + 1, cmdframe: NONE, cmdlineno: null };
        break;
      case 'step_return':
        st = this.isGenerator(here)
          ? { stopframe: here, returnframe: here, stoplineno: -1, cmdframe: NONE, cmdlineno: null }
          : { stopframe: cur.parent >= 0 ? cur.parent : ELSEWHERE, returnframe: here, stoplineno: 0, cmdframe: NONE, cmdlineno: null };
        break;
      case 'continue':
      case 'breakpoint':
        // With no breakpoint at all bdb removes its trace function: the program runs to the end.
        if (breaks.size === 0) return n;
        st = { stopframe: ELSEWHERE, returnframe: NONE, stoplineno: -1, cmdframe: NONE, cmdlineno: null };
        break;
      default:
        throw new Error(`not a forward action: ${action.kind}`);
    }
    if (cur.event === 'return') {
      // What bdb's dispatch_return does once user_return (the stop) hands control back.
      if (st.stopframe === here && st.stoplineno !== -1) st = { ...STEP_ANYWHERE };
      if (st.stoplineno !== -1 && cur.parent >= 0) this.traced.add(cur.parent);
    }
    const stopHere = (e: TraceEvent): boolean => {
      if (e.frame === st.stopframe) return st.stoplineno === -1 ? false : e.line >= st.stoplineno;
      return st.stopframe === NONE;
    };
    const breakHere = (e: TraceEvent, j: number): boolean => {
      const key = eventKey(this.recording, e);
      return breaks.has(key) && (key === runTo || this.effective(e, j));
    };
    const breakAnywhere = (e: TraceEvent): boolean => this.codeHasBreak(e.code, breaks);
    for (let j = this.pos + 1; j < n; j++) {
      const e = events[j]!;
      const f = e.frame;
      switch (e.event) {
        case 'call': {
          if (!(stopHere(e) || breakAnywhere(e))) continue; // f_trace left as it was
          this.traced.add(f);
          if (st.stopframe !== NONE && this.isGenerator(f)) continue;
          // bdb calls user_call here "if we might stop"; pdb stops only if stop_here holds.
          if (stopHere(e)) return j;
          continue;
        }
        case 'line': {
          if (!this.traced.has(f)) continue;
          if ((stopHere(e) || breakHere(e, j)) && !(st.cmdframe === f && st.cmdlineno === e.line)) return j;
          continue;
        }
        case 'return': {
          if (!this.traced.has(f)) continue;
          if (stopHere(e) || f === st.returnframe) {
            if (st.stopframe !== NONE && this.isGenerator(f)) {
              if (e.parent >= 0) this.traced.add(e.parent);
              continue;
            }
            return j;
          }
          continue;
        }
        case 'exception': {
          if (!this.traced.has(f)) continue;
          const stopIteration = e.exc_type === 'StopIteration';
          if (stopHere(e)) {
            if (!(this.isGenerator(f) && stopIteration && e.exc_tb_none)) return j;
          } else if (
            st.stopframe !== NONE &&
            f !== st.stopframe &&
            this.isGenerator(st.stopframe) &&
            (stopIteration || e.exc_type === 'GeneratorExit')
          ) {
            return j;
          }
          continue;
        }
      }
    }
    return n;
  }
}

/** How many of the sorted `indices` are ≤ j. */
function countUpTo(indices: readonly number[], j: number): number {
  let lo = 0;
  let hi = indices.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (indices[mid]! <= j) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function depthAt(events: readonly TraceEvent[], pos: Position): number {
  return pos >= 0 && pos < events.length ? events[pos]!.depth : 0;
}

/** inv_step_over: the latest earlier event at the same or a shallower depth. */
export function previousAtOrAbove(events: readonly TraceEvent[], pos: Position): Position {
  const d = depthAt(events, pos);
  for (let j = Math.min(pos, events.length) - 1; j >= 0; j--) {
    if (events[j]!.depth <= d) return j;
  }
  return ENTRY;
}

/** inv_step_call: this frame's call event; at a call event, the caller's. */
export function callOfFrame(events: readonly TraceEvent[], pos: Position): Position {
  if (pos < 0) return ENTRY;
  let at = pos;
  if (pos >= events.length) {
    at = -1;
    for (let j = events.length - 1; j >= 0; j--) {
      if (events[j]!.depth === 0) {
        at = j;
        break;
      }
    }
    if (at < 0) return ENTRY;
  } else if (events[pos]!.event === 'call') {
    const d = events[pos]!.depth;
    at = -1;
    for (let j = pos - 1; j >= 0; j--) {
      if (events[j]!.depth < d) {
        at = j;
        break;
      }
    }
    if (at < 0) return ENTRY;
  }
  return callEventOf(events, at);
}

/** The call event of the frame that event `at` belongs to (where its arguments are), or ENTRY
 * when the recording has none. */
export function callEventOf(events: readonly TraceEvent[], at: Position): Position {
  const frame = events[at]?.frame;
  if (frame === undefined) return ENTRY;
  for (let j = at; j >= 0; j--) {
    const e = events[j]!;
    if (e.frame === frame && e.event === 'call') return j;
  }
  return ENTRY;
}
