// What a newcomer reaches for beside VS Code and Python Tutor: objects that unfold, a caller's
// frame picked in the Call stack, the traceback and the failing line of an uncaught exception (and
// of a failed import), keys for the back buttons, a Tab that can leave the editor, Stop, long
// values that say how long they are, and a fresh state for a fresh program.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, STEP_TIMEOUT, breakpointLines, button, callStack, clickGlyph, clickLine, idle, pasteCode, press, status, variables } from './helpers.mjs';
import { useApp } from './setup.mjs';

let page;
let errors;

function region(name) {
  return page.getByRole('region', { name, exact: true });
}

async function expectStatus(pattern) {
  await page
    .waitForFunction(([s, f]) => new RegExp(s, f).test(document.querySelector('[role="status"] .text')?.textContent ?? ''), [pattern.source, pattern.flags], {
      timeout: STEP_TIMEOUT,
    })
    .catch(async () => assert.fail(`status ${JSON.stringify(await status(page).textContent())} does not match ${pattern}`));
}

async function program(code, call) {
  await pasteCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill(call);
  await press(page, 'Restart');
}

async function pick(title) {
  await page.getByLabel('Example').selectOption({ label: title });
  await idle(page);
}

describe('the debugger beside VS Code and Python Tutor', () => {
  const app = useApp({ open: '?model=none' });
  before(() => ({ page, errors } = app));

  it('unfolds an object into its attributes, and a list into its items', async () => {
    await program(
      'class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\ndef make():\n    p = Point(3, 4)\n    items = [p, Point(5, 6)]\n    return items\n',
      'make()',
    );
    await press(page, 'Step out');
    await expectStatus(/^make returns/);
    const vars = region('Variables');
    assert.equal((await variables(page)).values.p, 'Point(x=3, y=4)');
    await vars.getByRole('button', { name: 'Unfold p', exact: true }).click();
    const parts = vars.getByRole('list', { name: 'Parts of p' });
    // Python's own repr first (Point has no __repr__), then its attributes (issue 46)
    assert.deepEqual((await parts.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()), ['<__main__.Point object at 0x…>', 'x = 3', 'y = 4']);
    await vars.getByRole('button', { name: 'Unfold items', exact: true }).click();
    await vars.getByRole('button', { name: 'Unfold items [1]', exact: true }).click();
    const inner = vars.getByRole('list', { name: 'Parts of items [1]' });
    assert.deepEqual((await inner.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()), ['<__main__.Point object at 0x…>', 'x = 5', 'y = 6']);
  });

  it("shows a caller's line and locals when its frame is clicked in the Call stack", async () => {
    await pick('Nested calls');
    await press(page, 'Step into');
    await press(page, 'Step into');
    await expectStatus(/^call of square \(line 1\)/);
    assert.deepEqual(await callStack(page), ['square(x=7) line 1', 'describe(n=7) line 10']);
    await region('Call stack').getByRole('button', { name: /^describe/ }).click();
    await region('Variables').getByText(/Showing describe, a caller, at line 10/).waitFor({ timeout: STEP_TIMEOUT });
    assert.deepEqual((await variables(page)).values, { n: '7' });
    await page.locator('.monaco-editor .ndb-frame-line').waitFor({ timeout: STEP_TIMEOUT });
    await region('Variables').getByRole('button', { name: 'Back to the current frame' }).click();
    assert.deepEqual((await variables(page)).values, { x: '7' });
    assert.equal(await page.locator('.monaco-editor .ndb-frame-line').count(), 0);
  });

  it('goes back with keys: Ctrl+F11 Step back, Ctrl+F10 Step back over, Ctrl+Shift+F11 Back to call', async () => {
    await press(page, 'Step out');
    await press(page, 'Step over');
    await expectStatus(/^line 11 in describe/);
    await page.mouse.click(5, 5);
    await page.keyboard.press('Control+F11');
    await idle(page);
    await expectStatus(/^square returns 49/);
    await page.keyboard.press('Control+Shift+F11');
    await idle(page);
    await expectStatus(/^call of square \(line 1\)/);
    await page.keyboard.press('Control+F10');
    await idle(page);
    await expectStatus(/^line 10 in describe/);
    assert.match((await button(page, 'Back to call').getAttribute('title')) ?? '', /Ctrl\+Shift\+F11/);
  });

  it('stops where an exception is raised when its switch is on, and Reverse continue (Ctrl+F5) goes back to the previous breakpoint stop', async () => {
    const code = 'def parse(items):\n    out = []\n    for s in items:\n        try:\n            out.append(int(s))\n        except ValueError:\n            out.append(0)\n    return out\n';
    await program(code, 'parse(["1", "x", "3"])');
    const stops = page.getByRole('switch', { name: 'Stop where exceptions are raised' });
    await stops.check();
    await press(page, 'Continue');
    await expectStatus(/^exception at line 5 in parse: ValueError/);
    assert.equal((await variables(page)).values.s, "'x'");
    await press(page, 'Continue');
    await expectStatus(/^Program finished: returned \[1, 0, 3\]/);
    await stops.uncheck();
    await press(page, 'Restart');
    await press(page, 'Continue');
    await expectStatus(/^Program finished: returned \[1, 0, 3\]/);

    await clickGlyph(page, 5);
    await press(page, 'Restart');
    assert.equal(await button(page, 'Reverse continue').isDisabled(), true, 'nothing before the entry');
    for (let i = 0; i < 3; i++) await press(page, 'Continue');
    await expectStatus(/^line 5 in parse/);
    assert.equal((await variables(page)).values.s, "'3'");
    await press(page, 'Reverse continue');
    await expectStatus(/^line 5 in parse/);
    assert.equal((await variables(page)).values.s, "'x'");
    await page.mouse.click(5, 5);
    await page.keyboard.press('Control+F5');
    await idle(page);
    assert.equal((await variables(page)).values.s, "'1'");
    await page.keyboard.press('Control+F5');
    await idle(page);
    await expectStatus(/^call of parse \(line 1\)/);
    assert.equal(await button(page, 'Reverse continue').isDisabled(), true);
    assert.match((await button(page, 'Reverse continue').getAttribute('title')) ?? '', /Ctrl\+F5/);
    await clickGlyph(page, 5);
  });

  it('shows the traceback of an uncaught exception and marks the failing line', async () => {
    await program('def average(values):\n    return total(values) / len(values)\n\ndef total(values):\n    return sum(values) / 0\n', 'average([1, 2])');
    await press(page, 'Continue');
    await expectStatus(/^Program ended with an uncaught exception: ZeroDivisionError/);
    const tb = region('Variables').locator('.traceback li');
    assert.deepEqual((await tb.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()), ['average, line 2', 'total, line 5']);
    await page.locator('.monaco-editor .ndb-error-line').waitFor({ timeout: STEP_TIMEOUT });
    await tb.last().getByRole('button').click();
    await expectStatus(/^exception at line 5 in total/);
  });

  it('marks the line of a failed import', async () => {
    await program('def f():\n    return 1\n\nimport numpy\n', 'f()');
    await expectStatus(/No module named 'numpy'/);
    await page.locator('.monaco-editor .ndb-error-line').waitFor({ timeout: STEP_TIMEOUT });
    const line = await page.evaluate(() => {
      const hl = document.querySelector('.monaco-editor .ndb-error-line');
      const y = hl.getBoundingClientRect().top + 2;
      const n = [...document.querySelectorAll('.monaco-editor .line-numbers')].find((el) => {
        const r = el.getBoundingClientRect();
        return y >= r.top && y < r.bottom;
      });
      return Number(n?.textContent);
    });
    assert.equal(line, 4);
  });

  it('says how long a value cut at its cap is, and keeps it to a few lines', async () => {
    await program('def f():\n    s = "ab" * 5_000_000\n    return len(s)\n', 'f()');
    await press(page, 'Step into');
    await press(page, 'Step over');
    const row = region('Variables').locator('tr[data-name="s"]');
    assert.match((await row.locator('.size').textContent()) ?? '', /… 10,000,000 characters/);
    const height = await row.evaluate((tr) => tr.getBoundingClientRect().height);
    assert.ok(height < 100, `the row is ${height} px high`);
    await row.getByRole('button', { name: 'show all' }).click();
    assert.ok((await row.evaluate((tr) => tr.getBoundingClientRect().height)) > height);
  });

  it('stops a long computation with Stop, and lets the user decide to run it again', async () => {
    await pasteCode(page, 'import re\nm = re.match(r"(a+)+b", "a" * 40)\n');
    await page.getByLabel('Call', { exact: true }).fill('');
    await button(page, 'Restart').click();
    const stop = page.getByRole('button', { name: 'Stop', exact: true });
    await stop.waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await page.locator('main').getAttribute('data-busy'), 'true');
    await stop.click();
    await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: LOAD_TIMEOUT });
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await page.getByRole('status').getByText(/Stopped as you asked/).first().waitFor({ timeout: STEP_TIMEOUT });
    assert.equal(await button(page, 'Restart').isEnabled(), true);
  });

  it('Ctrl+M lets Tab leave the editor, and says so', async () => {
    await pick('A for loop that sums');
    await clickLine(page, 2);
    const legend = page.getByRole('button', { name: /^Tab (indents|moves the focus)/ });
    assert.match((await legend.textContent()) ?? '', /Tab indents/);
    await page.keyboard.press('Control+m');
    assert.match((await legend.textContent()) ?? '', /Tab moves the focus/);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => Boolean(document.activeElement?.closest('.monaco-editor'))), false);
    assert.match(await page.locator('.monaco-editor .view-lines').textContent(), /^def\u00a0total\(numbers\):\s*s\u00a0=\u00a00/);
    await legend.click();
    assert.match((await legend.textContent()) ?? '', /Tab indents/);
  });

  it('forgets breakpoints and watches when the whole program is replaced, and refuses a breakpoint on a blank line', async () => {
    await clickGlyph(page, 4);
    await page.locator('.monaco-editor .ndb-breakpoint').waitFor();
    await region('Watch').getByLabel('Add watch expression').fill('s * 2');
    await region('Watch').getByLabel('Add watch expression').press('Enter');
    await idle(page);
    await region('Watch').locator('tr[data-expr="s * 2"]').waitFor();
    await pasteCode(page, 'def g(n):\n    m = n + 1\n\n    return m\n');
    await page.locator('.monaco-editor .ndb-breakpoint').waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    assert.equal(await region('Watch').locator('tr[data-expr]').count(), 0);
    await clickGlyph(page, 3);
    assert.deepEqual(await breakpointLines(page), []);
    await page.getByRole('status').getByRole('alert').getByText(/Line 3 holds no code/).waitFor({ timeout: STEP_TIMEOUT });
  });

  it('reloads its own tab without asking to run "someone else\'s" code', async () => {
    await pick('Nested calls');
    await press(page, 'Step into');
    await expectStatus(/^line 10 in describe/);
    await page.waitForFunction(() => location.hash.length > 1, null, { timeout: STEP_TIMEOUT });
    await page.waitForTimeout(600); // the hash follows the position
    await page.reload();
    await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await idle(page);
    await expectStatus(/^line 10 in describe/);
    assert.equal(await page.getByRole('button', { name: 'Run shared code' }).count(), 0);
    assert.deepEqual(errors, []);
  });
});
