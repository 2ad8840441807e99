// Trajectories drawn from a recording: the state at each position, the locals a state is elided
// against, the whole text a sequence of actions gives (what the model is trained on), and the
// prompt for the next state. It stands above the navigator (which finds where each action stops)
// and the format (which writes each piece). Pure: no Node or DOM APIs.

import { isInverse, type Action } from './actions';
import { renderAction, renderContext, renderState, type FormatState } from './format';
import { Navigator } from './navigator';
import { sourceLines } from './sourceLines';
import { ELIDING_EVENTS, showsLocals, TOKENS } from './stateGrammar';
import type { Position, Recording } from './trace';

/** The state at a position of a recording. */
export function formatStateAt(rec: Recording, pos: Position): FormatState {
  if (pos < 0) return { event: 'entry' };
  if (pos >= rec.events.length) {
    const exit: FormatState = { event: 'exit', status: rec.exit.status };
    if (rec.exit.message !== undefined) exit.message = rec.exit.message;
    return exit;
  }
  const e = rec.events[pos]!;
  const state: FormatState = { event: e.event, line: e.line, locals: e.locals };
  if (e.value !== undefined) state.value = e.value;
  if (e.raising) state.raising = true;
  return state;
}

/** The full locals to elide against when moving from `prev` to `pos` (or null for none). */
export function elisionBase(rec: Recording, prev: Position | null, pos: Position, action: Action | null): Record<string, string> | null {
  if (prev === null || action === null || action.kind === 'breakpoint' || action.kind === 'continue') return null;
  const n = rec.events.length;
  if (prev < 0 || prev >= n || pos < 0 || pos >= n) return null;
  const a = rec.events[prev]!;
  const b = rec.events[pos]!;
  if (!showsLocals(a.event) || a.frame !== b.frame || !ELIDING_EVENTS.has(b.event)) return null;
  return a.locals;
}

export interface TrajectoryOptions {
  /** The user breakpoints (gutter), used by continue and breakpoint. */
  breakpoints?: Iterable<number>;
  /** Where the trajectory starts (default: the first event, as a debugger session does). */
  start?: Position;
}

/** The pieces of a trajectory: the context, the first state, then each action and its state. */
export interface TrajectoryPieces {
  context: string;
  first: string;
  steps: Array<{ action: string; state: string; position: Position }>;
  start: Position;
}

export function renderTrajectoryPieces(rec: Recording, actions: readonly Action[], options: TrajectoryOptions = {}): TrajectoryPieces {
  const breakpoints = [...(options.breakpoints ?? [])];
  const lines = sourceLines(rec.source);
  const nav = new Navigator(rec, breakpoints);
  if (options.start !== undefined) nav.jump(options.start);
  let prev = nav.position;
  const pieces: TrajectoryPieces = {
    context: renderContext(rec.source),
    first: renderState(lines, formatStateAt(rec, prev)),
    steps: [],
    start: prev,
  };
  for (const action of actions) {
    const pos = nav.apply(action);
    const state = renderState(lines, formatStateAt(rec, pos), {
      inverse: isInverse(action),
      elideAgainst: elisionBase(rec, prev, pos, action),
    });
    pieces.steps.push({ action: renderAction(action, breakpoints), state, position: pos });
    prev = pos;
  }
  return pieces;
}

/** The whole trajectory text the model is trained on. */
export function renderTrajectory(rec: Recording, actions: readonly Action[], options: TrajectoryOptions = {}): string {
  const p = renderTrajectoryPieces(rec, actions, options);
  return p.context + p.first + p.steps.map((s) => s.action + s.state).join('') + TOKENS.traceEnd;
}

/** The prompt for predicting the state after `action`: the trajectory so far (without
 * <|trace_end|>), the action, and <|frame_sep|>; the model continues with the state's body. */
export function promptForNext(trajectorySoFar: string, action: Action, breakpoints: Iterable<number> = []): string {
  const base = trajectorySoFar.endsWith(TOKENS.traceEnd) ? trajectorySoFar.slice(0, -TOKENS.traceEnd.length) : trajectorySoFar;
  return base + renderAction(action, breakpoints) + TOKENS.frameSep;
}
