// Test programs for Node-side tests: the gallery examples and the oracle programs. Each starts with
// optional `# title:` and `# call:` comment lines.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../node';

export interface TestProgram {
  name: string;
  source: string;
  call: string;
}

export function parseHeader(source: string): { title?: string; call: string } {
  const call = /^# call:[ \t]*(.*)$/m.exec(source)?.[1]?.trim() ?? '';
  const title = /^# title:[ \t]*(.*)$/m.exec(source)?.[1]?.trim();
  return title === undefined ? { call } : { title, call };
}

export function loadPrograms(...dirs: string[]): TestProgram[] {
  return dirs.flatMap((dir) => {
    const abs = join(REPO_ROOT, dir);
    return readdirSync(abs)
      .filter((f) => f.endsWith('.py'))
      .sort()
      .map((f) => {
        const source = readFileSync(join(abs, f), 'utf8');
        return { name: `${dir}/${f}`, source, call: parseHeader(source).call };
      });
  });
}
