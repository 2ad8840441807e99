// Share links: the URL holds code, call, breakpoints and position; code that arrives by link waits
// for "Run shared code".
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  LOAD_TIMEOUT,
  STEP_TIMEOUT,
  breakpointLines,
  button,
  callStack,
  clickGlyph,
  editorText,
  idle,
  openApp,
  press,
  status,
  variables,
  watchErrors,
} from './helpers.mjs';
import { useApp } from './setup.mjs';

let server;
let browser;

describe('share links', () => {
  const app = useApp();
  before(() => ({ server, browser } = app));

  it('reproduce code, breakpoints and position, and run only on request', async () => {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = watchErrors(page);
    await openApp(page, server.url);
    await page.getByLabel('Example').selectOption({ label: 'Recursion: factorial' });
    await page.getByLabel('Call', { exact: true }).fill('factorial(5)');
    await clickGlyph(page, 4);
    await page.locator('.monaco-editor .ndb-breakpoint').waitFor();
    await press(page, 'Continue'); // records factorial(5), stops at line 4
    await press(page, 'Step into'); // call of factorial(4)
    await press(page, 'Step over'); // line 2 in factorial(4)
    const expectedStatus = await status(page).textContent();
    assert.match(expectedStatus, /^line 2 in factorial/);
    const expectedVars = await variables(page);
    assert.deepEqual(expectedVars.values, { n: '4' });
    const expectedStack = await callStack(page);
    assert.equal(expectedStack.length, 2);

    await button(page, 'Share').click();
    await page.getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(link, page.url());
    assert.match(link, /#code=[A-Za-z0-9_-]+&call=factorial%285%29&bp=4&pos=\d+$/);

    const other = await browser.context.newPage();
    const otherErrors = watchErrors(other);
    await other.goto(link);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    const runShared = other.getByRole('button', { name: 'Run shared code' });
    await runShared.waitFor();
    // Monaco loads lazily and draws its lines on a later frame.
    await other.waitForFunction(() => /def\u00a0factorial/.test(document.querySelector('.monaco-editor .view-lines')?.textContent ?? ''), null, { timeout: STEP_TIMEOUT });
    assert.match(await editorText(other), /^def factorial\(n\):\n {4}if n <= 1:/);
    assert.equal(await other.getByLabel('Call', { exact: true }).inputValue(), 'factorial(5)');
    await other.locator('.monaco-editor .ndb-breakpoint').waitFor();
    assert.deepEqual(await breakpointLines(other), [4]);
    // Nothing ran: the debugger waits for consent.
    assert.match(await status(other).textContent(), /has not run/);
    assert.equal(await button(other, 'Step into').isDisabled(), true);
    assert.equal(await button(other, 'Restart').isDisabled(), true);
    await other.keyboard.press('F11');
    assert.match(await status(other).textContent(), /has not run/);

    await runShared.click();
    await runShared.waitFor({ state: 'detached' });
    await idle(other);
    assert.equal(await status(other).textContent(), expectedStatus);
    assert.deepEqual((await variables(other)).values, expectedVars.values);
    assert.deepEqual(await callStack(other), expectedStack);
    assert.equal(await button(other, 'Step into').isEnabled(), true);
    await press(other, 'Back to call');
    assert.match(await status(other).textContent(), /^call of factorial \(line 1\)/);
    assert.deepEqual((await variables(other)).values, { n: '4' });

    assert.deepEqual(errors, []);
    assert.deepEqual(otherErrors, []);
    await other.close();
  });

  it('run a link to an unchanged gallery example at once, at its position', async () => {
    const page = browser.context.pages()[0];
    await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
    await idle(page);
    await press(page, 'Step into');
    await press(page, 'Step over');
    await press(page, 'Step over');
    const expectedStatus = await status(page).textContent();
    assert.match(expectedStatus, /^line 4 in total/);
    await page.getByText('Link copied').waitFor({ state: 'hidden' }); // the note of the first test
    await button(page, 'Share').click();
    await page.getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());

    const other = await browser.context.newPage();
    await other.goto(link);
    await other.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await idle(other);
    await other
      .waitForFunction((text) => document.querySelector('[role="status"]')?.textContent === text, expectedStatus, { timeout: 15_000 })
      .catch(async () => assert.fail(`status ${JSON.stringify(await status(other).textContent())}, expected ${JSON.stringify(expectedStatus)}, url ${other.url()}`));
    assert.equal(await other.getByRole('button', { name: 'Run shared code' }).count(), 0);
    assert.equal(await other.getByLabel('Example').inputValue(), '01_loop_sum');
    await other.close();
  });
});
