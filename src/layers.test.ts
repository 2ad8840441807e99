// The layers of docs/architecture.md, held: a test reads every import of every source file and
// fails when a layer imports one it may not (a layer above it, or a face another face's code).
// The table below is the architecture page's "may import" column. The CLI is the one face that
// may import the others (it starts `ndb dap` and `ndb mcp`); nothing imports the CLI, not even a
// test: what two faces share lives below them.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './util/repoRoot';

/** Layer → the layers (folders of src/) it may import besides itself. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  util: [],
  core: [],
  realEngine: ['util', 'core'],
  neuralEngine: ['util', 'core'],
  session: ['util', 'core', 'realEngine', 'neuralEngine'],
  // the evaluation harness: beside the faces, imports none (Node only: the app has no use for it)
  eval: ['util', 'core', 'realEngine', 'neuralEngine', 'session'],
  // the app's stores are reactive wrappers over the session layer
  ui: ['util', 'core', 'realEngine', 'neuralEngine', 'session'],
  cli: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'eval', 'dap', 'mcp'],
  dap: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'eval'],
  mcp: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'eval'],
  // test support: may drive any layer but the CLI, and only tests import it (no layer lists it)
  testing: ['util', 'core', 'realEngine', 'neuralEngine', 'session', 'eval', 'dap', 'mcp'],
};

/** Folders that run in one runtime, and the folders they may never import, whatever the table
 * above allows (docs/architecture.md): the real engine's browser side (the Pyodide worker, its
 * frame and client) runs where there is no Node, its Node side (engine processes, the OS sandbox,
 * the saved interpreter) where there is no DOM; the app uses only the browser side, the Node
 * faces only the Node side, and the session layer, which serves both, neither. */
const NEVER_IMPORTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['realEngine/browser/', ['realEngine/node/']],
  ['realEngine/node/', ['realEngine/browser/']],
  ['ui/', ['realEngine/node/']],
  ['session/', ['realEngine/browser/', 'realEngine/node/']],
  ['eval/', ['realEngine/browser/']],
  ['cli/', ['realEngine/browser/']],
  ['dap/', ['realEngine/browser/']],
  ['mcp/', ['realEngine/browser/']],
];

const IMPORT = /(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g;

function sources(dir: string, tests = false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path, tests);
    return /\.(ts|svelte)$/.test(name) && (tests || !/\.test\.ts$/.test(name)) ? [path] : [];
  });
}

type Files = ReadonlyArray<{ rel: string; text: string }>;

function read(tests: boolean): Files {
  const src = join(REPO_ROOT, 'src');
  return sources(src, tests).map((file) => ({ rel: relative(src, file), text: readFileSync(file, 'utf8') }));
}

/** The imports that break the table, from files given as (path under src/, text). */
function violations(files: Files): { wrong: string[]; checked: number } {
  const wrong: string[] = [];
  let checked = 0;
  for (const { rel, text } of files) {
    const layer = rel.split('/')[0]!;
    const allowed = MAY_IMPORT[layer];
    if (!allowed) continue;
    for (const m of text.matchAll(IMPORT)) {
      const target = join(rel, '..', m[1]!);
      const targetLayer = target.split('/')[0]!;
      checked++;
      const never = NEVER_IMPORTS.find(([folder]) => rel.startsWith(folder))?.[1] ?? [];
      if (never.some((folder) => target.startsWith(folder))) {
        wrong.push(`${rel} imports ${target}`);
        continue;
      }
      if (targetLayer === layer || target.startsWith('..')) continue;
      if (allowed.includes(targetLayer)) continue;
      wrong.push(`${rel} imports ${target}`);
    }
  }
  return { wrong, checked };
}

/** Files outside src/cli, tests included, that import from it. */
function cliImports(files: Files): string[] {
  const wrong: string[] = [];
  for (const { rel, text } of files) {
    // this file's own examples are text, not imports
    if (rel.startsWith('cli/') || rel === 'layers.test.ts') continue;
    for (const m of text.matchAll(IMPORT)) {
      const target = join(rel, '..', m[1]!);
      if (target.startsWith('cli/')) wrong.push(`${rel} imports ${target}`);
    }
  }
  return wrong;
}

describe('layers', () => {
  it('import only the layers below them (docs/architecture.md)', () => {
    const { wrong, checked } = violations(read(false));
    expect(checked).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  });

  it('nothing outside src/cli imports from it, tests included', () => {
    const files = read(true);
    expect(files.filter((f) => f.rel.endsWith('.test.ts')).length).toBeGreaterThan(50);
    expect(cliImports(files)).toEqual([]);
  });

  it('catches a layer that imports one above it', () => {
    expect(
      violations([
        { rel: 'core/x.ts', text: "import { a } from '../ui/status';\nimport { b } from './format';" },
        { rel: 'session/y.ts', text: "import { c } from '../cli/main';" },
        { rel: 'mcp/z.ts', text: "import { d } from '../cli/stdio';\nimport { e } from '../util/stdio';" },
        { rel: 'eval/w.ts', text: "import { f } from '../session/programSession';\nimport { g } from '../mcp/server';" },
        { rel: 'session/v.ts', text: "import type { h } from '../eval/replay';" },
        { rel: 'dap/u.ts', text: "const { i } = await import('../eval/bench');" },
      ]).wrong,
    ).toEqual(['core/x.ts imports ui/status', 'session/y.ts imports cli/main', 'mcp/z.ts imports cli/stdio', 'eval/w.ts imports mcp/server', 'session/v.ts imports eval/replay']);
  });

  it("catches one runtime's side of the real engine importing the other's", () => {
    expect(
      violations([
        { rel: 'realEngine/browser/a.ts', text: "import { b } from '../node/processHost';\nimport { c } from '../engineProtocol';" },
        { rel: 'realEngine/node/d.ts', text: "import type { E } from '../browser/workerProtocol';\nimport { f } from './engineChild';" },
        { rel: 'ui/g.ts', text: "import { h } from '../realEngine/node/nodeHosts';\nimport { i } from '../realEngine/browser/client';" },
        { rel: 'session/j.ts', text: "import type { K } from '../realEngine/browser/client';\nimport type { L } from '../realEngine/engineProtocol';" },
        { rel: 'mcp/m.ts', text: "import { n } from '../realEngine/browser/client';\nimport { o } from '../realEngine/node/engineWait';" },
        { rel: 'realEngine/p.ts', text: "import { q } from './browser/client';" },
      ]).wrong,
    ).toEqual([
      'realEngine/browser/a.ts imports realEngine/node/processHost',
      'realEngine/node/d.ts imports realEngine/browser/workerProtocol',
      'ui/g.ts imports realEngine/node/nodeHosts',
      'session/j.ts imports realEngine/browser/client',
      'mcp/m.ts imports realEngine/browser/client',
    ]);
  });

  it('the app builds no guessed call and checks none on its own: the session layer does', () => {
    const own = read(false).filter(({ rel, text }) => rel.startsWith('ui/') && /core\/callBuilder|guessedCallMaker|buildCall\(/.test(text));
    expect(own.map((f) => f.rel)).toEqual([]);
  });

  it('catches a test outside src/cli that imports from it', () => {
    expect(
      cliImports([
        { rel: 'dap/a.test.ts', text: "import { main } from '../cli/main';" },
        { rel: 'cli/b.test.ts', text: "import { main } from './main';" },
        { rel: 'eval/c.ts', text: "import { d } from './cli/x';" },
      ]),
    ).toEqual(['dap/a.test.ts imports cli/main']);
  });
});
