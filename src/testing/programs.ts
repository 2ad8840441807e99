// Test programs for Node-side tests: the gallery examples and the oracle programs. Each starts with
// optional `# title:` and `# call:` comment lines.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseProgramHeader } from '../core/programHeader';
import { REPO_ROOT } from '../util/repoRoot';

export interface TestProgram {
  name: string;
  source: string;
  call: string;
}

export function loadPrograms(...dirs: string[]): TestProgram[] {
  return dirs.flatMap((dir) => {
    const abs = join(REPO_ROOT, dir);
    return readdirSync(abs)
      .filter((f) => f.endsWith('.py'))
      .sort()
      .map((f) => {
        const source = readFileSync(join(abs, f), 'utf8');
        // the header stays in the source: these tests number lines as the file does
        return { name: `${dir}/${f}`, source, call: parseProgramHeader(source).call };
      });
  });
}
