// The page treats its Python worker as hostile. A program that gets past Python's layer and runs
// JavaScript in the worker (the way in of e2e/sandbox.test.mjs) replaces the worker's JSON.parse,
// so that the recording the worker posts says every event is 2**28 calls deep (a red team froze the
// page's thread with that, and the tab's reload replayed it): the page checks the answer, says the
// run cannot be trusted, replaces the worker and stays responsive. A reload after a run that did
// not finish shows the code and runs nothing until asked; and an `?embed=1` link opened as a page
// of its own asks before it runs, as any shared link does.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, STEP_TIMEOUT, button, idle, output, pasteCode, status, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

/** Past Python's layer (e2e/sandbox.test.mjs): the guard's state, reached from the tracer's globals, undone. */
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

/** Then the worker's real global object (e2e/sandbox.test.mjs): a getter on `Object.prototype` for
 * `fetch`, which Pyodide reads as a free global, runs with `this` = that global object. */
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
  '',
].join('\n');

/** With the worker's global object, forges its own recording as the worker reads it back: every
 * event 2**28 calls deep. */
const FORGING_PROGRAM = [
  TO_GLOBAL_OBJECT,
  'parse = G.JSON.parse',
  'def forged(text, *rest):',
  '    answer = parse(text)',
  '    events = getattr(answer, "events", None)',
  '    if events is not None:',
  '        for event in events:',
  '            event.depth = 2 ** 28',
  '    return answer',
  'G.JSON.parse = create_proxy(forged)',
  'print("forged")',
  '',
].join('\n');

/** Where the page marks a run in progress (src/ui/browser.ts). */
const RUNNING = 'ndb-run-in-progress';

/** Resolves with true when the page's main thread answers within `ms`. */
async function answers(page, ms = 3_000) {
  return Promise.race([page.evaluate(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);
}

/** Waits until the status line matches `wanted`, checking all along that the page answers (a
 * frozen page answers nothing: then this fails at once, saying so). */
async function statusBecomes(page, wanted) {
  const deadline = Date.now() + LOAD_TIMEOUT;
  for (;;) {
    const shown = await Promise.race([
      page.evaluate(() => document.querySelector('[role="status"]')?.textContent ?? ''),
      new Promise((resolve) => setTimeout(() => resolve(null), 5_000)),
    ]);
    assert.notEqual(shown, null, 'the page stopped answering');
    if (wanted.test(shown)) return shown;
    assert.ok(Date.now() < deadline, `the status line never said ${wanted}: ${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

let page;
let errors;

describe('a page whose Python worker forges its answers', () => {
  const app = useApp({ open: '' });
  before(() => ({ page, errors } = app));

  it('drops a recording forged 2**28 calls deep, says the run cannot be trusted and stays responsive', async () => {
    await pasteCode(page, FORGING_PROGRAM);
    await page.getByLabel('Call', { exact: true }).fill('');
    await button(page, 'Restart').click();
    const shown = await statusBecomes(page, /cannot be trusted/);
    assert.match(shown, /^The run cannot be trusted: events\[0\]\.depth is 268435456, outside 0\.\.100000/);
    // The worker was replaced: a fresh one runs the next program, honestly.
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await pasteCode(page, 'print(6 * 7)\n');
    await button(page, 'Restart').click();
    await idle(page);
    await button(page, 'Continue').click();
    await idle(page);
    assert.match(await status(page).textContent(), /^Program finished/);
    assert.equal(await output(page), '42\n');
    assert.equal(await answers(page), true);
    assert.deepEqual(errors, []);
  });

  it('after a reload that finds a run unfinished, shows the code and runs nothing until asked', async () => {
    const before = await page.evaluate(() => location.hash);
    await pasteCode(page, 'x = 6 * 7\nprint(x)\n');
    await button(page, 'Restart').click();
    await idle(page);
    // the link holds this program (the tab's own link, which a reload would run)
    await page.waitForFunction((old) => location.hash !== old && location.hash !== '', before, { timeout: STEP_TIMEOUT });
    // The page finished its runs: the mark is gone.
    await page.waitForFunction((key) => sessionStorage.getItem(key) === null, RUNNING, { timeout: STEP_TIMEOUT });
    // As a page that froze during a run leaves it (a run marked, never drawn):
    await page.evaluate((key) => sessionStorage.setItem(key, '1'), RUNNING);
    await page.reload();
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    const again = button(page, 'Run it again');
    await again.waitFor({ timeout: STEP_TIMEOUT });
    await page.waitForFunction(() => /x\u00a0=\u00a06\u00a0\*\u00a07/.test(document.querySelector('.monaco-editor .view-lines')?.textContent ?? ''), null, { timeout: STEP_TIMEOUT });
    assert.match(await page.getByRole('region', { name: 'Unfinished run' }).textContent(), /The last run of this code did not finish/);
    // Nothing ran, and nothing will by itself.
    await page.waitForTimeout(1_500);
    assert.match(await status(page).textContent(), /^The last run of this code did not finish, so it was not run again/);
    assert.equal(await button(page, 'Step into').isDisabled(), true);
    await again.click();
    await again.waitFor({ state: 'detached' });
    await idle(page);
    await button(page, 'Continue').click();
    await idle(page);
    assert.equal(await output(page), '42\n');
    await page.waitForFunction((key) => sessionStorage.getItem(key) === null, RUNNING, { timeout: STEP_TIMEOUT });
    assert.deepEqual(errors, []);
  });

  it('asks before running an ?embed=1 link opened as a page of its own', async () => {
    await pasteCode(page, 'def f(n):\n    return n * 7\n');
    await page.getByLabel('Call', { exact: true }).fill('f(6)');
    await button(page, 'Share').click();
    await page.getByText('Link copied').waitFor();
    const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    link.searchParams.set('embed', '1');
    const other = await app.browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link.href);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    const runShared = other.getByRole('button', { name: 'Run shared code' });
    await runShared.waitFor({ timeout: STEP_TIMEOUT });
    await other.waitForTimeout(1_500);
    assert.match(await status(other).textContent(), /has not run/);
    assert.equal(await other.evaluate(() => window.top === window), true);
    await runShared.click();
    await runShared.waitFor({ state: 'detached' });
    await idle(other);
    assert.match(await status(other).textContent(), /^call of f \(line 1\)/);
    assert.deepEqual(otherErrors, []);
    await other.close();
  });
});
