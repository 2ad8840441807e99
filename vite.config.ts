import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { build, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { onnxFileName, type ModelDtype } from './src/neuralEngine/modelConfig';

// Cross-origin isolation: SharedArrayBuffer (Pyodide's interrupt buffer) needs both headers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const base = process.env.BASE ?? '/';

/** The default model, read at build time from public/models/index.json (its folder name is never
 * written into the code): the versioned name of the Cache API cache that holds it, and the files
 * that make it work offline on the WASM backend. The cache name changes whenever the default
 * model or any of its files changes, so a retrained model is never served from an old cache. */
function defaultModel(): { cache: string; files: string[]; name: string | null } {
  const models = fileURLToPath(new URL('./public/models/', import.meta.url));
  const indexFile = join(models, 'index.json');
  if (!existsSync(indexFile)) return { cache: 'ndb-models-none', files: [], name: null };
  const index = JSON.parse(readFileSync(indexFile, 'utf8')) as { default?: string; dtypes?: { wasm?: ModelDtype } };
  const name = index.default;
  if (!name || !existsSync(join(models, name))) return { cache: 'ndb-models-none', files: ['models/index.json'], name: null };
  const hash = createHash('sha256').update(readFileSync(indexFile));
  const all: string[] = [];
  const walk = (dir: string, rel: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}${entry.name}/`);
      else if (entry.isFile()) {
        all.push(`${rel}${entry.name}`);
        hash.update(`${rel}${entry.name}\0`).update(readFileSync(join(dir, entry.name)));
      }
    }
  };
  walk(join(models, name), '');
  // What the app fetches for the WASM backend (browserModel.ts): config, tokenizer, one ONNX file.
  const wanted = ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileName(index.dtypes?.wasm ?? 'int8')];
  const files = ['models/index.json', ...wanted.filter((f) => all.includes(f)).map((f) => `models/${encodeURIComponent(name)}/${f}`)];
  return { cache: `ndb-models-${name}-${hash.digest('hex').slice(0, 12)}`, files, name };
}

const model = defaultModel();

/** A missing file under /models/ is a 404, not the SPA's index.html (which a model loader would
 * take for a corrupt file: docs/architecture.md#toolchain-facts). `root` is the folder served:
 * public/ (dev) or dist/. */
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

/** The dev server's copy of the Python engine's code as one script (src/realEngine/browser/engineFrame.ts):
 * the engine runs in a worker made from a blob: URL in an opaque-origin frame, which cannot import
 * the dev server's modules one by one, so it gets them bundled, as `vite build` bundles them. */
function pythonEngineForDev(): Plugin {
  const path = `${base}@ndb/python-engine.js`;
  const entry = fileURLToPath(new URL('./src/realEngine/browser/pyodide.worker.ts', import.meta.url));
  const bundle = async (): Promise<string> => {
    const out = await build({
      configFile: false,
      base,
      logLevel: 'warn',
      publicDir: false,
      build: { write: false, target: 'es2022', minify: false, sourcemap: 'inline', rolldownOptions: { input: entry } },
    });
    const chunk = (Array.isArray(out) ? out : [out]).flatMap((o) => ('output' in o ? o.output : [])).find((c) => c.type === 'chunk' && c.isEntry);
    if (!chunk || chunk.type !== 'chunk') throw new Error('the Python engine did not bundle');
    return chunk.code;
  };
  return {
    name: 'ndb-python-engine-for-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if ((req.url ?? '').split('?')[0] !== path) return next();
        bundle().then(
          (code) => {
            res.setHeader('Content-Type', 'text/javascript');
            res.setHeader('Cache-Control', 'no-store');
            for (const [k, v] of Object.entries(isolation)) res.setHeader(k, v);
            res.end(code);
          },
          (err: unknown) => next(err),
        );
      });
    },
  };
}

/** In the model worker, transformers.js (used for its tokenizer only) gets a stub for ORT. */
function ortStubForTransformers(): Plugin {
  const stub = fileURLToPath(new URL('./src/neuralEngine/browserOrtStub.ts', import.meta.url));
  return {
    name: 'ndb-ort-stub-for-transformers',
    enforce: 'pre',
    resolveId(id, importer) {
      if (id.startsWith('onnxruntime-web') && importer?.includes('@huggingface/transformers')) return stub;
      return null;
    },
  };
}

// Offline use and cross-origin isolation (src/sw.ts): a hand-written service worker into which
// vite-plugin-pwa injects the precache list (app shell, Monaco, Pyodide, ORT) and beside which it
// writes the web app manifest. The model is not in the list: it lives in its own versioned cache.
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'src',
  filename: 'sw.ts',
  injectRegister: false,
  registerType: 'prompt',
  manifest: {
    name: 'ndb — a neural debugger for Python',
    short_name: 'ndb',
    description: 'Step through Python programs in your browser, forwards and backwards, beside a model that predicts each state.',
    theme_color: '#0b61c4',
    background_color: '#f6f8fa',
    display: 'standalone',
    icons: [
      { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    rollupFormat: 'iife',
    globPatterns: ['**/*.{html,js,mjs,css,wasm,zip,json,png,svg,ico,ttf,woff,woff2,webmanifest}'],
    // The model has its own cache; source maps and the classic-script Pyodide loader are never fetched.
    globIgnores: ['models/**', '**/*.map', 'pyodide/pyodide.js', 'sw.js'],
    // ORT's WebGPU build is 27 MB and Pyodide's wasm 10 MB.
    maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
  },
});

export default defineConfig({
  base,
  define: {
    __NDB_MODEL_CACHE__: JSON.stringify(model.cache),
    __NDB_MODEL_FILES__: JSON.stringify(model.files),
  },
  plugins: [svelte(), missingModelsAre404(), pythonEngineForDev(), pwa],
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
