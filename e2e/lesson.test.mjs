// A lesson in class (issue 23): a program of real length on a laptop (1366×768, 1280×720,
// 1920×1080) keeps every panel usable; the output follows the program; a generator is told in
// Python's words (yields, resumes); input() reads the Input field and, past its lines, waits for
// one as a terminal does (issue 46: never an EOFError while stepping); on a
// phone (390×844) the toolbar stays in reach and shows its names, a tap on a line number sets a
// breakpoint and a long press asks for its condition; the embed snippet runs in a course page.
// Leaves lesson-*.png in e2e/screenshots/ to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  LOAD_TIMEOUT,
  SCREENSHOTS,
  STEP_TIMEOUT,
  breakpointLines,
  button,
  idle,
  launchBrowser,
  openApp,
  pasteCode,
  press,
  status,
  variables,
  watchErrors,
} from './helpers.mjs';
import { useApp } from './setup.mjs';

/** 33 lines: a function of 30, called from the module. */
const LONG_PROGRAM = [
  'def report(scores):',
  ...Array.from({ length: 30 }, (_, i) => `    s${i} = scores[${i % 3}] * ${i + 1}  # step ${i + 1}`),
  '    return s29',
  'print(report([3, 1, 4]))',
].join('\n');

const PRINTS = 'for i in range(25):\n    print("line", i)\n';

const TOOLBAR = ['Step into', 'Step over', 'Step out', 'Continue', 'Step back', 'Step back over', 'Back to call', 'Restart'];
const PANELS = ['Call stack', 'Output', 'Watch', 'Model'];

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOTS, name) });
}

async function statusText(page) {
  return ((await status(page).locator('.text').textContent()) ?? '').trim();
}

async function expectStatus(page, pattern) {
  await page
    .waitForFunction(([s, f]) => new RegExp(s, f).test(document.querySelector('[role="status"] .text')?.textContent ?? ''), [pattern.source, pattern.flags], {
      timeout: STEP_TIMEOUT,
    })
    .catch(async () => assert.fail(`status ${JSON.stringify(await statusText(page))} does not match ${pattern}`));
}

/** A panel is usable: scrolled into view if its column scrolls, at least 78 px tall inside the
 * screen, and nothing covers it. */
/** The panel can be scrolled to, shows at least `min` px of itself, and is not covered. */
async function assertUsable(page, name, min = 78) {
  const panel = region(page, name);
  // A prediction that arrives after the scroll grows the page and moves the panel: scroll to it
  // again, as a reader would, before calling it covered (a panel that stays covered still fails).
  let p;
  for (let i = 0; i < 5; i++) {
    await panel.scrollIntoViewIfNeeded();
    p = await panel.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const top = Math.max(r.top, 0);
      const bottom = Math.min(r.bottom, innerHeight);
      const hit = document.elementFromPoint(r.left + r.width / 2, (top + bottom) / 2);
      return { height: Math.round(r.height), visible: Math.round(bottom - top), uncovered: hit !== null && el.contains(hit) };
    });
    if (p.uncovered && p.visible >= min) break;
    await page.waitForTimeout(200);
  }
  const size = page.viewportSize();
  assert.ok(p.height >= min && p.visible >= min, `${name} is ${p.height} px tall, ${p.visible} px on the ${size.width}×${size.height} screen`);
  assert.ok(p.uncovered, `${name} is covered`);
}

