// input() typed live: when a run asked for a line its input did not have, the app asks the user
// (the "Program input" field) and runs the program again with the line added to its input,
// which replays deterministically up to where input() was called and then reads it. A move that
// reaches that input() waits where it is called, as a terminal does, instead of showing the
// EOFError a run with no more lines would raise; the typed line lets the same move go on.

import type { Position, Recording } from './trace';

/** Whether the debugger, at `pos`, has reached the input() that found no line (the stop where it
 * ran out, or any later one): the user is asked for it there. */
export function asksForInput(rec: Recording, pos: Position): boolean {
  const wanted = rec.input_wanted;
  return wanted !== undefined && pos >= wanted.at;
}

/** Where a forward move from `from`, which stops at `to`, waits instead because the program asks
 * on the way for the line its input does not have: the last stop before input() is called (the
 * line that calls it; never before `from`). Null when the move does not reach that input(). */
export function inputWaitStop(rec: Recording, from: Position, to: Position): Position | null {
  const wanted = rec.input_wanted;
  if (!wanted || from >= wanted.at || to < wanted.at) return null;
  return Math.max(from, wanted.at - 1);
}

/** Where to stand in the run made with the line added: the line event of the frame that called
 * input(), before it reads; stepping over it then reads the typed line. */
export function inputLineStop(rec: Recording, at: number): Position {
  const raisedIn = rec.events[at];
  for (let j = Math.min(at, rec.events.length) - 1; j >= 0; j--) {
    const e = rec.events[j]!;
    if (raisedIn === undefined || (e.frame === raisedIn.frame && e.event === 'line')) return j;
  }
  return Math.max(Math.min(at - 1, rec.events.length - 1), -1);
}

/** The run's input with one more line (a line never holds a newline: the field is one line). */
export function withInputLine(input: string, line: string): string {
  const one = line.replace(/[\r\n]+/g, ' ');
  return input === '' || input.endsWith('\n') ? `${input}${one}\n` : `${input}\n${one}\n`;
}
