// The page as a person meets it on a phone (390×844) and on a laptop (1366×768): every toolbar
// button on screen, uncovered and pressed once; the editor and Variables on screen and uncovered;
// nothing wider than the screen; before the first step the Prediction panel says in words what the
// model does. Leaves the README's screenshots of both layouts in e2e/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, SCREENSHOTS, STEP_TIMEOUT, button, clickGlyph, idle, openApp, press, status, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const TOOLBAR = ['Step into', 'Step over', 'Step out', 'Continue', 'Step back', 'Step back over', 'Back to call', 'Reverse continue', 'Restart'];
const LAYOUTS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, shot: 'screenshot-phone.png' },
  { name: 'laptop', viewport: { width: 1366, height: 768 }, shot: 'screenshot.png' },
];

/** Where an element is, whether it lies inside the viewport, and whether what is drawn at its
 * centre is the element itself (not something covering it). */
function placement(locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const cx = r.left + r.width / 2;
    const cy = r.top + Math.min(r.height / 2, 20);
    const top = document.elementFromPoint(cx, cy);
    return {
      rect: { left: Math.round(r.left), top: Math.round(r.top), right: Math.round(r.right), bottom: Math.round(r.bottom) },
      inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && cy <= innerHeight && r.width > 0 && r.height > 0,
      uncovered: top !== null && (el === top || el.contains(top)),
    };
  });
}

async function assertOnScreen(page, what, locator) {
  const p = await placement(locator);
  assert.ok(p.inside, `${what} lies outside the ${page.viewportSize().width}×${page.viewportSize().height} screen: ${JSON.stringify(p.rect)}`);
  assert.ok(p.uncovered, `${what} is covered at its centre: ${JSON.stringify(p.rect)}`);
}

async function assertNoHorizontalOverflow(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), width: innerWidth }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide on a ${width} px screen`);
}

async function expectStatus(page, pattern) {
  await page
    .waitForFunction(([s, f]) => new RegExp(s, f).test(document.querySelector('[role="status"] .text')?.textContent ?? ''), [pattern.source, pattern.flags], {
      timeout: STEP_TIMEOUT,
    })
    .catch(async () => assert.fail(`status ${JSON.stringify(await status(page).textContent())} does not match ${pattern}`));
}

describe('the page on a phone and on a laptop', () => {
  const app = useApp();

  for (const layout of LAYOUTS) {
    describe(`${layout.name} (${layout.viewport.width}×${layout.viewport.height})`, () => {
      let page;
      let errors;
      before(async () => {
        page = await app.browser.context.newPage();
        await page.setViewportSize(layout.viewport);
        errors = watchErrors(page);
        await openApp(page, `${app.server.url}?backend=wasm`);
      });

      it('shows every toolbar button, the editor and Variables on screen and uncovered, nothing wider than the screen', async () => {
        for (const name of TOOLBAR) await assertOnScreen(page, `the ${name} button`, button(page, name));
        await page.locator('.monaco-editor .view-lines').waitFor({ timeout: LOAD_TIMEOUT });
        await assertOnScreen(page, 'the editor', page.locator('.monaco-editor'));
        await assertOnScreen(page, 'Variables', page.getByRole('region', { name: 'Variables', exact: true }));
        await assertNoHorizontalOverflow(page);
        for (const name of TOOLBAR) assert.match((await button(page, name).getAttribute('title')) ?? '', /\w/, `${name} has a tooltip`);
      });

      it('says in the Prediction panel what the model does, before the first step', async () => {
        const text = await page.getByRole('region', { name: 'Prediction', exact: true }).textContent();
        assert.match(text ?? '', /language model predicts where each step of your program will stop/);
        assert.match(text ?? '', /Python runs the program for real/);
      });

      it('takes every toolbar button as a person would', async () => {
        await page.getByLabel('Example').selectOption({ label: 'Nested calls' });
        await idle(page);
        await expectStatus(page, /^call of describe \(line 9\)/);
        const steps = [
          ['Step into', /^line 10 in describe/],
          ['Step over', /^line 11 in describe/],
          ['Step into', /^call of double \(line 5\)/],
          ['Step out', /^double returns 98 \(line 6\)/],
          ['Continue', /^Program finished: returned '7\^2 \* 2 = 98'/],
          ['Step back', /^describe returns/],
          ['Step back over', /^line 12 in describe/],
          ['Back to call', /^call of describe \(line 9\)/],
          ['Restart', /^call of describe \(line 9\)/],
        ];
        for (const [name, pattern] of steps) {
          assert.equal(await button(page, name).isEnabled(), true, `${name} is enabled before it is pressed`);
          await press(page, name);
          await expectStatus(page, pattern);
        }
        await assertNoHorizontalOverflow(page);
      });

      // Into the ignored e2e/screenshots/; `npm run screenshots` copies them to docs/ for the README.
      it('takes the README screenshot of this layout', async () => {
        await page.getByLabel('Example').selectOption({ label: 'Insertion sort' });
        await idle(page);
        await clickGlyph(page, 7);
        await press(page, 'Continue');
        await press(page, 'Continue');
        await press(page, 'Step over');
        await expectStatus(page, /^line 8 in insertion_sort/);
        if ((await page.locator('main').getAttribute('data-model')) !== 'failed') {
          await page.locator('section[aria-label="Prediction"] table.fields').waitFor({ timeout: 60_000 });
          await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: 60_000 });
        }
        await assertNoHorizontalOverflow(page);
        await page.mouse.move(0, 0);
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, layout.shot) });
        assert.deepEqual(errors, []);
      });
    });
  }
});
