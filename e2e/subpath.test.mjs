// The site built for a sub-path (`BASE=/ndb/`, into dist-ndb/, served from a copy) on a static host
// without COOP/COEP headers, as on GitHub Pages: the service worker adds the headers (one reload),
// Pyodide, ORT and the model load from /ndb/; a new deploy is offered with "Reload" and replaces the
// old caches; with service workers blocked the app still works, without isolation, and says so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, ROOT, launchBrowser, openApp, press, status, startStatic, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const OUT = join(ROOT, 'dist-ndb');
const SITE = join(ROOT, 'e2e', '.tmp', 'site-ndb');
const PREDICT_TIMEOUT = 60_000;
const CACHE_TIMEOUT = 120_000;

/** Builds dist-ndb/ unless it is newer than dist/ (the main build), and copies it to SITE. */
function buildSubpath() {
  const fresh = existsSync(join(OUT, 'index.html')) && statSync(join(OUT, 'index.html')).mtimeMs >= statSync(join(ROOT, 'dist', 'index.html')).mtimeMs;
  if (!fresh) {
    const res = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', OUT, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: ROOT,
      env: { ...process.env, BASE: '/ndb/' },
      encoding: 'utf8',
    });
    if (res.status !== 0) throw new Error(`BASE=/ndb/ vite build failed:\n${res.stdout}\n${res.stderr}`);
  }
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  cpSync(OUT, SITE, { recursive: true });
}

async function cacheNames(page) {
  return page.evaluate(() => caches.keys());
}

let server;
let browser;
let page;
let errors;

describe('a sub-path deploy on a host without COOP/COEP headers', () => {
  const app = useApp({
    start: () => {
      buildSubpath();
      return startStatic(SITE, '/ndb/');
    },
  });
  before(async () => {
    ({ server, browser } = app);
    page = await browser.context.newPage();
    errors = watchErrors(page);
  });
  after(() => rmSync(SITE, { recursive: true, force: true }));

  it('is cross-origin isolated by the service worker and debugs with both engines under /ndb/', async () => {
    const res = await fetch(server.url);
    assert.equal(res.headers.get('cross-origin-embedder-policy'), null);
    await page.goto(`${server.url}?backend=wasm`);
    // The first load is not isolated; the worker takes control and the page reloads once.
    const deadline = Date.now() + LOAD_TIMEOUT;
    for (;;) {
      const isolated = await page.evaluate(() => globalThis.crossOriginIsolated === true).catch(() => false); // mid-reload
      if (isolated) break;
      assert.ok(Date.now() < deadline, 'the page did not become cross-origin isolated');
      await new Promise((r) => setTimeout(r, 250));
    }
    await openApp(page, page.url());
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL), `${server.url}sw.js`);
    assert.equal(await page.locator('link[rel="manifest"]').getAttribute('href'), '/ndb/manifest.webmanifest');
    await press(page, 'Step into');
    const text = (await status(page).textContent()) ?? '';
    assert.match(text, /^line 2 in total/);
    assert.doesNotMatch(text, /not cross-origin isolated/);
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    const backend = await page.getByRole('region', { name: 'Model', exact: true }).locator('dd[data-key="backend"]').textContent();
    assert.match(backend ?? '', /^your CPU \(WebAssembly\), \d+ threads?/);
    await press(page, 'Step over');
    const panel = page.getByRole('region', { name: 'Prediction', exact: true });
    await panel.locator('table.fields').waitFor({ timeout: PREDICT_TIMEOUT });
    await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
    assert.equal(await panel.locator('tr[data-field="line"] td.real').textContent(), '3');
    // "Install app" appears when the browser offers installation (Chromium does, for this page: the
    // manifest and the service worker make it installable); the click prompts (a stand-in prompt
    // here, since a headless browser cannot show the real one).
    await page.getByRole('button', { name: 'Install app' }).waitFor({ timeout: 10_000 });
    await page.evaluate(() => {
      const ev = new Event('beforeinstallprompt', { cancelable: true });
      Object.assign(ev, { prompt: async () => undefined, userChoice: Promise.resolve({ outcome: 'accepted' }) });
      window.dispatchEvent(ev);
    });
    await page.getByRole('button', { name: 'Install app' }).click();
    await page.getByRole('button', { name: 'Install app' }).waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  it('offers a new deploy with "Reload", then serves it and deletes the old caches', async () => {
    await page.locator('main[data-offline="ready"]').waitFor({ timeout: CACHE_TIMEOUT });
    const old = (await cacheNames(page)).filter((n) => n.startsWith('ndb-app-'));
    assert.equal(old.length, 1);
    // A new deploy: index.html changed, and with it the service worker's list of files.
    const index = join(SITE, 'index.html');
    writeFileSync(index, readFileSync(index, 'utf8').replace('</head>', '<meta name="ndb-deploy" content="2" /></head>'));
    const swFile = join(SITE, 'sw.js');
    const sw = readFileSync(swFile, 'utf8');
    const entry = /"revision":"[0-9a-f]+","url":"index.html"/.exec(sw);
    assert.ok(entry, 'index.html is not in the service worker\'s list');
    writeFileSync(swFile, sw.replace(entry[0], '"revision":"deploy2","url":"index.html"'));
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
    const notice = page.getByRole('region', { name: 'New version' });
    await notice.waitFor({ timeout: CACHE_TIMEOUT });
    await Promise.all([page.waitForEvent('load', { timeout: LOAD_TIMEOUT }), notice.getByRole('button', { name: 'Reload' }).click()]);
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    assert.equal(await page.locator('meta[name="ndb-deploy"]').count(), 1);
    // The new worker deletes the old caches when it activates, which may finish after the load.
    let now = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await page.waitForTimeout(250)) {
      now = (await cacheNames(page)).filter((n) => n.startsWith('ndb-app-'));
      if (now.length === 1 && now[0] !== old[0]) break;
    }
    assert.equal(now.length, 1);
    assert.notEqual(now[0], old[0]);
    await press(page, 'Step into');
    assert.match((await status(page).textContent()) ?? '', /^line \d+ in total/);
    assert.deepEqual(errors, []);
  });

  it('works without isolation when no service worker can run, and says so', async () => {
    const blocked = await launchBrowser(server.url, [], { serviceWorkers: 'block' });
    try {
      const p = await blocked.context.newPage();
      const errs = watchErrors(p);
      await openApp(p, `${server.url}?model=none`);
      assert.equal(await p.evaluate(() => crossOriginIsolated), false);
      await press(p, 'Step into');
      const text = (await status(p).textContent()) ?? '';
      assert.match(text, /^line 2 in total/);
      assert.match(text, /not cross-origin isolated/);
      assert.deepEqual(errs, []);
    } finally {
      await blocked.close();
    }
  });
});
