// The example gallery: the programs in examples/*.py, bundled as text. Each file starts with
// `# title: …` and `# call: …` lines; they fill the gallery and the Call field and are not shown in
// the editor.

export interface Example {
  /** The file name without `.py`, e.g. `01_loop_sum`. */
  id: string;
  title: string;
  /** The entry call, e.g. `total([3, 1, 4, 1, 5])`; empty runs the module top to bottom. */
  call: string;
  source: string;
}

const files = import.meta.glob<string>('../../examples/*.py', { query: '?raw', import: 'default', eager: true });

export function parseExample(id: string, text: string): Example {
  const lines = text.split('\n');
  let title = id;
  let call = '';
  let body = 0;
  for (; body < lines.length; body++) {
    const m = /^#\s*(title|call):\s?(.*)$/.exec(lines[body]!);
    if (!m) break;
    if (m[1] === 'title') title = m[2]!.trim();
    else call = m[2]!.trim();
  }
  return { id, title, call, source: lines.slice(body).join('\n') };
}

export const EXAMPLES: readonly Example[] = Object.entries(files)
  .map(([path, text]) => parseExample(path.replace(/^.*\//, '').replace(/\.py$/, ''), text))
  .sort((a, b) => a.id.localeCompare(b.id));
