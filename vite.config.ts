import { existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, type Plugin } from 'vite';

// Cross-origin isolation: SharedArrayBuffer (Pyodide's interrupt buffer) needs both headers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const base = process.env.BASE ?? '/';

/** A missing file under /models/ is a 404, not the SPA's index.html (which a model loader would
 * take for a corrupt file; DESIGN §5). `root` is the folder served: public/ (dev) or dist/. */
function missingModelsAre404(): Plugin {
  const prefix = `${base}models/`;
  const middleware = (root: () => string) => (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0]!);
    if (!path.startsWith(prefix)) return next();
    const file = normalize(join(root(), 'models', path.slice(prefix.length)));
    if (file.startsWith(join(root(), 'models')) && existsSync(file) && statSync(file).isFile()) return next();
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain');
    for (const [k, v] of Object.entries(isolation)) res.setHeader(k, v);
    res.end(`not found: ${path}\n`);
  };
  let publicDir = 'public';
  let outDir = 'dist';
  return {
    name: 'ndb-missing-models-404',
    configResolved(config) {
      publicDir = config.publicDir;
      outDir = join(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(middleware(() => publicDir));
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(() => outDir));
    },
  };
}

/** In the model worker, transformers.js (used for its tokenizer only) gets a stub for ORT. */
function ortStubForTransformers(): Plugin {
  const stub = fileURLToPath(new URL('./src/model/browserOrtStub.ts', import.meta.url));
  return {
    name: 'ndb-ort-stub-for-transformers',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id.startsWith('onnxruntime-web') && importer?.includes('@huggingface/transformers')) return stub;
      return null;
    },
  };
}

export default defineConfig({
  base,
  plugins: [svelte(), missingModelsAre404()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es', plugins: () => [ortStubForTransformers()] },
  optimizeDeps: { exclude: ['pyodide'] },
  build: {
    target: 'es2022',
    // Monaco alone is a few MB; that is expected.
    chunkSizeWarningLimit: 4096,
  },
});
