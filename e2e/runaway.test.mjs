// Programs that do not stop: Python is interrupted after 10 s, and when even that does not work
// the worker is replaced. Either way the app stays usable.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, button, idle, press, setCode, status } from './helpers.mjs';
import { useApp } from './setup.mjs';

let page;
let errors;

async function runModule(code) {
  await setCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await button(page, 'Restart').click();
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: LOAD_TIMEOUT });
}

describe('runaway programs', () => {
  const app = useApp({ open: '' });
  before(() => ({ page, errors } = app));

  it('interrupts a long computation that runs no lines of the program', async () => {
    assert.equal(await page.evaluate(() => globalThis.crossOriginIsolated), true, 'the page is cross-origin isolated');
    const started = Date.now();
    await runModule('import re\nm = re.match(r"(a+)+b", "a" * 40)\n');
    const took = Date.now() - started;
    assert.ok(took > 9_000 && took < 20_000, `stopped after ${took} ms`);
    assert.match(await status(page).textContent(), /time limit/);
    await press(page, 'Continue');
    assert.match(await status(page).textContent(), /^The run was cut off at event \d+ in <module>, line 2 \(the time limit of 8 s\)\. It may still finish: raise the limit\./);
    assert.equal(await status(page).getByRole('button', { name: 'Raise the limit to 16 s' }).count(), 1);
  });

  it('replaces the engine when Python cannot be interrupted, forgets the old scores, and then works again', async () => {
    // A score of the run before, which the restart must take away.
    await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
    await idle(page);
    await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await press(page, 'Step into');
    await page.locator('table.scores').waitFor({ timeout: LOAD_TIMEOUT });
    await runModule('x = sum(range(10**12))\n');
    assert.match(await status(page).textContent(), /Python engine was restarted/);
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    assert.equal(await page.locator('table.scores').count(), 0);
    await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
    await idle(page);
    assert.match(await status(page).textContent(), /^call of total \(line 1\)/);
    assert.deepEqual(errors, []);
  });
});
