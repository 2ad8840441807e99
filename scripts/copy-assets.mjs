// Copies the Pyodide runtime from node_modules into public/pyodide/ so that the app serves it from
// its own origin (no CDN at run time). Run by the predev/prebuild npm scripts.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'node_modules', 'pyodide');
const to = join(root, 'public', 'pyodide');

// Files the browser never needs.
const skip = (name) => name.endsWith('.d.ts') || name.endsWith('.html') || name === 'README.md' || name === 'package.json';

mkdirSync(to, { recursive: true });
let copied = 0;
for (const name of readdirSync(from)) {
  const src = join(from, name);
  if (skip(name) || !statSync(src).isFile()) continue;
  const dst = join(to, name);
  if (existsSync(dst)) {
    const a = statSync(src);
    const b = statSync(dst);
    if (a.size === b.size && a.mtimeMs <= b.mtimeMs) continue;
  }
  copyFileSync(src, dst);
  copied++;
}
console.log(`copy-assets: public/pyodide is up to date (${copied} file(s) copied)`);
