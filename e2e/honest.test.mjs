// Honest scores: a button that would do nothing is disabled (no step forward at the end, no step
// back at the entry, nothing but Restart after a program that could not start), its key does
// nothing either, and nothing is scored there; neither are the entry and the exit, which any
// answer of the right kind matches; scores belong to one run of one program. A mismatch of the
// locals names the variable, predicted against real.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, button, idle, pasteCode, press, setCode, status } from './helpers.mjs';
import { useApp } from './setup.mjs';

const PREDICT_TIMEOUT = 60_000;
const FORWARD = ['Step into', 'Step over', 'Step out', 'Continue'];
const BACKWARD = ['Step back', 'Step back over', 'Back to call', 'Reverse continue'];

let page;
let errors;

function prediction() {
  return page.getByRole('region', { name: 'Prediction', exact: true });
}

/** Waits for the model's answer to the last step. */
async function predicted() {
  await prediction().locator('table.fields').waitFor({ timeout: PREDICT_TIMEOUT });
  await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
}

/** The score table as {button name: "exact/n"}. */
async function scores() {
  const rows = await prediction()
    .locator('table.scores tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent?.trim(), tr.querySelector('td')?.textContent?.trim().split(' ')[0]]));
  return Object.fromEntries(rows);
}

/** What a press that must do nothing could have changed. */
async function snapshot() {
  return {
    status: await status(page).locator('.text').textContent(),
    scores: await scores(),
    after: (await prediction().locator('p.after').count()) ? await prediction().locator('p.after').textContent() : null,
  };
}

async function disabled(names, yes = true) {
  for (const name of names) assert.equal(await button(page, name).isDisabled(), yes, `${name} is ${yes ? '' : 'not '}disabled`);
}

/** Presses keys that must do nothing, and checks that nothing changed and nothing was scored. */
async function keysDoNothing(keys) {
  const before = await snapshot();
  for (const key of keys) await page.keyboard.press(key);
  await page.waitForTimeout(400);
  await idle(page);
  assert.deepEqual(await snapshot(), before);
}

describe('honest scores', () => {
  const app = useApp({ open: '?backend=wasm' });
  before(async () => {
    ({ page, errors } = app);
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
  });

  it('disables stepping back at the entry, and a key there scores nothing', async () => {
    await page.mouse.click(5, 5); // the keys go to the page, not to a field
    // At the first event with no breakpoint behind it, Reverse continue has nowhere to go.
    await disabled([...FORWARD, ...BACKWARD.filter((b) => b !== 'Reverse continue'), 'Restart'], false);
    await disabled(['Reverse continue']);
    await press(page, 'Step back');
    assert.match(await status(page).textContent(), /^At the entry/);
    await predicted();
    // The step back to the entry is shown, not scored.
    await prediction().locator('[data-unscored]').waitFor({ timeout: PREDICT_TIMEOUT });
    assert.deepEqual(await scores(), {});
    await disabled(BACKWARD);
    await disabled([...FORWARD, 'Restart'], false);
    await keysDoNothing(['Control+F11', 'Control+F10', 'Control+Shift+F11', 'Control+F5']);
  });

  it('disables stepping forward at the end, and keys there score nothing', async () => {
    await press(page, 'Continue');
    assert.match(await status(page).textContent(), /^Program finished: returned 14/);
    await predicted();
    await disabled(FORWARD);
    await disabled([...BACKWARD, 'Restart'], false);
    // Nor is the end of the program.
    assert.equal(await prediction().locator('[data-unscored]').count(), 1);
    assert.deepEqual(await scores(), {});
    await keysDoNothing(['F11', 'F10', 'Shift+F11', 'F5']);
    // The positive control: a key that may act here does, and the snapshot sees it (the next test
    // starts with Restart).
    const atEnd = await snapshot();
    await page.keyboard.press('Control+F11');
    await idle(page);
    await predicted();
    assert.notDeepEqual(await snapshot(), atEnd);
  });

  it('starts the scores again on Restart and says so', async () => {
    await press(page, 'Restart');
    assert.deepEqual(await scores(), {});
    await press(page, 'Step into');
    await predicted();
    assert.deepEqual(Object.keys(await scores()), ['Step into']);
    assert.equal(await prediction().locator('[data-unscored]').count(), 0);
    assert.match(await prediction().locator('table.scores caption').textContent(), /this run of total\(\[3, 1, 4, 1, 5\]\).*Starts again on Restart or a new program/s);
    // One table: every action's exact states and lines out of the same steps, and their total.
    await press(page, 'Step over');
    await predicted();
    const rows = await prediction()
      .locator('table.scores tr[data-kind]')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim().split(' ')[0])));
    assert.equal(rows.length, 3, JSON.stringify(rows));
    for (const [exact, line] of rows) assert.equal(exact.split('/')[1], line.split('/')[1], `the same total for exact and line: ${JSON.stringify(rows)}`);
    assert.equal(rows[2][0].split('/')[1], '2');
  });

  it('leaves only Restart after a program that could not start, and scores nothing', async () => {
    await setCode(page, 'def f(:\n    return 1\n');
    await press(page, 'Restart');
    assert.match(await status(page).textContent(), /^Syntax error at line 1/);
    await disabled([...FORWARD, ...BACKWARD]);
    await disabled(['Restart'], false);
    assert.deepEqual(await scores(), {});
    await page.mouse.click(5, 5);
    await keysDoNothing(['F11', 'F10', 'F5', 'Control+F11']);
    assert.deepEqual(await scores(), {});
  });

  it('names the variable of a mismatch, predicted against real, and marks it in place', async () => {
    // Products a small model cannot compute: its locals will be wrong somewhere.
    await pasteCode(page, 'def f():\n    a = 7919 * 104729\n    b = a % 9973 + 31337 * 2711\n    c = (a ^ b) * 48271 % 2147483647\n    return a + b + c\n');
    await page.getByLabel('Call', { exact: true }).fill('f()');
    await press(page, 'Restart');
    let found = null;
    for (let i = 0; i < 5 && !found; i++) {
      await press(page, i === 0 ? 'Step into' : 'Step over');
      await predicted();
      const wrong = await prediction().locator('table.fields tr[data-field="locals"][data-match="false"]').count();
      // an unreadable prediction has no locals to name: the next step may have some
      const readable = await prediction().locator('li[data-side="model"]').count();
      if (wrong === 0 || readable === 0) continue;
      const marked = await prediction().locator('li.bad').evaluateAll((lis) => [...new Set(lis.map((li) => li.getAttribute('data-name')))]);
      const reasons = await prediction().getByRole('list', { name: 'Why the prediction is wrong' }).textContent();
      found = { marked, reasons };
    }
    assert.ok(found, 'no readable prediction of five steps had a wrong local');
    assert.ok(found.marked.length > 0, 'a wrong local is marked in place');
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const name of found.marked) {
      assert.match(found.reasons ?? '', new RegExp(`[ ;:]${escape(name)} (is|\\(|=)`), `the reason names ${name}: ${found.reasons}`);
    }
    assert.match(found.reasons ?? '', /^Locals: /);
    assert.deepEqual(errors, []);
  });
});
