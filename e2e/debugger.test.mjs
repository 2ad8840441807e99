// The debugger as a person uses it: one page load, then examples, buttons, keys, breakpoints and
// broken programs, read back from the panels.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import {
  ROOT,
  SCREENSHOTS,
  STEP_TIMEOUT,
  breakpointLines,
  button,
  callStack,
  clickGlyph,
  clickLine,
  currentLineBecomes,
  idle,
  output,
  press,
  setCode,
  status,
  variables,
} from './helpers.mjs';
import { useApp } from './setup.mjs';

let page;
let errors;

async function pick(title) {
  await page.getByLabel('Example').selectOption({ label: title });
  await idle(page);
}

async function expectStatus(pattern) {
  await page.waitForFunction(
    ([source, flags]) => new RegExp(source, flags).test(document.querySelector('[role="status"]')?.textContent ?? ''),
    [pattern.source, pattern.flags],
    { timeout: STEP_TIMEOUT },
  ).catch(async () => {
    await page.screenshot({ path: join(ROOT, 'e2e', '.tmp', 'failure.png') }).catch(() => undefined);
    assert.fail(`status ${JSON.stringify(await status(page).textContent())} does not match ${pattern}`);
  });
}

describe('the debugger', () => {
  const app = useApp({ open: '' });
  before(() => ({ page, errors } = app));

  it('records the first example on load and stops at the call', async () => {
    await expectStatus(/^call of total \(line 1\)/);
    const vars = await variables(page);
    assert.deepEqual(vars.values, { numbers: '[3, 1, 4, 1, 5]' });
    assert.deepEqual(await callStack(page), ['total(numbers=[3, 1, 4, 1, 5]) line 1']);
    assert.equal(await currentLineBecomes(page, 1), 1);
    assert.equal(await page.getByLabel('Call', { exact: true }).inputValue(), 'total([3, 1, 4, 1, 5])');
  });

  it('steps forward to the return and shows s = 14 there', async () => {
    await press(page, 'Step into');
    await expectStatus(/^line 2 in total/);
    await press(page, 'Step over');
    await expectStatus(/^line 3 in total/);
    assert.deepEqual((await variables(page)).values, { numbers: '[3, 1, 4, 1, 5]', s: '0' });
    await press(page, 'Step over'); // line 4, n = 3
    await press(page, 'Step over'); // line 3, s = 3
    const vars = await variables(page);
    assert.equal(vars.values.s, '3');
    assert.deepEqual(vars.changed, ['s'], 'the changed value is highlighted');
    for (let i = 0; i < 20 && !/returns/.test(await status(page).textContent()); i++) await press(page, 'Step over');
    await expectStatus(/^total returns 14 \(line 5\)/);
    const atReturn = await variables(page);
    assert.equal(atReturn.values.s, '14');
    assert.deepEqual(atReturn.special, ['Return value 14']);
    assert.equal(await currentLineBecomes(page, 5), 5);
    await press(page, 'Step into');
    await expectStatus(/^Program finished: returned 14/);
  });

  it('steps backwards: Step back, Step back over, Back to call', async () => {
    await press(page, 'Step back');
    await expectStatus(/^total returns 14/);
    await press(page, 'Step back');
    await expectStatus(/^line 5 in total/);
    await press(page, 'Step back over');
    await expectStatus(/^line 3 in total/);
    await press(page, 'Back to call');
    await expectStatus(/^call of total \(line 1\)/);
    assert.deepEqual((await variables(page)).values, { numbers: '[3, 1, 4, 1, 5]' });
  });

  it('steps into nested calls and out again, with the call stack', async () => {
    await pick('Nested calls');
    await expectStatus(/^call of describe \(line 9\)/);
    await press(page, 'Step into');
    await press(page, 'Step into');
    await expectStatus(/^call of square \(line 1\)/);
    assert.deepEqual(await callStack(page), ['square(x=7) line 1', 'describe(n=7) line 10']);
    const current = page.getByRole('region', { name: 'Call stack' }).locator('li.current');
    assert.equal((await current.textContent()).replace(/\s+/g, ' ').trim(), 'square(x=7) line 1');
    assert.deepEqual((await variables(page)).values, { x: '7' });
    await press(page, 'Step out');
    await expectStatus(/^square returns 49 \(line 2\)/);
    await press(page, 'Step over');
    await expectStatus(/^line 11 in describe/);
    assert.equal((await variables(page)).values.a, '49');
    await press(page, 'Back to call');
    await expectStatus(/^call of describe/);
    assert.deepEqual((await variables(page)).values, { n: '7' });
  });

  it('shows what the program printed so far', async () => {
    await pick('A whole module, top to bottom');
    assert.equal(await page.getByLabel('Call', { exact: true }).inputValue(), '');
    assert.equal(await output(page), '');
    await press(page, 'Continue');
    await expectStatus(/^Program finished/);
    assert.equal((await output(page)).trim(), "['hello ada', 'hello grace']");
  });

  it('stops at a breakpoint set in the glyph margin', async () => {
    await pick('A for loop that sums');
    await clickGlyph(page, 4);
    await page.locator('.monaco-editor .ndb-breakpoint').waitFor();
    assert.deepEqual(await breakpointLines(page), [4]);
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.equal((await variables(page)).values.n, '3');
    await press(page, 'Continue');
    await expectStatus(/^line 4 in total/);
    assert.equal((await variables(page)).values.n, '1');
    assert.equal(await currentLineBecomes(page, 4), 4);
    await clickGlyph(page, 4); // removes it
    await page.locator('.monaco-editor .ndb-breakpoint').waitFor({ state: 'detached' });
    await press(page, 'Continue');
    await expectStatus(/^Program finished: returned 14/);
  });

  it('runs to a line from the editor context menu', async () => {
    await press(page, 'Restart');
    await expectStatus(/^call of total/);
    await clickLine(page, 5);
    await clickLine(page, 5, 'right');
    const item = page.getByRole('menuitem', { name: 'Run to line' });
    await item.waitFor();
    // Monaco ignores a click that comes right after the menu opened (the right button's mouseup).
    await page.waitForTimeout(300);
    await item.click();
    await idle(page);
    await expectStatus(/^line 5 in total/);
    assert.equal((await variables(page)).values.s, '14');
  });

  it('answers F10, F11, Shift+F11 and F5 even when the editor has focus', async () => {
    await press(page, 'Restart');
    await clickLine(page, 1);
    await page.keyboard.press('F11');
    await idle(page);
    await expectStatus(/^line 2 in total/);
    await page.keyboard.press('F10');
    await idle(page);
    await expectStatus(/^line 3 in total/);
    await page.keyboard.press('Shift+F11');
    await idle(page);
    await expectStatus(/^total returns 14/);
    await page.keyboard.press('F5');
    await idle(page);
    await expectStatus(/^Program finished/);
    // The keys did not type into the code (read after Monaco's next frame, when a typed key would show).
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.match(await page.locator('.monaco-editor .view-lines').textContent(), /^def\u00a0total\(numbers\):/);
  });

  it('reports a syntax error, marks it, and recovers once it is fixed', async () => {
    await setCode(page, 'def f(x):\n    return x +\n');
    await press(page, 'Restart');
    await expectStatus(/^Syntax error at line 2/);
    await page.locator('.monaco-editor .squiggly-error').waitFor({ timeout: STEP_TIMEOUT });
    // Nothing can step in a program that could not start: only Restart, until the code changes.
    for (const name of ['Step into', 'Step over', 'Step out', 'Continue', 'Step back', 'Step back over', 'Back to call', 'Reverse continue']) {
      assert.equal(await button(page, name).isDisabled(), true, name);
    }
    assert.equal(await button(page, 'Restart').isEnabled(), true);
    await setCode(page, 'def f(x):\n    return x + 1\n');
    await page.getByLabel('Call', { exact: true }).fill('f(2)');
    await press(page, 'Step into'); // records the changed code and stops at the call
    await expectStatus(/^call of f \(line 1\)/);
    await page.locator('.monaco-editor .squiggly-error').waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    await press(page, 'Step out');
    await expectStatus(/^f returns 3/);
  });

  it('reports a bad call', async () => {
    await page.getByLabel('Call', { exact: true }).fill('f(');
    await press(page, 'Step into');
    await expectStatus(/^The Call field is not valid/);
    await page.getByLabel('Call', { exact: true }).fill('g(1)');
    await press(page, 'Step into');
    await expectStatus(/NameError/);
  });

  it('stops an endless loop with a clear message and stays usable', async () => {
    await setCode(page, 'while True:\n    pass\n');
    await page.getByLabel('Call', { exact: true }).fill('');
    await press(page, 'Continue');
    await expectStatus(/event budget/);
    await press(page, 'Step back');
    await expectStatus(/^line \d in <module>/);
    await pick('A for loop that sums');
    await expectStatus(/^call of total/);
  });

  it('reports an uncaught exception', async () => {
    await pick('An exception nobody catches');
    await press(page, 'Continue');
    await expectStatus(/^Program ended with an uncaught exception: ZeroDivisionError/);
    assert.deepEqual((await variables(page)).special, ['Exception ZeroDivisionError: division by zero']);
  });

  it('moves along the timeline', async () => {
    await pick('A for loop that sums');
    const slider = page.getByRole('slider', { name: 'Timeline' });
    await slider.fill('4');
    await expectStatus(/^line 3 in total/);
    assert.equal((await variables(page)).values.s, '3');
  });

  // Into the ignored e2e/screenshots/, to look at (the README's images come from layout.test.mjs).
  it('stops at a breakpoint in a loop and shows the changed value', async () => {
    await pick('Insertion sort');
    await clickGlyph(page, 7);
    await press(page, 'Continue');
    await press(page, 'Continue');
    await press(page, 'Step over');
    await expectStatus(/^line 8 in insertion_sort/);
    assert.deepEqual((await variables(page)).changed, ['items']);
    await page.mouse.move(0, 0);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'debugger.png') });
  });

  it('logged no errors', () => {
    assert.deepEqual(errors, []);
  });
});
