// The call stack a DAP client shows, innermost frame first, each frame tied to the event that
// holds its current line and locals.

import { frameEvents } from '../core/state';
import type { Position, Recording } from '../core/trace';

export interface FrameView {
  /** DAP frame id: the depth + 1, stable while stopped. */
  id: number;
  name: string;
  /** The frame's file relative to the program's folder (absent: the main file). */
  file?: string;
  line: number;
  /** The frame's latest event at or before the position. */
  event: number;
  depth: number;
}

export function framesAt(rec: Recording, pos: Position): FrameView[] {
  return frameEvents(rec, pos).map((f) => ({ id: f.depth + 1, name: f.function, ...(rec.files ? { file: f.file } : {}), line: f.line, event: f.event, depth: f.depth }));
}

/** The function a line belongs to, read from the source's indentation: what a frame of the
 * model's predicted state is called (the model predicts lines, not frames). */
export function functionAtLine(source: string, line: number): string {
  const lines = source.split('\n');
  const indentOf = (text: string) => text.length - text.trimStart().length;
  let limit = Infinity;
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const text = lines[i]!;
    if (text.trim() === '' || text.trimStart().startsWith('#')) continue;
    const indent = indentOf(text);
    const def = /^\s*(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(text);
    if (def && (i === line - 1 || indent < limit)) return def[1]!;
    limit = Math.min(limit, indent);
    if (limit === 0) break;
  }
  return '<module>';
}
