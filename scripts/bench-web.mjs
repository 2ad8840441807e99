// npm run bench:web [-- --runs N] [-- --model NAME]: how long the app takes to become usable, on a first visit (cold:
// a fresh browser profile) and a second one (warm: the same profile, the service worker's caches
// and the model's cache filled), in Debian's Chromium against `vite preview` on dist/ (run
// `npm run build` first).
//
// For each visit, milliseconds from navigation start to: the first paint (the static skeleton), the
// editor ready (Monaco's text on screen), Python ready (Pyodide and the tracer loaded: Step into
// works), the model ready, and the first prediction (Step into as soon as Python is ready, then
// Step over once the model is), then the model's median time per predicted state over up to 12
// more Step into (`state_ms`, the WASM backend's int8 model). The app sets performance marks
// (ndb:editor-ready, ndb:engine-ready, ndb:model-ready, ndb:first-prediction, and ndb:prediction
// for each state with the model's time); the editor is also watched from outside, so that builds
// without its marks can be measured the same way.
//
// Beside it, in the same run, a reference page that loads Pyodide alone (in a module worker, as the
// app does, from the same served files) on a fresh profile and again on the same profile (the
// browser's HTTP cache): the floor for the Python part. Prints one JSON line: medians per visit,
// the warm/cold ratios and the reference.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launchBrowser, startPreview } from '../e2e/helpers.mjs';

const i = process.argv.indexOf('--runs');
const RUNS = i >= 0 ? Math.max(1, Number(process.argv[i + 1]) || 1) : 2;
// --model NAME: a model folder of dist/models/ other than index.json's default (the app's ?model=),
// e.g. a deeper model exported there to weigh its time per state against the shipped one's.
const m = process.argv.indexOf('--model');
const MODEL = m >= 0 ? process.argv[m + 1] : null;
if (MODEL !== null && (!MODEL || !/^[\w.-]+$/.test(MODEL) || !existsSync(join(ROOT, 'dist', 'models', MODEL, 'config.json')))) {
  process.stderr.write(`bench:web: --model ${MODEL ?? ''}: no model folder dist/models/${MODEL ?? ''}/ (export one there after npm run build)\n`);
  process.exit(2);
}
const TIMEOUT = 120_000;
const KEYS = ['first_paint_ms', 'editor_ready_ms', 'engine_ready_ms', 'model_ready_ms', 'first_prediction_ms', 'state_ms'];
/** How many states are predicted after the first, for the model's time per state. */
const STATES = 12;

// The reference: Pyodide alone, loaded in a module worker from the app's own copy.
const REF_HTML = 'bench-pyodide-ref.html';
const REF_WORKER = 'bench-pyodide-ref.worker.mjs';
const refFiles = {
  [REF_HTML]: `<!doctype html><meta charset="utf-8"><title>Pyodide alone</title><script type="module">
const w = new Worker('./${REF_WORKER}', { type: 'module' });
w.onmessage = (ev) => { performance.mark('ref:python-ready'); document.title = 'ready ' + ev.data; };
</script>`,
  [REF_WORKER]: `const indexURL = new URL('./pyodide/', self.location.href).href;
const { loadPyodide } = await import(indexURL + 'pyodide.mjs');
const py = await loadPyodide({ indexURL });
self.postMessage(py.runPython('1 + 1'));
`,
};

/** Marks the moment Monaco's lines appear, from outside the app (any build). */
function watchEditor() {
  const seen = () => document.querySelector('.monaco-editor .view-lines .view-line');
  const obs = new MutationObserver(() => {
    if (!seen()) return;
    if (performance.getEntriesByName('bench:editor').length === 0) performance.mark('bench:editor');
    obs.disconnect();
  });
  obs.observe(document, { childList: true, subtree: true });
}

/** Steps on (Step into, up to STATES times, each once the model has shown the last state) and
 * returns the model's time for each state after the first (the app's `ndb:prediction` marks). */
async function stateTimes(page) {
  const into = page.getByRole('button', { name: 'Step into', exact: true });
  for (let i = 0; i < STATES && (await into.isEnabled()); i++) {
    const before = await page.evaluate(() => performance.getEntriesByName('ndb:prediction').length);
    await into.click();
    await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: TIMEOUT });
    const shown = await page
      .waitForFunction((n) => performance.getEntriesByName('ndb:prediction').length > n, before, { timeout: 20_000 })
      .then(() => true, () => false);
    if (!shown) break;
  }
  return page.evaluate(() => performance.getEntriesByName('ndb:prediction').slice(1).map((e) => e.detail.ms));
}

