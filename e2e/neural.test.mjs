// The neural engine in the app, on WASM: the model loads beside Pyodide, each step shows the
// prediction marked field by field against the real state, the modes, "Predict first",
// "Guess inputs", int8 against fp32, and a missing model that leaves a working real-only app.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { ROOT, STEP_TIMEOUT, LOAD_TIMEOUT, holdModelDownload, idle, openApp, press, status, variables, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const MODEL = JSON.parse(readFileSync(join(ROOT, 'public/models/index.json'), 'utf8')).default;
const PREDICT_TIMEOUT = 60_000;

let server;
let browser;

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

async function modelReady(page) {
  await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
}

/** Waits until the Prediction region is not busy and shows a prediction for the last action. */
async function prediction(page) {
  const panel = region(page, 'Prediction');
  await panel.locator('table.fields').waitFor({ timeout: PREDICT_TIMEOUT });
  await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
  return panel.locator('table.fields tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      field: tr.getAttribute('data-field'),
      match: tr.getAttribute('data-match'),
      mark: tr.querySelector('[role="img"]')?.getAttribute('aria-label'),
      markText: tr.querySelector('[role="img"]')?.textContent,
      model: tr.querySelector('td.model')?.textContent ?? '',
      real: tr.querySelector('td.real')?.textContent ?? '',
    })),
  );
}

async function rawText(page) {
  return (await region(page, 'Prediction').locator('pre[data-raw]').textContent()) ?? '';
}

async function modelFacts(page) {
  const dds = await region(page, 'Model').locator('[data-key]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-key'), e.textContent.trim()]));
  return Object.fromEntries(dds);
}

async function newPage(query) {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await openApp(page, `${server.url}${query}`);
  return { page, errors };
}

