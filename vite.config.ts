import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// Cross-origin isolation: SharedArrayBuffer (Pyodide's interrupt buffer) needs both headers.
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  base: process.env.BASE ?? '/',
  plugins: [svelte()],
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
  optimizeDeps: { exclude: ['pyodide'] },
  build: {
    target: 'es2022',
    // Monaco alone is a few MB; that is expected.
    chunkSizeWarningLimit: 4096,
  },
});
