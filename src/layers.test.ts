// The layers of docs/architecture.md, held: a test reads every import of every source file and
// fails when a layer imports one it may not (a layer above it, or a face another face's code).
// The table below is the architecture page's "may import" column.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './realEngine/node';

/** Layer → the layers (folders of src/) it may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  util: [],
  core: [],
  realEngine: ['util', 'core'],
  neuralEngine: ['util', 'core'],
  session: ['util', 'core', 'realEngine', 'neuralEngine'],
  ui: ['util', 'core', 'realEngine', 'neuralEngine'],
  cli: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'dap', 'mcp'],
  dap: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'cli/stdio'],
  mcp: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'cli/stdio'],
  // test support: may drive any layer, and only tests import it (no layer lists it)
  testing: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'cli', 'dap', 'mcp'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|svelte)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The imports that break the table, from files given as (path under src/, text). */
function violations(files: ReadonlyArray<{ rel: string; text: string }>): { wrong: string[]; checked: number } {
  const wrong: string[] = [];
  let checked = 0;
  for (const { rel, text } of files) {
    const layer = rel.split('/')[0]!;
    const allowed = MAY_IMPORT[layer];
    if (!allowed) continue;
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = join(rel, '..', m[1]!);
      const targetLayer = target.split('/')[0]!;
      checked++;
      if (targetLayer === layer || target.startsWith('..')) continue;
      if (allowed.includes(targetLayer) || allowed.some((a) => a.includes('/') && target.startsWith(a))) continue;
      wrong.push(`${rel} imports ${target}`);
    }
  }
  return { wrong, checked };
}

describe('layers', () => {
  it('import only the layers below them (docs/architecture.md)', () => {
    const src = join(REPO_ROOT, 'src');
    const files = sources(src).map((file) => ({ rel: relative(src, file), text: readFileSync(file, 'utf8') }));
    const { wrong, checked } = violations(files);
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it('catches a layer that imports one above it', () => {
    expect(
      violations([
        { rel: 'core/x.ts', text: "import { a } from '../ui/status';\nimport { b } from './format';" },
        { rel: 'session/y.ts', text: "import { c } from '../cli/main';" },
        { rel: 'mcp/z.ts', text: "import { d } from '../cli/stdio';" },
      ]).wrong,
    ).toEqual(['core/x.ts imports ui/status', 'session/y.ts imports cli/main']);
  });
});
