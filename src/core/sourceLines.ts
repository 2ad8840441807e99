// A program's lines, as line numbers count them (its own module: the format, the states and the
// constraints all read it, and none of them needs the others for it).

/** The lines of a source: "\r\n" and "\r" count as "\n"; a final newline ends the last line. */
export function sourceLines(source: string): string[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
