// npm run bench:web [-- --runs N]: the first visit (cold: a fresh browser profile) beside a second
// visit (warm: the same profile, the service worker's caches and the model's cache filled), in
// Debian's Chromium against `vite preview` on dist/ (run `npm run build` first).
//
// For each visit, milliseconds from navigation start to: the first paint (the static skeleton), the
// real engine ready (Pyodide loaded, the app usable), the model ready, and the first prediction
// (the user presses Step into as soon as the engine is ready, then Step over once the model is
// ready). The app sets these as performance marks (ndb:engine-ready, ndb:model-ready,
// ndb:first-prediction). Prints one JSON line: medians per visit and the warm/cold ratios.
import { launchBrowser, startPreview } from '../e2e/helpers.mjs';

const i = process.argv.indexOf('--runs');
const RUNS = i >= 0 ? Math.max(1, Number(process.argv[i + 1]) || 1) : 2;
const TIMEOUT = 120_000;
const KEYS = ['first_paint_ms', 'engine_ready_ms', 'model_ready_ms', 'first_prediction_ms'];

async function visit(context, url) {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator('main[data-engine="ready"]').waitFor({ timeout: TIMEOUT });
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Step into', exact: true }).click();
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: TIMEOUT });
  await page.locator('main[data-model="ready"]').waitFor({ timeout: TIMEOUT });
  await page.getByRole('button', { name: 'Step over', exact: true }).click();
  await page.waitForFunction(() => performance.getEntriesByName('ndb:first-prediction').length > 0, null, { timeout: TIMEOUT });
  const t = await page.evaluate(() => {
    const at = (name) => Math.round(performance.getEntriesByName(name)[0]?.startTime ?? NaN);
    return {
      first_paint_ms: at('first-contentful-paint'),
      engine_ready_ms: at('ndb:engine-ready'),
      model_ready_ms: at('ndb:model-ready'),
      first_prediction_ms: at('ndb:first-prediction'),
    };
  });
  return { page, t };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : Math.round((s[m - 1] + s[m]) / 2);
};

const server = await startPreview();
const cold = [];
const warm = [];
try {
  for (let r = 0; r < RUNS; r++) {
    const browser = await launchBrowser(server.url);
    try {
      const url = `${server.url}?backend=wasm`;
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
  }
} finally {
  await server.stop();
}

const summary = (xs) => Object.fromEntries(KEYS.map((k) => [k, median(xs.map((x) => x[k]))]));
const c = summary(cold);
const w = summary(warm);
const ratio = Object.fromEntries(KEYS.map((k) => [k.replace(/_ms$/, ''), Number((w[k] / c[k]).toFixed(3))]));
// The engine never waits for the model (e2e/offline.test.mjs holds the model back to check it);
// which one is ready first depends on the network and the cores.
console.log(JSON.stringify({ bench: 'web', runs: RUNS, backend: 'wasm', cold: c, warm: w, warm_over_cold: ratio }));