describe('the neural engine on WASM', () => {
  let page;
  let errors;

  const app = useApp();
  before(async () => {
    ({ server, browser } = app);
    ({ page, errors } = await newPage('?backend=wasm'));
  });

  it('loads the default model with a progress bar, beside a real engine that works at once', async () => {
    // The real engine is usable before (or whether or not) the model has loaded.
    await press(page, 'Step into');
    await modelReady(page);
    const facts = await modelFacts(page);
    assert.equal(facts.name, MODEL);
    assert.match(facts.backend, /^your CPU \(WebAssembly\), \d+ threads?$/);
    assert.equal(facts.dtype, '8-bit integers (int8)');
    assert.match(facts.load, /^\d+\.\d s/);
    await press(page, 'Restart');
  });

  it('shows each step\'s prediction beside the real state, each field marked', async () => {
    await press(page, 'Step into');
    const rows = await prediction(page);
    assert.deepEqual(rows.map((r) => r.field).slice(0, 2), ['event', 'line']);
    for (const r of rows) {
      assert.equal(r.mark, r.match === 'true' ? 'match' : 'mismatch');
      assert.equal(r.markText, r.match === 'true' ? '✓' : '✗');
    }
    // The Real column is the real state the Variables panel shows.
    const vars = await variables(page);
    const realLocals = rows.find((r) => r.field === 'locals')?.real ?? '';
    for (const [name, value] of Object.entries(vars.values)) assert.ok(realLocals.includes(`${name} = ${value}`), realLocals);
    assert.equal(rows.find((r) => r.field === 'line')?.real, '2');
    assert.match((await status(page).textContent()) ?? '', /^line 2 in total/);
    // The predicted line is drawn in the editor as a ghost marker.
    const predictedLine = rows.find((r) => r.field === 'line')?.model;
    if (/^\d+$/.test(predictedLine ?? '')) {
      // Monaco draws the marker on its next frame.
      await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .ndb-ghost-line').length === 1, null, { timeout: STEP_TIMEOUT });
    }
    await press(page, 'Step over');
    await prediction(page);
    const score = await region(page, 'Prediction').locator('table.scores tr[data-kind]').allTextContents();
    assert.ok(score.some((s) => s.startsWith('Step into')), score.join('|'));
    assert.ok(score.some((s) => s.startsWith('Step over')), score.join('|'));
    const facts = await modelFacts(page);
    assert.match(facts['tokens-per-s'], /^\d+$/);
    assert.match(facts['ms-per-state'], /^\d+$/);
  });

  it('switches modes: Neural only goes on from its own predictions, Real only asks nothing', async () => {
    const mode = region(page, 'Prediction').getByLabel('Mode');
    await mode.selectOption({ label: 'Neural only' });
    await press(page, 'Step over');
    const rows = await prediction(page);
    assert.ok(rows.length >= 2);
    await mode.selectOption({ label: 'Real only' });
    await press(page, 'Step over');
    await region(page, 'Prediction').getByText('Real only: the model is not asked.').waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await region(page, 'Prediction').locator('table.fields').count(), 0);
    assert.equal(await page.locator('.monaco-editor .ndb-ghost-line').count(), 0);
    await mode.selectOption({ label: 'Compare' });
    await press(page, 'Restart');
  });

  it('Predict first: the learner guesses, then learner, model and truth are scored', async () => {
    await page.getByLabel('Predict first').check();
    await page.getByLabel('Your next line').fill('2');
    await page.getByLabel('Your value').fill('numbers = [3, 1, 4, 1, 5]');
    await press(page, 'Step into');
    await prediction(page);
    const reveal = page.getByRole('table', { name: 'Learner, model and truth' });
    await reveal.waitFor({ timeout: STEP_TIMEOUT });
    const learner = reveal.locator('tr[data-who="learner"] [role="img"]');
    assert.deepEqual(await learner.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['match', 'match']);
    assert.match(await reveal.locator('tr[data-who="truth"]').textContent(), /2/);
    assert.equal(await reveal.locator('tr[data-who="model"] [role="img"]').count(), 2);
    assert.equal(await page.getByLabel('Your next line').inputValue(), '');
    await page.getByLabel('Predict first').uncheck();
  });

  it('Guess inputs at a return: sampled calls, each checked in Pyodide', async () => {
    await press(page, 'Step out');
    assert.match((await status(page).textContent()) ?? '', /total returns 14/);
    await prediction(page);
    await page.getByRole('button', { name: 'Guess inputs' }).click();
    const panel = region(page, 'Prediction');
    // the note comes when guessing ends, whichever way: a failure must fail this test
    const note = panel.getByText(/candidate calls return 14|Guessing failed|Guess inputs works/);
    await note.waitFor({ timeout: PREDICT_TIMEOUT });
    const said = (await note.textContent()) ?? '';
    const summary = /(\d+) of (\d+) candidate calls return 14(?: \((\d+) drawn: (?:(\d+) not a call)?(?:, )?(?:(\d+) repeated)?\))?\./.exec(said);
    assert.ok(summary, `guessing did not end in a summary: ${said}`);
    const verdicts = await panel.locator('.candidates li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-verdict')));
    const [, yes, shown, drawn, notCalls, repeated] = summary.map(Number);
    // every drawn sample is shown, or counted as not a call or a repeat: 4 in all
    assert.equal(shown, verdicts.length);
    assert.equal(drawn || shown, 4, said);
    assert.equal(shown + (notCalls || 0) + (repeated || 0), 4, said);
    assert.equal(yes, verdicts.filter((v) => v === 'yes').length);
    for (const v of verdicts) assert.ok(['yes', 'no', 'error'].includes(v), v);
    const text = (await panel.locator('.candidates').textContent()) ?? '';
    assert.doesNotMatch(text, /<\|/);
  });

  it('int8 on WASM predicts what fp32 does (first step)', async () => {
    await press(page, 'Restart');
    await press(page, 'Step into');
    await prediction(page);
    const int8 = await rawText(page);
    const fp32 = await newPage('?backend=wasm&dtype=fp32');
    try {
      await modelReady(fp32.page);
      assert.equal((await modelFacts(fp32.page)).dtype, '32-bit floats (fp32)');
      await press(fp32.page, 'Step into');
      await prediction(fp32.page);
      assert.equal(await rawText(fp32.page), int8);
      assert.deepEqual(fp32.errors, []);
    } finally {
      await fp32.page.close();
    }
    assert.deepEqual(errors, []);
  });

  it('a missing model leaves a working real-only debugger with a clear message', async () => {
    const missing = await newPage('?model=no-such-model');
    try {
      await missing.page.locator('main[data-model="failed"]').waitFor({ timeout: LOAD_TIMEOUT });
      const alert = region(missing.page, 'Prediction').getByRole('alert');
      assert.match(await alert.textContent(), /could not be loaded.*no-such-model.*missing.*real-only/s);
      await press(missing.page, 'Step into');
      await press(missing.page, 'Step over');
      assert.match((await status(missing.page).textContent()) ?? '', /^line 3 in total/);
      assert.equal(await region(missing.page, 'Prediction').locator('table.fields').count(), 0);
      // Only the 404s of the missing files, nothing else.
      assert.deepEqual(missing.errors.filter((e) => !/404|Not Found/i.test(e)), []);
    } finally {
      await missing.page.close();
    }
  });

  it('serves missing files under /models/ as 404, not as the app page', async () => {
    const res = await fetch(`${server.url}models/no-such-model/config.json`);
    assert.equal(res.status, 404);
    const ok = await fetch(`${server.url}models/index.json`);
    assert.equal(ok.status, 200);
  });

  it('keeps the model in the Cache API: a reload does not download it again', async () => {
    await page.reload();
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await idle(page);
    await modelReady(page);
    assert.match((await modelFacts(page)).load, /\(cached\)/);
  });
});

describe('steps taken while the model is still loading (a cold start)', () => {
  const app = useApp();
  before(() => ({ server, browser } = app));

  it('predicts the stop it reached once the model is ready, and predicts again after a step back and forward', async () => {
    // A fresh profile: the model is not in the Cache API, so its download can be held back.
    const model = await holdModelDownload(browser.context);
    const { page, errors } = await newPage('?backend=wasm');
    try {
      assert.equal(await page.locator('main').getAttribute('data-model'), 'loading');
      await press(page, 'Step into');
      await press(page, 'Step over');
      await press(page, 'Step back');
      await press(page, 'Step over');
      assert.match((await status(page).textContent()) ?? '', /^line 3 in total/);
      assert.equal(await page.locator('main').getAttribute('data-model'), 'loading');
      await model.release();
      await modelReady(page);
      // No further step: the model predicts the step that reached this stop (line 3), from line 2.
      const rows = await prediction(page);
      assert.equal(rows.find((r) => r.field === 'line')?.real, '3');
      assert.equal(await region(page, 'Prediction').locator('[data-intro]').count(), 0);
      // Back and forward again over steps taken during the load: each is predicted.
      await press(page, 'Step back');
      assert.equal((await prediction(page)).find((r) => r.field === 'line')?.real, '2');
      await press(page, 'Step over');
      assert.equal((await prediction(page)).find((r) => r.field === 'line')?.real, '3');
      assert.deepEqual(errors, []);
    } finally {
      await model.release();
      await page.close();
    }
  });
});
