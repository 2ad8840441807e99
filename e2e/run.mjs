// Runs the e2e tests (one file at a time: each starts a preview server and a browser).
// Needs `npm run build` first.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(join(root, 'dist', 'index.html'))) {
  console.error('e2e: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const files = readdirSync(join(root, 'e2e'))
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => process.argv.length <= 2 || process.argv.slice(2).some((a) => f.includes(a)))
  .sort()
  .map((f) => join('e2e', f));
const started = Date.now();
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { cwd: root, stdio: 'inherit' });
console.log(`e2e: ${files.length} file(s) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.status ?? 1);
