// npm run screenshots (a build, then this): refreshes the README's images, on purpose. The e2e
// tests take them on every run into e2e/screenshots/ (ignored by git); this runs the tests that
// take them and copies the images into docs/, where the README links them.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const shots = join(root, 'e2e', 'screenshots');

/** Image in e2e/screenshots/ → its place in docs/, and the e2e file that takes it. */
const IMAGES = [
  { name: 'screenshot.png', docs: 'docs/screenshot.png', test: 'layout.test' },
  { name: 'screenshot-phone.png', docs: 'docs/screenshot-phone.png', test: 'layout.test' },
  { name: 'screenshot-lesson.png', docs: 'docs/screenshot-lesson.png', test: 'classroom.test' },
  { name: 'screenshot-lesson-phone.png', docs: 'docs/screenshot-lesson-phone.png', test: 'classroom.test' },
  { name: 'screenshot-heap.png', docs: 'docs/screenshot-heap.png', test: 'heap.test' },
  { name: 'screenshot-heap-phone.png', docs: 'docs/screenshot-heap-phone.png', test: 'heap.test' },
  { name: 'screenshot-projector.png', docs: 'docs/screenshot-projector.png', test: 'projector.test' },
];

function run(args) {
  const res = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

for (const img of IMAGES) rmSync(join(shots, img.name), { force: true });
run([join(root, 'e2e', 'run.mjs'), ...new Set(IMAGES.map((i) => i.test))]);
for (const img of IMAGES) {
  const from = join(shots, img.name);
  if (!existsSync(from)) {
    console.error(`screenshots: ${img.test} did not write ${from}`);
    process.exit(1);
  }
  copyFileSync(from, join(root, img.docs));
  console.log(`screenshots: ${img.docs} updated`);
}
