// What-if debugging in the app: edit a local at a breakpoint and see the changed outcome in both
// engines, bad edits that leave the session working, conditional breakpoints and watch expressions.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, ROOT, STEP_TIMEOUT, clickGlyph, idle, press, status, variables, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const PREDICT_TIMEOUT = 60_000;

let browser;
let page;
let errors;

function region(name) {
  return page.getByRole('region', { name, exact: true });
}

async function pick(title) {
  await page.getByLabel('Example').selectOption({ label: title });
  await idle(page);
  await page.locator('.monaco-editor .line-numbers').filter({ hasText: /^\s*5\s*$/ }).first().waitFor({ timeout: STEP_TIMEOUT });
}

/** Waits until the status line of `on` matches `pattern`. */
function statusOf(on, pattern) {
  return on.waitForFunction(
    ([source, flags]) => new RegExp(source, flags).test(document.querySelector('[role="status"] .text')?.textContent ?? ''),
    [pattern.source, pattern.flags],
    { timeout: STEP_TIMEOUT },
  );
}

/** Waits until the note of the status line of `on` (the edits in force) matches `pattern`. */
function noteOf(on, pattern) {
  return on.waitForFunction(
    ([source, flags]) => new RegExp(source, flags).test(document.querySelector('[role="status"] .note')?.textContent ?? ''),
    [pattern.source, pattern.flags],
    { timeout: STEP_TIMEOUT },
  );
}

async function expectStatus(pattern) {
  await statusOf(page, pattern).catch(async () => {
    await page.screenshot({ path: join(ROOT, 'e2e', '.tmp', 'whatif-failure.png') }).catch(() => undefined);
    assert.fail(`status ${JSON.stringify(await status(page).textContent())} does not match ${pattern}`);
  });
}

/** The alert of the status line (a what-if error). */
async function expectAlert(pattern) {
  const alert = page.getByRole('status').getByRole('alert');
  await alert.waitFor({ timeout: STEP_TIMEOUT });
  assert.match((await alert.textContent()) ?? '', pattern);
}

/** The row of a local in the Variables panel. */
function variableRow(name) {
  return region('Variables').locator(`tbody tr[data-name="${name}"]`);
}

/** Double-clicks a local's value, types an expression and presses Enter (or `key`). */
async function editValue(name, expr, key = 'Enter') {
  await variableRow(name).locator('td').first().dblclick();
  const input = page.getByRole('textbox', { name: `New value of ${name}`, exact: true });
  await input.waitFor({ timeout: STEP_TIMEOUT });
  await input.fill(expr);
  await input.press(key);
  await idle(page);
}

/** The prediction shown for the last action, once the model has answered: {field: {model, real, match}}. */
async function prediction() {
  const panel = region('Prediction');
  await panel.locator('table.fields').waitFor({ timeout: PREDICT_TIMEOUT });
  await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
  const rows = await panel.locator('table.fields tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-field'),
      { model: tr.querySelector('td.model')?.textContent ?? '', real: tr.querySelector('td.real')?.textContent ?? '', match: tr.getAttribute('data-match') },
    ]),
  );
  return Object.fromEntries(rows);
}

/** The Watch panel's rows: {expr: {real, model}}. */
async function watches() {
  const rows = await region('Watch').locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [
      tr.getAttribute('data-expr'),
      { real: tr.querySelector('td.real')?.textContent?.trim() ?? '', model: tr.querySelector('td.neural')?.textContent?.trim() ?? null },
    ]),
  );
  return Object.fromEntries(rows);
}

/** Right-clicks the glyph margin (breakpoint gutter) of a line. */
function rightClickGlyph(line) {
  return clickGlyph(page, line, 'right');
}

/** Waits until the gutter shows this many breakpoints, and this many of them conditional (Monaco
 * draws decorations on its next frame, after the app has settled). */
async function expectGutter(all, conditional) {
  await page.waitForFunction(
    ([a, c]) =>
      document.querySelectorAll('.monaco-editor .ndb-breakpoint').length === a &&
      document.querySelectorAll('.monaco-editor .ndb-breakpoint.ndb-breakpoint-conditional').length === c,
    [all, conditional],
    { timeout: STEP_TIMEOUT },
  );
}

