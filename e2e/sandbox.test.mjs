// Debugged code stays inside Python in the browser: a program (empty Call, run at once) that tries
// to open a cache or an IndexedDB database of the app's origin, or to send a request, through
// Python's doors to JavaScript or past them, leaves the origin as it was and sends nothing; the
// Python worker's realm holds none of those APIs; ordinary programs run as before.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, button, idle, setCode, status } from './helpers.mjs';
import { useApp } from './setup.mjs';

const MARK = 'ndb-sandbox-probe';

/** Gets past Python's own layer as an expert could (sandbox.py says why it is not the boundary). */
const PAST_PYTHON = [
  'import sys',
  'g = sys.gettrace().__func__.__globals__',
  'guard = g["ndb_sandbox"]._guard',
  'guard.depth = 0',
  'sys.modules.update(guard.hidden)',
  'sys.meta_path.remove(g["ndb_sandbox"]._HiddenFinder)',
  'import js, pyodide_js',
  '',
].join('\n');

const PROGRAMS = {
  'js-caches': `import js\njs.caches.open("${MARK}")\n`,
  'js-fetch': `import js\njs.fetch("/${MARK}/fetch")\n`,
  'run-js': `from pyodide.code import run_js\nrun_js("caches.open('${MARK}'); indexedDB.open('${MARK}'); fetch('/${MARK}/run-js')")\n`,
  pyfetch: `from pyodide.http import open_url\nopen_url("/${MARK}/open-url")\n`,
  'past-python-eval': `${PAST_PYTHON}pyodide_js.runPython.constructor("caches.open('${MARK}'); indexedDB.open('${MARK}'); fetch('/${MARK}/eval')")()\n`,
  'past-python-js': `${PAST_PYTHON}js.caches.open("${MARK}")\n`,
  'past-python-load': `${PAST_PYTHON}pyodide_js.loadPackage("/${MARK}/package.whl")\n`,
};

let page;
let errors;
const requests = [];

async function runModule(code) {
  await setCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await button(page, 'Restart').click();
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: LOAD_TIMEOUT });
  await idle(page);
}

async function origin() {
  return page.evaluate(async () => ({
    caches: (await caches.keys()).sort(),
    databases: (await indexedDB.databases()).map((d) => d.name).sort(),
  }));
}

describe('the sandbox in the browser', () => {
  const app = useApp({ open: '' });
  before(() => {
    ({ page, errors } = app);
    app.browser.context.on('request', (r) => requests.push(r.url()));
  });

  it("closes the Python worker's realm: no storage, network or other realm", async () => {
    const worker = page.workers().find((w) => w.url().includes('pyodide.worker'));
    assert.ok(worker, 'the Python worker runs');
    const open = await worker.evaluate(() =>
      ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'caches', 'indexedDB', 'Worker', 'SharedWorker', 'BroadcastChannel', 'importScripts', 'postMessage', 'FontFace'].filter((n) => n in self),
    );
    assert.deepEqual(open, []);
    assert.deepEqual(await worker.evaluate(() => ['storage', 'locks', 'serviceWorker'].filter((n) => n in navigator)), []);
  });

  it('leaves the origin untouched and sends nothing, whatever the program tries', async () => {
    const before = await origin();
    for (const [name, code] of Object.entries(PROGRAMS)) {
      await runModule(code);
      const shown = await status(page).textContent();
      assert.doesNotMatch(shown, /^Program finished/, `${name}: ${shown}`);
    }
    await runModule(`import js\nprint("${MARK}")\n`);
    assert.match(await status(page).textContent(), /sandbox/);
    // Anything the programs set going would have happened by now.
    await page.waitForTimeout(1000);
    assert.deepEqual(await origin(), before);
    assert.deepEqual(requests.filter((u) => u.includes(MARK)), []);
  });

  it('runs ordinary programs as before', async () => {
    await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
    await idle(page);
    assert.match(await status(page).textContent(), /^call of total \(line 1\)/);
    await runModule('import json, re, collections\nc = collections.Counter(re.findall("[a-z]", "abca"))\ns = json.dumps(c)\n');
    await button(page, 'Continue').click();
    await idle(page);
    assert.match(await status(page).textContent(), /^Program finished/);
    assert.deepEqual(errors, []);
  });
});
