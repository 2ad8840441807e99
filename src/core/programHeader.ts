// The header a program file of ndb starts with (the gallery's examples, the test programs, the
// teaching set): `# title: …` and `# call: …` comment lines, read in one place for the app, the
// CLI and the tests.

export interface ProgramHeader {
  /** `# title:`, absent when the file has none. */
  title?: string;
  /** `# call:`, the entry call; empty runs the module top to bottom. */
  call: string;
  /** The file without its header lines (what the app shows in the editor). */
  body: string;
}

export function parseProgramHeader(text: string): ProgramHeader {
  const lines = text.split('\n');
  let title: string | undefined;
  let call = '';
  let body = 0;
  for (; body < lines.length; body++) {
    const m = /^#\s*(title|call):\s?(.*)$/.exec(lines[body]!);
    if (!m) break;
    if (m[1] === 'title') title = m[2]!.trim();
    else call = m[2]!.trim();
  }
  const rest = lines.slice(body).join('\n');
  return title === undefined ? { call, body: rest } : { title, call, body: rest };
}