async function visit(context, url) {
  const page = await context.newPage();
  await page.addInitScript(watchEditor);
  await page.goto(url);
  await page.locator('main[data-engine="ready"]').waitFor({ timeout: TIMEOUT });
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Step into', exact: true }).click();
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: TIMEOUT });
  await page.locator('main[data-model="ready"]').waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Step over', exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('ndb:first-prediction').length > 0, null, { timeout: TIMEOUT });
  await page.waitForFunction(() => performance.getEntriesByName('bench:editor').length > 0, null, { timeout: TIMEOUT });
  const t = await page.evaluate(() => {
    const at = (name) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? NaN);
    const editor = at('ndb:editor-ready');
    return {
      first_paint_ms: at('first-contentful-paint'),
      editor_ready_ms: Number.isNaN(editor) ? at('bench:editor') : editor,
      engine_ready_ms: at('ndb:engine-ready'),
      model_ready_ms: at('ndb:model-ready'),
      first_prediction_ms: at('ndb:first-prediction'),
    };
  });
  const times = await stateTimes(page);
  t.state_ms = times.length ? Math.round(median(times)) : null;
  t.states = times.length;
  return { page, t };
}

async function reference(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('ref:python-ready').length > 0, null, { timeout: TIMEOUT });
  const ms = await page.evaluate(() => Math.round(performance.getEntriesByName('ref:python-ready')[0].startTime));
  await page.close();
  return ms;
}

const median = (xs) => {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
};

for (const [name, text] of Object.entries(refFiles)) writeFileSync(join(ROOT, 'dist', name), text);
const server = await startPreview();
const cold = [];
const warm = [];
const ref = { cold: [], warm: [] };
try {
  for (let r = 0; r < RUNS; r++) {
    const browser = await launchBrowser(server.url);
    try {
      const url = `${server.url}?backend=wasm${MODEL ? `&model=${encodeURIComponent(MODEL)}` : ''}`;
      const first = await visit(browser.context, url);
      cold.push(first.t);
      // The warm visit starts once the service worker has stored everything.
      await first.page.locator('main[data-offline="ready"]').waitFor({ timeout: TIMEOUT });
      await first.page.close();
      const second = await visit(browser.context, url);
      warm.push(second.t);
      await second.page.close();
      process.stderr.write(`run ${r + 1}/${RUNS}: cold ${JSON.stringify(first.t)} warm ${JSON.stringify(second.t)}\n`);
    } finally {
      await browser.close();
    }
    const refBrowser = await launchBrowser(server.url);
    try {
      const url = `${server.url}${REF_HTML}`;
      ref.cold.push(await reference(refBrowser.context, url));
      ref.warm.push(await reference(refBrowser.context, url));
      process.stderr.write(`run ${r + 1}/${RUNS}: Pyodide alone cold ${ref.cold.at(-1)} warm ${ref.warm.at(-1)}\n`);
    } finally {
      await refBrowser.close();
    }
  }
} finally {
  await server.stop();
  for (const name of Object.keys(refFiles)) rmSync(join(ROOT, 'dist', name), { force: true });
}

const summary = (xs) => Object.fromEntries(KEYS.map((k) => [k, median(xs.map((x) => x[k]))]));
const c = summary(cold);
const w = summary(warm);
const ratio = Object.fromEntries(KEYS.map((k) => [k.replace(/_ms$/, ''), c[k] && w[k] ? Number((w[k] / c[k]).toFixed(3)) : null]));
// The engine never waits for the model (e2e/offline.test.mjs holds the model back to check it);
// which one is ready first depends on the network and the cores.
console.log(
  JSON.stringify({
    bench: 'web',
    runs: RUNS,
    backend: 'wasm',
    model: MODEL ?? 'default',
    cold: c,
    warm: w,
    warm_over_cold: ratio,
    pyodide_alone: { cold_ms: median(ref.cold), warm_ms: median(ref.warm) },
  }),
);
