// Copies the Pyodide runtime and onnxruntime-web's wasm builds from node_modules into public/pyodide/
// and public/ort/ so that the app serves them from its own origin (no CDN at run time). Run by the
// predev/prebuild npm scripts.
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function copyFolder(from, to, keep) {
  mkdirSync(to, { recursive: true });
  let copied = 0;
  for (const name of readdirSync(from)) {
    const src = join(from, name);
    if (!keep(name) || !statSync(src).isFile()) continue;
    const dst = join(to, name);
    if (existsSync(dst)) {
      const a = statSync(src);
      const b = statSync(dst);
      if (a.size === b.size && a.mtimeMs <= b.mtimeMs) continue;
    }
    copyFileSync(src, dst);
    copied++;
  }
  return copied;
}

// Pyodide: everything but the files the browser never needs.
const pyodide = copyFolder(
  join(root, 'node_modules', 'pyodide'),
  join(root, 'public', 'pyodide'),
  (name) => !(name.endsWith('.d.ts') || name.endsWith('.html') || name === 'README.md' || name === 'package.json'),
);
console.log(`copy-assets: public/pyodide is up to date (${pyodide} file(s) copied)`);

// onnxruntime-web (the copy transformers.js uses, hoisted): the model worker imports the ES module
// of a build at run time and points env.wasm.wasmPaths here, so that the JS glue and the wasm match.
// WASM backend: ort.wasm.min.mjs + ort-wasm-simd-threaded.{mjs,wasm};
// WebGPU backend: ort.webgpu.min.mjs + ort-wasm-simd-threaded.asyncify.{mjs,wasm}.
const ORT_FILES = new Set([
  'ort.wasm.min.mjs',
  'ort.webgpu.min.mjs',
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
  'ort-wasm-simd-threaded.asyncify.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
]);
const ort = copyFolder(join(root, 'node_modules', 'onnxruntime-web', 'dist'), join(root, 'public', 'ort'), (name) => ORT_FILES.has(name));
console.log(`copy-assets: public/ort is up to date (${ort} file(s) copied)`);
