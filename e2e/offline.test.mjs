// Offline after one visit (src/sw.ts): the real engine is usable before the model has loaded; the
// service worker takes control and stores the app, Pyodide, ORT and the default model; then, with
// the network cut (and the server stopped), a reload still debugs with both engines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, ROOT, holdModelDownload, idle, openApp, press, status, variables, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const MODEL = JSON.parse(readFileSync(join(ROOT, 'public/models/index.json'), 'utf8')).default;
const CACHE_TIMEOUT = 120_000;
const PREDICT_TIMEOUT = 60_000;

let server;
let browser;

/** Waits for a prediction of the last action; returns its rows {field: [model, real, match]}. */
async function prediction(page) {
  const panel = page.getByRole('region', { name: 'Prediction', exact: true });
  await panel.locator('table.fields').waitFor({ timeout: PREDICT_TIMEOUT });
  await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
  const rows = await panel.locator('table.fields tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-field'), tr.querySelector('td.model')?.textContent ?? '', tr.querySelector('td.real')?.textContent ?? '']),
  );
  return Object.fromEntries(rows.map(([f, m, r]) => [f, { model: m, real: r }]));
}

describe('offline after one visit', () => {
  const app = useApp();
  before(() => ({ server, browser } = app));

  it('stores everything, then debugs with both engines with the network cut', async () => {
    // First visit, with the model's download held back: the real engine does not wait for it.
    const model = await holdModelDownload(browser.context);
    const page = await browser.context.newPage();
    const errors = watchErrors(page);
    await openApp(page, `${server.url}?backend=wasm`);
    assert.equal(await page.locator('main').getAttribute('data-model'), 'loading');
    await press(page, 'Step into');
    assert.match((await status(page).textContent()) ?? '', /^line 2 in total/);
    assert.equal(await page.locator('main').getAttribute('data-model'), 'loading');
    await model.release();
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await press(page, 'Restart');
    await page.locator('main[data-offline="ready"]').waitFor({ timeout: CACHE_TIMEOUT });
    await page.getByText('Ready to work offline.').waitFor();
    const controller = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    assert.equal(controller, `${server.url}sw.js`);
    const caches = await page.evaluate(async () => {
      const out = {};
      for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
      return out;
    });
    const names = Object.keys(caches);
    // One versioned app cache and one versioned model cache named after the default model.
    assert.equal(names.filter((n) => n.startsWith('ndb-app-')).length, 1, names.join(' '));
    const modelCache = names.filter((n) => n.startsWith('ndb-models-'));
    assert.equal(modelCache.length, 1, names.join(' '));
    assert.match(modelCache[0], new RegExp(`^ndb-models-${MODEL}-[0-9a-f]{12}$`));
    const app = caches[names.find((n) => n.startsWith('ndb-app-'))];
    for (const f of ['/index.html', '/pyodide/pyodide.asm.wasm', '/pyodide/python_stdlib.zip', '/ort/ort-wasm-simd-threaded.wasm', '/manifest.webmanifest']) {
      assert.ok(app.includes(f), `${f} is not in the app cache`);
    }
    assert.ok(!app.some((f) => f.startsWith('/models/')), 'the model is stored twice');
    assert.ok(caches[modelCache[0]].includes(`/models/${MODEL}/onnx/model_int8.onnx`));

    // Cut the network: the browser's and the server itself.
    await browser.context.setOffline(true);
    await server.stop();
    try {
      await page.reload();
      await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await idle(page);
      assert.equal(await page.evaluate(() => fetch('models/no-such-file.json').then(() => 'online', () => 'offline')), 'offline');
      // The real engine works at once; the model loads from its cache.
      await press(page, 'Step into');
      assert.match((await status(page).textContent()) ?? '', /^line 2 in total/);
      await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      const facts = await page.getByRole('region', { name: 'Model', exact: true }).locator('dd[data-key="load"]').textContent();
      assert.match(facts ?? '', /\(cached\)/);
      await press(page, 'Step over');
      const rows = await prediction(page);
      assert.equal(rows.line.real, '3');
      assert.ok(rows.event, 'no predicted event'); // what the model predicts is its own affair
      const vars = await variables(page);
      assert.ok(Object.keys(vars.values).length > 0);
      assert.match((await status(page).textContent()) ?? '', /^line 3 in total/);
    } finally {
      await browser.context.setOffline(false);
    }
    // Only failed network requests (the fetch above, the model index's network-first check).
    assert.deepEqual(errors.filter((e) => !/net::ERR_|Failed to fetch|Failed to load resource/i.test(e)), []);
  });
});
