// The Content-Security-Policy of the Python worker's script, sent by the servers (vite.config.ts)
// and added by the service worker (sw.ts, for hosts that cannot send headers): the second lock
// beside the closed realm (workerLockdown.ts). No eval or Function(text) (Pyodide needs neither),
// scripts and connections of the app's own origin only (Pyodide's files), WebAssembly allowed,
// nothing else.

export const PYTHON_WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

/** Whether a path is the Python worker's script: `src/realEngine/pyodide.worker.ts` in the dev
 * server, `assets/pyodide.worker-HASH.js` once built. */
export function isPythonWorkerScript(pathname: string): boolean {
  return /\/pyodide\.worker(?:-[\w-]+)?\.(?:js|ts)$/.test(pathname);
}
