// A plain static file server, like GitHub Pages: no COOP/COEP headers, a 404 for a missing file.
// Usage: node e2e/staticServer.mjs DIR BASE --port N --host H   (serves DIR under BASE, e.g. /ndb/)
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const [dir, base = '/'] = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const root = resolve(dir);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.md': 'text/markdown; charset=utf-8',
};

createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  let file = null;
  if (path.startsWith(base)) {
    const rel = path.slice(base.length) || 'index.html';
    const full = normalize(join(root, rel));
    if (full.startsWith(root) && existsSync(full)) file = statSync(full).isDirectory() ? join(full, 'index.html') : full;
  }
  if (!file || !existsSync(file)) {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end(`not found: ${path}\n`);
    return;
  }
  const { size, mtime } = statSync(file);
  res.writeHead(200, {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': size,
    'Last-Modified': mtime.toUTCString(),
    'Cache-Control': 'max-age=600',
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}).listen(Number(arg('--port', '8080')), arg('--host', '127.0.0.1'), () => {
  console.log(`serving ${root} at ${base}`);
});