async function assertNoHorizontalOverflow(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide on a ${width} px screen`);
}

/** The Output panel's scroller: how far from its newest line, and the last line shown. */
function outputScroll(page) {
  return region(page, 'Output').evaluate((el) => {
    const body = el.querySelector('.body');
    return { fromBottom: Math.round(body.scrollHeight - body.scrollTop - body.clientHeight), scrolls: body.scrollHeight > body.clientHeight + 4 };
  });
}

async function runModule(page, code, input = '') {
  await pasteCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await page.getByLabel('Input', { exact: true }).fill(input);
  await press(page, 'Restart');
}

describe('a lesson in class', () => {
  const app = useApp();
  let page;
  let errors;

  describe('on a laptop', () => {
    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: 1366, height: 768 });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });

    it('keeps the Call stack, Output, Watch and Model usable beside a 33-line program, at three screen sizes', async () => {
      await runModule(page, LONG_PROGRAM);
      for (let i = 0; i < 5 && !/^call of report/.test(await statusText(page)); i++) await press(page, 'Step into');
      await expectStatus(page, /^call of report \(line 1\)/);
      await press(page, 'Step over');
      for (const viewport of [
        { width: 1366, height: 768 },
        { width: 1280, height: 720 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(viewport);
        await page.waitForTimeout(300);
        for (const name of PANELS) await assertUsable(page, name);
        for (const name of ['Variables', 'Prediction']) await assertUsable(page, name);
        // The editor scrolls inside itself rather than pushing the panels away.
        const editor = await page.locator('.editor-wrap').boundingBox();
        assert.ok(editor.height >= 140, `the editor is ${editor.height} px tall`);
        await assertNoHorizontalOverflow(page);
      }
      await page.setViewportSize({ width: 1366, height: 768 });
      const scrolls = await page.locator('.monaco-editor .monaco-scrollable-element').first().evaluate((el) => el.scrollHeight > el.clientHeight);
      assert.ok(scrolls, 'the 33 lines scroll inside the editor at 1366×768');
      await shot(page, 'lesson-laptop.png');
    });

    it('keeps the newest output line in view: forward, Continue and stepping back, unless the user scrolled up', async () => {
      await runModule(page, PRINTS);
      await press(page, 'Continue');
      await expectStatus(page, /^Program finished/);
      let s = await outputScroll(page);
      assert.ok(s.scrolls, '25 lines overflow the Output panel');
      assert.ok(s.fromBottom <= 2, `after Continue the output is ${s.fromBottom} px above its newest line`);
      assert.match(await region(page, 'Output').locator('pre').textContent(), /line 24\n$/);
      for (let i = 0; i < 6; i++) await press(page, 'Step back');
      assert.doesNotMatch(await region(page, 'Output').locator('pre').textContent(), /line 24/);
      s = await outputScroll(page);
      assert.ok(s.fromBottom <= 2, `after stepping back the output is ${s.fromBottom} px above its newest line`);
      await press(page, 'Step into');
      await press(page, 'Step into');
      s = await outputScroll(page);
      assert.ok(s.fromBottom <= 2, `after stepping forward the output is ${s.fromBottom} px above its newest line`);
      // The user scrolls up to read: stepping leaves the panel where they put it.
      await region(page, 'Output').evaluate((el) => (el.querySelector('.body').scrollTop = 0));
      await press(page, 'Step into');
      await press(page, 'Step into');
      assert.equal(await region(page, 'Output').evaluate((el) => el.querySelector('.body').scrollTop), 0);
    });

    it('tells a generator in Python words: it yields a value, then resumes after its yield', async () => {
      await page.getByLabel('Example').selectOption({ label: 'A generator, resumed again and again' });
      await idle(page);
      let text = '';
      for (let i = 0; i < 12 && !/yields/.test(text); i++) {
        await press(page, 'Step into');
        text = await statusText(page);
      }
      assert.equal(text, 'squares yields 1 (line 4)');
      assert.doesNotMatch(await status(page).textContent(), /return/);
      assert.deepEqual((await variables(page)).special, ['Yielded value 1']);
      await shot(page, 'lesson-generator.png');
      await press(page, 'Step into'); // back in first_squares, which appends it
      await press(page, 'Step into');
      await press(page, 'Step into'); // the for loop asks for the next value
      await expectStatus(page, /^squares resumes after its yield \(line 4\)$/);
      // The return that ends the generator is a return.
      await page.getByLabel('Call', { exact: true }).fill('first_squares(0)');
      await press(page, 'Restart');
      text = '';
      for (let i = 0; i < 12 && !/^squares (returns|yields)/.test(text); i++) {
        await press(page, 'Step into');
        text = await statusText(page);
      }
      assert.equal(text, 'squares returns None (line 3)');
    });

    it('reads input() from the Input field, echoes it, keeps it in the link, and waits for a line when it runs out', async () => {
      const code = 'name = input("Name? ")\nprint("Hello,", name)\nage = int(input())\nprint(age + 1)\n';
      await runModule(page, code, 'Ada\n41');
      await press(page, 'Continue');
      await expectStatus(page, /^Program finished/);
      assert.equal(await region(page, 'Output').locator('pre').textContent(), 'Name? Ada\nHello, Ada\n41\n42\n');
      await page.waitForFunction(() => /[#&]in=Ada%0A41/.test(location.hash), null, { timeout: STEP_TIMEOUT });
      await page.getByLabel('Input', { exact: true }).fill('Ada');
      await press(page, 'Continue');
      await expectStatus(page, /^line 3 in <module>: waiting for input$/);
      assert.equal(await region(page, 'Output').locator('pre').textContent(), 'Name? Ada\nHello, Ada\n');
      // the line typed, the same Continue goes on to the end
      const ask = page.getByLabel('Program input');
      await ask.fill('41');
      await ask.press('Enter');
      await idle(page);
      await expectStatus(page, /^Program finished/);
      assert.equal(await region(page, 'Output').locator('pre').textContent(), 'Name? Ada\nHello, Ada\n41\n42\n');
    });

    it('Predict first: says what is judged, Enter takes the step, a blank guess is not counted; a reload keeps the mode, Predict first and folded panels', async () => {
      await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
      await idle(page);
      const panel = region(page, 'Prediction');
      await panel.getByLabel('Mode').selectOption({ label: 'Real only' });
      await page.getByLabel('Predict first').check();
      assert.match(await panel.locator('form.guess').textContent(), /where it stops, and the value there before that line runs/);
      await page.getByLabel('Your next line').fill('2');
      await page.getByLabel('Your next line').press('Enter');
      await idle(page);
      await expectStatus(page, /^line 2 in total/);
      const reveal = page.getByRole('table', { name: 'Learner, model and truth' });
      await reveal.waitFor({ timeout: STEP_TIMEOUT });
      // The line was guessed and is right; the blank value is not scored.
      assert.deepEqual(await reveal.locator('tr[data-who="learner"] [role="img"]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))), ['match', 'not scored']);
      assert.match(await panel.locator('p.tally').last().textContent(), /You: 1 of 1 lines, 0 of 0 values right/);
      await region(page, 'Output').getByRole('button', { name: 'Output' }).click();
      assert.equal(await region(page, 'Output').getByRole('button', { name: 'Output' }).getAttribute('aria-expanded'), 'false');
      await page.reload();
      await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await idle(page);
      assert.equal(await region(page, 'Prediction').getByLabel('Mode').inputValue(), 'real');
      assert.equal(await page.getByLabel('Predict first').isChecked(), true);
      assert.equal(await region(page, 'Output').getByRole('button', { name: 'Output' }).getAttribute('aria-expanded'), 'false');
      // Back as it was, for the tests after this one.
      await region(page, 'Output').getByRole('button', { name: 'Output' }).click();
      await page.getByLabel('Predict first').uncheck();
      await region(page, 'Prediction').getByLabel('Mode').selectOption({ label: 'Compare' }).catch(() => undefined);
    });

    it('says where a long run was cut off, shows its last state, and raises the limit', async () => {
      await runModule(page, 'total = 0\nfor i in range(6000):\n    total += i\nprint(total)\n');
      await press(page, 'Continue');
      await expectStatus(page, /^The run was cut off at event 10,000 in <module>, line \d \(the event budget of 10,000\)\. It may still finish: raise the limit\./);
      const vars = await variables(page);
      assert.ok(Number(vars.values.i) > 1000, `the last state's i is shown: ${JSON.stringify(vars.values)}`);
      assert.equal(await region(page, 'Call stack').locator('li').count(), 1);
      await status(page).getByRole('button', { name: 'Raise the limit to 100,000 events' }).click();
      await idle(page);
      await expectStatus(page, /^Program finished/);
      assert.equal(await region(page, 'Output').locator('pre').textContent(), '17997000\n');
      // A finished program has no frame.
      assert.equal(await region(page, 'Call stack').locator('li').count(), 0);
      assert.deepEqual(errors, []);
    });
  });

  describe('on a phone', () => {
    let phone;
    before(async () => {
      phone = await app.browser.context.newPage();
      await phone.setViewportSize({ width: 390, height: 844 });
      errors = watchErrors(phone);
      await openApp(phone, `${app.server.url}?backend=wasm`);
    });

    it('keeps the named toolbar in reach after scrolling to the last panel', async () => {
      await runModule(phone, LONG_PROGRAM);
      await phone.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await phone.waitForTimeout(200);
      assert.ok((await phone.evaluate(() => window.scrollY)) > 300, 'the page scrolled');
      const labels = [];
      for (const name of TOOLBAR) {
        const b = button(phone, name);
        const p = await b.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          const label = el.querySelector('.label');
          const lr = label.getBoundingClientRect();
          return { inside: r.top >= 0 && r.bottom <= innerHeight, uncovered: hit !== null && el.contains(hit), label: label.textContent, shown: lr.width > 12 && lr.height > 8 };
        });
        assert.ok(p.inside && p.uncovered, `${name} is in reach after scrolling: ${JSON.stringify(p)}`);
        assert.ok(p.shown, `${name} shows its name`);
        labels.push(p.label);
      }
      assert.equal(new Set(labels).size, TOOLBAR.length, `every button has its own visible name: ${labels.join(', ')}`);
      await press(phone, 'Step into');
      await expectStatus(phone, /^line 31 in <module>|^call of report|^line \d+ in/);
      // The last panel is not hidden under the toolbar, once the page has stopped growing (the
      // step's prediction may still be arriving: scroll to the end as a reader would, again).
      let model;
      let bar;
      for (let i = 0; i < 10; i++) {
        await phone.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await phone.waitForTimeout(200);
        [model, bar] = await Promise.all([region(phone, 'Model').boundingBox(), phone.getByRole('toolbar', { name: 'Debugger' }).boundingBox()]);
        if (model.y + model.height <= bar.y) break;
      }
      assert.ok(model.y + model.height <= bar.y, `the Model panel (to ${model.y + model.height}) ends above the toolbar (from ${bar.y})`);
      await assertNoHorizontalOverflow(phone);
      // Every panel can be scrolled to and read, none under the toolbar.
      // (a panel is as tall as its content here: one frame is a short Call stack)
      for (const name of [...PANELS, 'Variables', 'Prediction']) await assertUsable(phone, name, 40);
      await shot(phone, 'lesson-phone.png');
      assert.deepEqual(errors, []);
    });
  });

  describe('a breakpoint by touch', () => {
    let browser;
    let page;
    before(async () => {
      browser = await launchBrowser(app.server.url, [], { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
      page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await openApp(page, `${app.server.url}?model=none`);
      await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
      await idle(page);
    });
    after(async () => {
      await browser?.close();
    });

    /** The centre of a line number on the screen. */
    async function lineNumber(line) {
      const num = page.locator('.monaco-editor .line-numbers').filter({ hasText: new RegExp(`^\\s*${line}\\s*$`) }).first();
      await num.scrollIntoViewIfNeeded();
      const box = await num.boundingBox();
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    }

    it('toggles a breakpoint with a tap on the line number', async () => {
      const at = await lineNumber(3);
      await page.touchscreen.tap(at.x, at.y);
      await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .ndb-breakpoint').length === 1, null, { timeout: STEP_TIMEOUT });
      assert.deepEqual(await breakpointLines(page), [3]);
      await page.touchscreen.tap(at.x, at.y);
      await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .ndb-breakpoint').length === 0, null, { timeout: STEP_TIMEOUT });
    });

    it('opens the condition dialog with a long press, and keeps the breakpoint', async () => {
      const at = await lineNumber(3);
      await page.touchscreen.tap(at.x, at.y);
      await page.waitForFunction(() => document.querySelectorAll('.monaco-editor .ndb-breakpoint').length === 1, null, { timeout: STEP_TIMEOUT });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: at.x, y: at.y }] });
      await page.waitForTimeout(800);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const dialog = page.getByRole('dialog', { name: 'Breakpoint condition' });
      await dialog.waitFor({ timeout: STEP_TIMEOUT });
      assert.match(await dialog.textContent(), /line 3/);
      await dialog.getByLabel('Condition').fill('s > 3');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
      assert.deepEqual(await breakpointLines(page), [3]);
      await page.locator('.monaco-editor .ndb-breakpoint-conditional').waitFor({ timeout: STEP_TIMEOUT });
      await press(page, 'Continue');
      await expectStatus(page, /^line 3 in total/);
      assert.equal((await variables(page)).values.s, '4');
    });
  });

  describe('embedded in a course page', () => {
    it('copies an iframe snippet that runs the example at once in a 700×500 frame, with a way to the full app', async () => {
      const page = await app.browser.context.newPage();
      await openApp(page, `${app.server.url}?model=none`);
      await page.getByLabel('Example').selectOption({ label: 'A generator, resumed again and again' });
      await idle(page);
      await page.getByLabel('Input', { exact: true }).fill('unused');
      for (let i = 0; i < 4; i++) await press(page, 'Step into');
      const where = await statusText(page);
      await page.getByRole('button', { name: /embed/i }).click();
      await page.getByText('Embed code copied').waitFor({ timeout: STEP_TIMEOUT });
      const snippet = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(snippet, /^<iframe src="[^"]+embed=1#code=[^"]+" width="700" height="500" /);

      const course = await app.browser.context.newPage();
      const errors = watchErrors(course);
      await course.setContent(`<!doctype html><html><body><h1>Lesson 4: generators</h1>${snippet}</body></html>`);
      const frame = course.frameLocator('iframe');
      await frame.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
      await frame.getByRole('status').locator('.text').filter({ hasText: where }).waitFor({ timeout: STEP_TIMEOUT });
      // It ran at once: no consent notice, the buttons work.
      assert.equal(await frame.getByRole('button', { name: 'Run shared code' }).count(), 0);
      assert.equal(await frame.getByLabel('Input', { exact: true }).count(), 0);
      const fits = await frame.locator('html').evaluate(() => ({
        w: document.documentElement.scrollWidth,
        h: document.documentElement.scrollHeight,
        vw: innerWidth,
        vh: innerHeight,
      }));
      assert.ok(fits.vw >= 690 && fits.vw <= 700 && fits.vh >= 490 && fits.vh <= 500, `the frame is 700×500: ${JSON.stringify(fits)}`);
      assert.ok(fits.w <= fits.vw && fits.h <= fits.vh, `the embed fits its frame: ${JSON.stringify(fits)}`);
      for (const name of ['Step into', 'Step back', 'Restart']) {
        const visible = await frame.getByRole('button', { name, exact: true }).isVisible();
        assert.ok(visible, `${name} is in the embed`);
      }
      await frame.getByRole('button', { name: 'Step into', exact: true }).click();
      await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
      const open = frame.getByRole('link', { name: /Open in ndb/ });
      const href = await open.evaluate((a) => {
        // The click takes the session's current link; the test's own listener keeps it from opening a tab.
        a.addEventListener('click', (e) => e.preventDefault());
        a.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
        return a.href;
      });
      const url = new URL(href);
      assert.equal(url.searchParams.get('embed'), null);
      assert.match(url.hash, /code=.*&pos=\d+/);
      await course.screenshot({ path: join(SCREENSHOTS, 'lesson-embed.png') });
      assert.deepEqual(errors, []);
    });
  });
});