async function setCondition(line, { condition = '', hitCount = '' }) {
  await rightClickGlyph(line);
  const dialog = page.getByRole('dialog', { name: 'Breakpoint condition' });
  await dialog.waitFor({ timeout: STEP_TIMEOUT });
  await dialog.getByLabel('Condition', { exact: true }).fill(condition);
  await dialog.getByLabel('Hit count', { exact: true }).fill(String(hitCount));
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  return dialog;
}

/** A link that adds Python waits for consent: presses "Run shared code" and waits for the run. */
async function runSharedCode(on) {
  const button = on.getByRole('button', { name: 'Run shared code', exact: true });
  await button.waitFor({ timeout: STEP_TIMEOUT });
  await button.click();
  await button.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
  await idle(on);
}

describe('what-if debugging', () => {
  const app = useApp({ open: '?backend=wasm' });
  before(async () => {
    ({ browser, page, errors } = app);
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
  });

  it('edits a local at a breakpoint: the outcome changes, in both engines', async () => {
    await pick('A for loop that sums');
    await clickGlyph(page, 4);
    // The unedited run: total([3, 1, 4, 1, 5]) returns 14.
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    await clickGlyph(page, 4); // off: Step out would stop at it again
    await press(page, 'Step out');
    await expectStatus(/total returns 14/);
    await clickGlyph(page, 4);
    await press(page, 'Restart');
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.deepEqual((await variables(page)).values, { numbers: '[3, 1, 4, 1, 5]', s: '0', n: '3' });

    // What if s were 100 here?
    await editValue('s', '100');
    await expectStatus(/^line 4 in total/);
    assert.equal((await variables(page)).values.s, '100');
    const row = variableRow('s');
    assert.match((await row.getAttribute('class')) ?? '', /\bedited\b/);
    const mark = row.getByText('edited', { exact: true });
    assert.equal(await mark.getAttribute('title'), 's = 100');
    assert.match((await status(page).textContent()) ?? '', /What if: s = 100/);

    // The real engine: the loop goes on from s = 100.
    await press(page, 'Step over');
    await expectStatus(/^line 3 in total/);
    assert.equal((await variables(page)).values.s, '103');
    // The neural engine is compared with the edited run.
    let p = await prediction();
    assert.match(p.locals.real, /s = 103/);
    await clickGlyph(page, 4);
    await press(page, 'Step out');
    await expectStatus(/total returns 114/);
    assert.deepEqual((await variables(page)).special, ['Return value 114']);
    p = await prediction();
    assert.equal(p.value.real, '114');
    console.log('after the edit, step_return:', JSON.stringify(p));
    assert.ok(['true', 'false'].includes(p.value.match), 'the value is scored');

    // Stepping back to before the edit returns to the unedited run.
    await press(page, 'Back to call');
    await expectStatus(/^call of total/);
    await press(page, 'Step out');
    await expectStatus(/total returns 14/);
    assert.doesNotMatch((await status(page).textContent()) ?? '', /What if/);
  });

  it('Neural only: the model goes on from the edited state', async () => {
    const mode = region('Prediction').getByLabel('Mode');
    await mode.selectOption({ label: 'Neural only' });
    try {
      await clickGlyph(page, 4);
      await press(page, 'Restart');
      await press(page, 'Continue');
      await expectStatus(/^line 4 in total/);
      await editValue('s', '50');
      assert.equal((await variables(page)).values.s, '50');
      await press(page, 'Step over');
      await expectStatus(/^line 3 in total/);
      const p = await prediction();
      // Its prediction is scored against the edited run.
      assert.match(p.locals.real, /s = 53/);
      assert.ok(['true', 'false'].includes(p.locals.match));
    } finally {
      await mode.selectOption({ label: 'Compare' });
      await clickGlyph(page, 4); // off again
    }
  });

  it('a bad edit shows a clear message and leaves the session working', async () => {
    await clickGlyph(page, 4);
    await press(page, 'Restart');
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    await editValue('n', 'no_such_name + 1');
    await expectAlert(/The edit could not be made: .*NameError.*no_such_name/);
    assert.equal((await variables(page)).values.n, '3');
    await editValue('n', '1 +');
    await expectAlert(/The edit could not be made: .*not a Python expression/);
    // Escape cancels.
    await variableRow('n').locator('td').first().dblclick();
    await page.getByRole('textbox', { name: 'New value of n' }).fill('42');
    await page.getByRole('textbox', { name: 'New value of n' }).press('Escape');
    assert.equal(await page.getByRole('textbox', { name: 'New value of n' }).count(), 0);
    assert.equal((await variables(page)).values.n, '3');
    // The session still works, and a good edit still works.
    await press(page, 'Step over');
    await expectStatus(/^line 3 in total/);
    assert.equal(await page.getByRole('status').getByRole('alert').count(), 0);
    await editValue('s', '-3');
    assert.equal((await variables(page)).values.s, '-3');
    // At the exit there is nothing to edit.
    for (let i = 0; i < 5; i++) await press(page, 'Continue');
    await expectStatus(/^Program finished: returned 8/);
    await region('Variables').locator('.special').dblclick();
    await expectAlert(/nothing to edit after the program has ended/);
  });

  it('a conditional breakpoint stops only where its condition holds', async () => {
    await press(page, 'Restart');
    const dialog = await setCondition(4, { condition: 'n == 4' });
    await dialog.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await idle(page);
    await expectGutter(1, 1);
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.deepEqual((await variables(page)).values, { numbers: '[3, 1, 4, 1, 5]', s: '4', n: '4' });
    await press(page, 'Continue');
    await expectStatus(/^Program finished: returned 14/);

    // A condition that does not parse is refused, with its error; the old one stays.
    const bad = await setCondition(4, { condition: 'n ==' });
    await bad.getByRole('alert').waitFor({ timeout: STEP_TIMEOUT });
    assert.match((await bad.getByRole('alert').textContent()) ?? '', /not a Python expression/);
    await bad.getByRole('button', { name: 'Cancel' }).click();
    await press(page, 'Restart');
    await press(page, 'Continue');
    assert.equal((await variables(page)).values.n, '4');

    // A hit count: from the second hit.
    await setCondition(4, { condition: '', hitCount: 2 });
    await idle(page);
    await press(page, 'Restart');
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.equal((await variables(page)).values.n, '1');

    // Remove condition: a plain breakpoint again.
    await rightClickGlyph(4);
    const d = page.getByRole('dialog', { name: 'Breakpoint condition' });
    await d.getByRole('button', { name: 'Remove condition' }).click();
    await d.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await idle(page);
    await expectGutter(1, 0);
    await press(page, 'Restart');
    await press(page, 'Continue');
    assert.equal((await variables(page)).values.n, '3');
  });

  it('watch expressions: real values, errors, the model\'s view, and a session that still works', async () => {
    const add = region('Watch').getByLabel('Add watch expression');
    await add.fill('s + n');
    await add.press('Enter');
    await idle(page);
    await add.fill('no_such_name');
    await add.press('Enter');
    await idle(page);
    await add.fill('s +');
    await add.press('Enter');
    await idle(page);
    let w = await watches();
    assert.equal(w['s + n'].real, '3');
    assert.match(w.no_such_name.real, /NameError/);
    assert.match(w['s +'].real, /SyntaxError/);
    await press(page, 'Step over');
    await expectStatus(/^line 3 in total/);
    w = await watches();
    assert.equal(w['s + n'].real, '6');
    // The model's column: a value, an error, or "not predicted" (once its prediction is in).
    const p = await prediction();
    w = await watches();
    assert.notEqual(w['s + n'].model, null);
    const predicted = Object.fromEntries(p.locals.model.split('\n').map((l) => l.split(' = ')));
    if (/^-?\d+$/.test(predicted.s ?? '') && /^-?\d+$/.test(predicted.n ?? '')) {
      // What the model's locals imply, once Python has evaluated the watch on them.
      const implied = String(Number(predicted.s) + Number(predicted.n));
      await page.waitForFunction(
        (v) => document.querySelector('section[aria-label="Watch"] tr[data-expr="s + n"] td.neural')?.textContent?.trim() === v,
        implied,
        { timeout: STEP_TIMEOUT },
      ).catch(() => undefined); // the assertion below says what was shown instead
      w = await watches();
      assert.equal(w['s + n'].model, implied);
    } else {
      assert.ok(w['s + n'].model.length > 0);
    }
    assert.match(w.no_such_name.model, /not predicted/);
    // Removing a watch; the session goes on.
    await region('Watch').getByRole('button', { name: 'Remove watch no_such_name', exact: true }).click();
    await idle(page);
    await region('Watch').getByRole('button', { name: 'Remove watch s +', exact: true }).click();
    await idle(page);
    assert.deepEqual(Object.keys(await watches()), ['s + n']);
    await press(page, 'Step over');
    await expectStatus(/^line 4 in total/);
    assert.equal((await watches())['s + n'].real, '4');
    for (let i = 0; i < 4; i++) await press(page, 'Continue');
    await expectStatus(/^Program finished/);
    assert.equal((await watches())['s + n'].real, '—');
  });

  it('a share link carries breakpoint conditions and watch expressions', async () => {
    const dialog = await setCondition(4, { condition: 'n == 1', hitCount: 2 });
    await dialog.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await idle(page);
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /&cond=[^&]+&watch=/);

    const other = await browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    // A gallery example, but the link adds Python of its own: it waits for consent.
    await runSharedCode(other);
    // The link's own recording (after its expressions are checked in Python) ends where the link was made.
    await statusOf(other, /^Program finished/);
    await other.locator('.monaco-editor .ndb-breakpoint.ndb-breakpoint-conditional').waitFor({ timeout: STEP_TIMEOUT });
    await press(other, 'Restart');
    await press(other, 'Continue');
    await statusOf(other, /^line 4 in total/);
    // n == 1 holds at the 2nd and 4th items of [3, 1, 4, 1, 5]: the hit count skips the first.
    assert.deepEqual((await variables(other)).values, { numbers: '[3, 1, 4, 1, 5]', s: '8', n: '1' });
    const watched = other.locator('section[aria-label="Watch"] tr[data-expr="s + n"] td.real');
    assert.equal((await watched.textContent())?.trim(), '9');
    assert.deepEqual(otherErrors, []);
    await other.close();
  });

  it('a share link carries the what-if edits in force', async () => {
    await pick('A for loop that sums');
    await clickGlyph(page, 4);
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    await editValue('s', '100');
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.deepEqual((await variables(page)).values, { numbers: '[3, 1, 4, 1, 5]', s: '103', n: '1' });
    await editValue('n', '10');
    await press(page, 'Step over');
    await expectStatus(/^line 3 in total/);
    assert.match((await status(page).textContent()) ?? '', /What if: s = 100, n = 10/);
    const expected = await variables(page);
    assert.deepEqual(expected.values, { numbers: '[3, 1, 4, 1, 5]', s: '113', n: '10' });
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await page.getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(link, /&edit=/);

    const other = await browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await runSharedCode(other);
    await statusOf(other, /^line 3 in total/);
    await noteOf(other, /^What if: s = 100, n = 10 /);
    assert.deepEqual((await variables(other)).values, expected.values);
    // The edits are in force in the recording: the rest of the loop goes on from them.
    await clickGlyph(other, 4); // off: Step out would stop at it again
    await press(other, 'Step out');
    await statusOf(other, /total returns 123/);
    // Stepping back to before the edits returns to the unedited run.
    await press(other, 'Back to call');
    await statusOf(other, /^call of total/);
    await press(other, 'Step out');
    await statusOf(other, /total returns 14/);
    assert.deepEqual(otherErrors, []);
    await other.close();
  });

  it('a link whose edit cannot be made says so and keeps the rest', async () => {
    const link = new URL(page.url());
    const params = new URLSearchParams(link.hash.slice(1));
    const edits = JSON.parse(params.get('edit') ?? '[]');
    assert.equal(edits.length, 2);
    params.set('edit', JSON.stringify([edits[0], { ...edits[1], expr: 'no_such_name' }]));
    link.hash = params.toString();
    const other = await browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link.href);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await runSharedCode(other);
    const alert = other.getByRole('status').getByRole('alert');
    await alert.waitFor({ timeout: STEP_TIMEOUT });
    assert.match((await alert.textContent()) ?? '', /The link's edit `n = no_such_name` could not be made: .*NameError/);
    // The first edit stays in force, at the linked stop: s went on from 100 with n = 1.
    await statusOf(other, /^line 3 in total/);
    await noteOf(other, /^What if: s = 100 \(/);
    assert.deepEqual((await variables(other)).values, { numbers: '[3, 1, 4, 1, 5]', s: '104', n: '1' });
    assert.deepEqual(otherErrors, []);
    await other.close();
  });

  it('logged no errors', () => {
    assert.deepEqual(errors, []);
  });
});
