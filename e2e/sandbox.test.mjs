// Debugged code stays inside Python in the browser: a program (empty Call, run at once) that tries
// to open a cache or an IndexedDB database of the app's origin, or to send a request, through
// Python's doors to JavaScript or past them, leaves the origin as it was and sends nothing; the
// Python worker's realm holds none of those APIs; ordinary programs run as before.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { join } from 'node:path';
import { LOAD_TIMEOUT, ROOT, button, idle, output, pasteCode, startStatic, status } from './helpers.mjs';
import { useApp } from './setup.mjs';

const MARK = 'ndb-sandbox-probe';

/** Leaves patched print and json.dumps behind in the interpreter it ran in. */
const POISONING_PROGRAM = [
  'import json, builtins',
  '_dumps = json.dumps',
  'def dumps(obj, *args, **kwargs):',
  '    if isinstance(obj, dict) and "stdout" in obj:',
  '        obj["stdout"] = "FORGED"',
  '    return _dumps(obj, *args, **kwargs)',
  'json.dumps = dumps',
  'builtins.print = lambda *a, **k: None',
  '',
].join('\n');

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

/** Past Python's layer, then the worker's global object through a
 * timer's `this` (after the run: a timer cannot fire during it): keeps in `sys` what of the closed
 * APIs is still there and which ways to make code from a string still work; run again (the same
 * program, so the same interpreter), it prints what it kept. */
const REALM_PROBE = [
  PAST_PYTHON,
  'from pyodide.ffi import create_proxy',
  'NAMES = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "caches", "indexedDB", "Worker", "SharedWorker", "BroadcastChannel", "importScripts", "postMessage", "FontFace"]',
  'def probe(this):',
  '    makers = {"eval": lambda: this.eval("1"), "Function": lambda: this.Function("return 1"), "constructor": lambda: pyodide_js.runPython.constructor("return 1"), "setTimeout": lambda: this.setTimeout("1")}',
  '    works = []',
  '    for name, make in makers.items():',
  '        try:',
  '            make()',
  '            works.append(name)',
  '        except Exception:',
  '            pass',
  '    sys.ndb_probe = f"open: {[n for n in NAMES if getattr(this, n, None) is not None]}\\ncode from strings: {works}"',
  'if hasattr(sys, "ndb_probe"):',
  '    print(sys.ndb_probe)',
  'else:',
  '    pyodide_js._api.scheduleCallback(create_proxy(probe, capture_this=True), 0)',
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
  await pasteCode(page, code);
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

/** Runs REALM_PROBE, lets its timers fire, runs again to read what they found: nothing open. */
async function probeRealm() {
  await runModule(REALM_PROBE);
  await page.waitForTimeout(500);
  await button(page, 'Restart').click();
  await idle(page);
  await button(page, 'Continue').click();
  await idle(page);
  assert.equal(await output(page), 'open: []\ncode from strings: []\n');
}

describe('the sandbox in the browser', () => {
  const app = useApp({ open: '' });
  before(() => {
    ({ page, errors } = app);
    app.browser.context.on('request', (r) => requests.push(r.url()));
  });

  it("closes the Python worker's realm: no storage, network, other realm or code from strings", async () => {
    // Seen from inside, as a program past Python's layer sees it (Playwright's own evaluate in the
    // worker needs eval, which the worker no longer has): the timer's `this` is the worker's global.
    await probeRealm();
  });

  it('runs the next program in a fresh interpreter: what one leaves behind does not reach it', async () => {
    // patches print and json.dumps (which the tracer uses after the program), then a second
    // program prints: it must show its own output, recorded honestly
    await runModule(POISONING_PROGRAM);
    await runModule('print("mine")\n');
    await button(page, 'Continue').click();
    await idle(page);
    assert.match(await status(page).textContent(), /^Program finished/);
    assert.equal(await output(page), 'mine\n');
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

describe('the sandbox on a host that sends no headers, with no service worker', () => {
  // No Content-Security-Policy for the worker's script (a first visit to a static host, or a
  // browser that refuses service workers): the worker's own lockdown is all there is.
  const app = useApp({ open: '', start: () => startStatic(join(ROOT, 'dist'), '/'), options: { serviceWorkers: 'block' } });
  before(() => {
    ({ page, errors } = app);
  });

  it('still leaves no storage, network or way to make code from a string', async () => {
    await probeRealm();
  });
});
