// The example gallery: the programs in examples/*.py, bundled as text. Each file starts with
// `# title: …` and `# call: …` lines; they fill the gallery and the Call field and are not shown in
// the editor.

import { parseProgramHeader } from '../core/programHeader';

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
  const { title, call, body } = parseProgramHeader(text);
  return { id, title: title ?? id, call, source: body };
}

export const EXAMPLES: readonly Example[] = Object.entries(files)
  .map(([path, text]) => parseExample(path.replace(/^.*\//, '').replace(/\.py$/, ''), text))
  .sort((a, b) => a.id.localeCompare(b.id));
