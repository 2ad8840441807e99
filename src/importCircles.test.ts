// No two source files import each other in a circle, type-only imports included: each file can
// then be read, tested and moved with only what lies below it (docs/architecture.md).

import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { circles, codeOf, importGraph, importSpecifiers, readSources, resolveSpecifier } from './testing/importGraph';

/** The folders held free of circles (those that do not exist yet are skipped); 'src' would hold
 * every file. */
const CHECKED = ['src'];
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('import circles', () => {
  it(`none in ${CHECKED.join(', ')}`, () => {
    const graph = importGraph(readSources(CHECKED.map((f) => join(REPO_ROOT, f))));
    // a reader that saw no imports would find no circle either
    const edges = [...graph.values()].reduce((n, targets) => n + targets.size, 0);
    expect(edges).toBeGreaterThan(100);
    expect(circles(graph).map((c) => c.map((p) => relative(REPO_ROOT, p)))).toEqual([]);
  });
});

describe('the import reader', () => {
  it('reads every form of import and re-export', () => {
    const code = [
      "import a from './a';",
      "import type { B } from './b.ts';",
      "import { type C, d } from\n  './c';",
      "import * as e from './e';",
      "import './f.css';",
      "export * from './g';",
      "export * as h from './h';",
      "export { i, j as k } from './i';",
      "export type { L } from './l';",
      "const m = await import('./m');",
      'type N = typeof import("./n");',
      'const o = import(`./o`);',
      "import p, { q } from './p';",
    ].join('\n');
    expect(importSpecifiers(code)).toEqual(['./a', './b.ts', './c', './e', './f.css', './g', './h', './i', './l', './m', './n', './o', './p']);
  });

  it('skips what only looks like an import: strings, templates, comments, regular expressions, exports of its own', () => {
    const code = [
      "// import a from './a';",
      "/* export * from './b'; */",
      'const s = "import c from \'./c\'";',
      "const t = `export { d } from './d'`;",
      "const u = `${x}import('./e')`;",
      "const r = /from\\s*['\"]\\.\\/f['\"]/g;",
      'const q = a / b; const w = "/"; // \'./g\'',
      "export const from = 1; export { from };",
      "export type H = { from: './h' };",
      "export function i() { return import.meta.url; }",
      "const j = dynamic.import('./j');",
      'const k = import(`./${name}`);',
    ].join('\n');
    expect(importSpecifiers(code)).toEqual([]);
  });

  it("reads a .svelte file's script blocks only", () => {
    const svelte = [
      '<script module lang="ts">',
      "  export { a } from './a';",
      '</script>',
      '<script lang="ts">',
      "  import B from './B.svelte';",
      '</script>',
      "<p>import c from './c'</p>",
    ].join('\n');
    expect(importSpecifiers(codeOf('/x/App.svelte', svelte))).toEqual(['./a', './B.svelte']);
    expect(codeOf('/x/a.ts', "import './c';")).toBe("import './c';");
  });

  it('resolves paths with and without extensions', () => {
    const files = new Set(['/s/core/a.ts', '/s/ui/B.svelte', '/s/ui/store.svelte.ts', '/s/util/index.ts']);
    expect(resolveSpecifier('/s/core/x.ts', './a', files)).toBe('/s/core/a.ts');
    expect(resolveSpecifier('/s/core/x.ts', './a.ts', files)).toBe('/s/core/a.ts');
    expect(resolveSpecifier('/s/core/x.ts', './a.js', files)).toBe('/s/core/a.ts');
    expect(resolveSpecifier('/s/core/x.ts', '../ui/B.svelte', files)).toBe('/s/ui/B.svelte');
    expect(resolveSpecifier('/s/ui/x.ts', './store.svelte', files)).toBe('/s/ui/store.svelte.ts');
    expect(resolveSpecifier('/s/core/x.ts', '../util', files)).toBe('/s/util/index.ts');
    expect(resolveSpecifier('/s/core/x.ts', 'vitest', files)).toBeNull();
    expect(resolveSpecifier('/s/core/x.ts', './missing', files)).toBeNull();
  });

  it('finds a circle however it is tied, and only circles', () => {
    const s = (name: string) => join('/s', name);
    const files = new Map([
      // a type-only circle of three
      [s('a.ts'), "import type { B } from './b';"],
      [s('b.ts'), "export * from './c';"],
      [s('c.ts'), "const a = () => import('./a.ts');"],
      // a circle through a component's script
      [s('View.svelte'), "<script lang=\"ts\">import { d } from './d';</script>"],
      [s('d.ts'), "export type { V } from './View.svelte';"],
      // a file that imports itself (a recursive component): recursion, not a circle of files
      [s('e.ts'), "export { e } from './e';"],
      // a chain that closes no circle
      [s('f.ts'), "import { a } from './a'; import './d';"],
    ]);
    expect(circles(importGraph(files))).toEqual([[s('a.ts'), s('b.ts'), s('c.ts')], [s('View.svelte'), s('d.ts')]].map((c) => c.sort()));
  });
});
