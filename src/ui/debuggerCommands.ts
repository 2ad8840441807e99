// The debugger's vocabulary with the rest of the app: the toolbar's commands, and the events the
// debugger reports after each move (the model and the share link follow it through them).

import type { Action, Move } from '../core/actions';
import type { Position, Recording } from '../core/trace';
import { LIVE_LIMITS } from '../core/limits';

/** What a toolbar button does: a move of the debugger (a debugger action, or reverse continue: a
 * move over the recording, not one of the model's actions), or re-running the program. The
 * toolbar's buttons, in its order, are ui/commands.ts's COMMANDS. */
export type Command = Move | { kind: 'restart' };

export type CommandKind = Command['kind'];

/** What every run gets (core/limits.ts; the user may raise the limits). */
export const RECORD_OPTIONS = { ...LIVE_LIMITS, heap: true } as const;

/** What the debugger reports after each move. */
export type DebuggerEvent =
  /** A new run; `replay`: the same run again with one more line of input typed live (its
   * scores go on). */
  | { kind: 'recorded'; recording: Recording; position: Position; breakpoints: number[]; replay?: boolean }
  | { kind: 'action'; recording: Recording; action: Action; position: Position; breakpoints: number[] }
  | { kind: 'jump'; recording: Recording; position: Position; breakpoints: number[] }
  /** What-if: the program ran again with an edit at `position` (the current stop). */
  | { kind: 'edit'; recording: Recording; position: Position; breakpoints: number[] }
  /** The same run recorded again (new breakpoint conditions or watches): the states are the same. */
  | { kind: 'rerecorded'; recording: Recording }
  | { kind: 'cleared' };

