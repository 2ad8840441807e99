// A debugger state as one line of text (`ndb trace` and `ndb debug` without --json). The values
// are the program's: the caller makes the line terminal-safe (core/terminalText.ts).

import type { DebugState } from '../core/state';
import type { TraceEvent } from '../core/trace';

export function localsText(locals: Record<string, string>): string {
  return Object.entries(locals)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** One event of a trace, indented by its depth. */
/** One event as `ndb trace` prints it; `file`: the event's file in a program of several files,
 * named after the line unless it is `main` (the main file). */
export function eventText(e: TraceEvent, file?: string, main?: string): string {
  const where = file !== undefined && file !== main ? ` (${file})` : '';
  return `${'  '.repeat(Math.max(0, e.depth))}${e.event.padEnd(9)} ${e.function}:${e.line}${where}  ${localsText(e.locals)}${e.value !== undefined ? `  -> ${e.value}` : ''}`;
}

export function stateText(s: DebugState): string {
  if (s.event === 'entry') return 'entry';
  if (s.event === 'exit') return `exit (${s.status}${s.exit_code !== undefined ? `, sys.exit() with exit status ${s.exit_code}` : ''}${s.message ? `: ${s.message}` : ''})`;
  const edits = s.edits?.length ? `  [edited: ${s.edits.map((e) => `${e.name} = ${e.expr}`).join('; ')}]` : '';
  return `${s.event} ${s.function}:${s.line} ${localsText(s.locals)}${s.value !== undefined ? ` -> ${s.value}` : ''}${edits}`;
}
