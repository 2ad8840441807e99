// A lesson in class, round three (issue 46), at 1366×768 and 390×844: the first stop says where
// the run is, not how it ends (no exception named, no red line), and a RecursionError stops where
// it is raised; the editor opens at line 1; a global a local hides is shown with its value; on a
// phone Variables takes a third of the screen at a stop; input() waits like a terminal (no
// EOFError, no red) and the typed line lets the same step go on; the model's dashed marker leaves
// at the end, a prediction is never shown for a stop the page has left, and Predict first checks
// the move the pupil picks; the footer's load time is measured once. Leaves round3-*.png in
// e2e/screenshots/ to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, SCREENSHOTS, STEP_TIMEOUT, button, idle, openApp, pasteCode, press, variables, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const PREDICT_TIMEOUT = 60_000;

/** A recursion with no base case: a RecursionError the tracer cannot record as an event. */
const RECURSION = 'def fact(n):\n    return n * fact(n - 1)\n\nprint(fact(5))\n';
/** A global `score` that reset()'s local hides, in a program longer than a phone's editor. */
const SHADOW = [
  'score = 10',
  'level = 2',
  '',
  'def reset():',
  '    score = 0',
  '    return score',
  '',
  ...Array.from({ length: 24 }, (_, i) => `bonus${i} = ${i} * level`),
  'reset()',
  'print(score)',
  '',
].join('\n');
/** input() inside a function called from a line of the module. */
const ASKS = 'def ask():\n    return input("Name? ")\n\nname = ask()\nprint("Hello,", name)\n';

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOTS, name) });
}

async function runModule(page, code, input = '') {
  await pasteCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await page.getByLabel('Input', { exact: true }).fill(input);
  await press(page, 'Restart');
}

/** The status line (a `div`: other live outputs, such as the text size, are statuses too). */
function statusLine(page) {
  return page.locator('div[role="status"]');
}

async function statusText(page) {
  return ((await statusLine(page).locator('.text').textContent()) ?? '').trim();
}

async function expectStatus(page, pattern) {
  await page
    .waitForFunction(([s, f]) => new RegExp(s, f).test(document.querySelector('div[role="status"] .text')?.textContent ?? ''), [pattern.source, pattern.flags], {
      timeout: STEP_TIMEOUT,
    })
    .catch(async () => assert.fail(`status ${JSON.stringify(await statusText(page))} does not match ${pattern}`));
}

/** The line numbers the editor shows, top to bottom (those inside its box). */
function visibleLines(page) {
  return page.evaluate(() => {
    const box = document.querySelector('.monaco-editor').getBoundingClientRect();
    return [...document.querySelectorAll('.monaco-editor .line-numbers')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && el.textContent.trim() !== '';
      })
      .map((el) => Number(el.textContent))
      .sort((a, b) => a - b);
  });
}

/** The Prediction panel is done with the last step. */
async function predicted(page) {
  await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: PREDICT_TIMEOUT });
}

for (const size of [
  { name: 'laptop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]) {
  describe(`a lesson in class, round three, on a ${size.name} (${size.width}×${size.height})`, () => {
    const app = useApp();
    let page;
    let errors;

    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });

    it('says where the run is at its first stop, never how it ends; a RecursionError stops where it is raised', async () => {
      await runModule(page, RECURSION);
      const first = (await statusLine(page).textContent()) ?? '';
      assert.match(first, /^\s*start of the module\s*$/);
      assert.doesNotMatch(first, /RecursionError|exception|ends/);
      assert.equal(await page.locator('.monaco-editor .ndb-error-line').count(), 0, 'no line is marked red before the run gets there');
      assert.deepEqual((await visibleLines(page)).slice(0, 1), [1]);
      await shot(page, `round3-first-stop-${size.name}.png`);
      // with raise stops on, Continue stops where the RecursionError is raised: the deepest call's line
      const stops = page.getByLabel('Stop where exceptions are raised');
      await stops.check();
      try {
        await press(page, 'Continue');
        await expectStatus(page, /^line 2 in fact, [\d,]+ calls deep: the call on this line raises RecursionError: maximum recursion depth exceeded$/);
        assert.equal(await page.locator('.monaco-editor .ndb-current-exception').count(), 1);
        assert.match(await region(page, 'Variables').locator('.special').textContent(), /Exception\s*RecursionError: maximum recursion depth exceeded/);
        await shot(page, `round3-recursion-raised-${size.name}.png`);
        await press(page, 'Continue');
        await expectStatus(page, /^Program ended with an uncaught exception: RecursionError/);
        assert.ok((await region(page, 'Variables').locator('.traceback li').count()) >= 2, 'the traceback is shown at the end');
        assert.equal(await page.locator('.monaco-editor .ndb-error-line').count(), 1, 'the failing line is marked at the end');
      } finally {
        await stops.uncheck();
      }
    });

    it('opens a long lesson at line 1 and shows the global a local hides, with its value', async () => {
      await runModule(page, SHADOW);
      await expectStatus(page, /^start of the module$/);
      assert.equal((await visibleLines(page))[0], 1, 'the editor shows the program from line 1');
      // on a phone, Variables takes at least a third of the screen at a stop
      if (size.name === 'phone') {
        const h = await region(page, 'Variables').evaluate((el) => el.getBoundingClientRect().height);
        assert.ok(h >= size.height / 3, `Variables is ${Math.round(h)} px tall on a ${size.height} px screen`);
      }
      // a breakpoint on `return score` (a tap on its line number), then Continue
      await page.locator('.monaco-editor .line-numbers').filter({ hasText: /^\s*6\s*$/ }).first().click();
      await press(page, 'Continue');
      await expectStatus(page, /^line 6 in reset$/);
      const vars = region(page, 'Variables');
      assert.equal((await variables(page)).values.score, '0');
      const global = vars.getByRole('table', { name: /Global/ }).locator('tr[data-global="score"]');
      assert.equal(await global.locator('code.v').textContent(), '10');
      assert.match(await global.textContent(), /hidden here by the local score/);
      if (size.name === 'phone') {
        const h = await vars.evaluate((el) => el.getBoundingClientRect().height);
        assert.ok(h >= size.height / 3, `Variables is ${Math.round(h)} px tall on a ${size.height} px screen`);
        await vars.scrollIntoViewIfNeeded();
      }
      await shot(page, `round3-shadowed-global-${size.name}.png`);
      await page.locator('.monaco-editor .line-numbers').filter({ hasText: /^\s*6\s*$/ }).first().click();
    });

    it('waits at input() like a terminal: no EOFError, no red, the field focused; Enter ends the same step after the line', async () => {
      await runModule(page, ASKS);
      await press(page, 'Step into');
      await press(page, 'Step into');
      await expectStatus(page, /^line 4 in <module>$/);
      const ask = page.getByLabel('Program input');
      assert.equal(await ask.count(), 0);
      await press(page, 'Step over');
      await expectStatus(page, /^line 2 in ask: waiting for input$/);
      await ask.waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(300);
      const seen = await ask.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { focused: document.activeElement === el, hit: top !== null && el.contains(top) };
      });
      assert.ok(seen.focused && seen.hit, `Program input is in view and focused: ${JSON.stringify(seen)}`);
      assert.doesNotMatch(await page.evaluate(() => document.body.innerText), /EOFError/);
      assert.match(await statusLine(page).getAttribute('class'), /\binfo\b/);
      assert.equal(await page.locator('.monaco-editor .ndb-current-exception, .monaco-editor .ndb-error-line').count(), 0);
      assert.equal(await region(page, 'Output').locator('pre').textContent(), 'Name? ');
      await shot(page, `round3-input-waits-${size.name}.png`);
      await ask.fill('Ada');
      await ask.press('Enter');
      await idle(page);
      // the Step over goes on as if the line had been typed: it ends after line 4, not inside ask
      await expectStatus(page, /^line 5 in <module>$/);
      assert.equal((await variables(page)).values.name, "'Ada'");
      assert.equal(await ask.count(), 0);
      assert.equal(await page.getByLabel('Input', { exact: true }).inputValue(), 'Ada\n');
    });

    it('takes the model\'s marker away at the end, shows no prediction of a stop it left, and checks the move the pupil picks', async () => {
      await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
      await idle(page);
      const panel = region(page, 'Prediction');
      await panel.getByLabel('Mode').selectOption({ label: 'Compare' });
      // three steps faster than the model answers: what is shown is the stop the page stands at
      for (let i = 0; i < 3; i++) {
        await button(page, 'Step into').click({ timeout: STEP_TIMEOUT });
        await idle(page);
      }
      await predicted(page);
      await page.waitForTimeout(300);
      const line = Number(/^line (\d+) in total/.exec(await statusText(page))?.[1]);
      const real = await panel.locator('tr[data-field="line"] td.real').textContent({ timeout: PREDICT_TIMEOUT });
      assert.equal(Number(real), line, 'the prediction shown is for the stop the debugger stands at');
      await shot(page, `round3-prediction-${size.name}.png`);
      // to the end: no dashed marker is left on a line Python has left
      await press(page, 'Continue');
      await expectStatus(page, /^Program finished/);
      await predicted(page);
      await page.waitForTimeout(500);
      assert.equal(await page.locator('.monaco-editor .ndb-ghost-line').count(), 0);
      // Predict first checks the move the pupil picks: Step into until another is picked
      await page.getByLabel('Predict first').check();
      try {
        await press(page, 'Restart');
        const check = panel.getByRole('button', { name: /^Check/ });
        assert.equal(await check.textContent(), 'Check: Step into');
        await press(page, 'Continue');
        assert.equal(await check.textContent(), 'Check: Step into', 'a toolbar move does not change the move checked');
        await press(page, 'Restart');
        await panel.getByLabel('Move').selectOption({ label: 'Step over' });
        assert.equal(await check.textContent(), 'Check: Step over');
        await page.getByLabel('Your next line').fill('2');
        await page.getByLabel('Your next line').press('Enter');
        await idle(page);
        await expectStatus(page, /^line 2 in total/);
        await page.getByRole('table', { name: 'Learner, model and truth' }).waitFor({ timeout: STEP_TIMEOUT });
        await predicted(page);
        await page.waitForTimeout(300);
        await shot(page, `round3-predict-first-${size.name}.png`);
      } finally {
        await page.getByLabel('Predict first').uncheck();
      }
    });

    it('says the load time measured when the page opened, whatever runs after', async () => {
      const footer = page.locator('footer .engine');
      const before = /loaded in ([\d.]+) s/.exec((await footer.textContent()) ?? '')?.[1];
      assert.ok(before, 'the footer says how long Python took to load');
      await runModule(page, RECURSION);
      await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
      await idle(page);
      assert.equal(/loaded in ([\d.]+) s/.exec((await footer.textContent()) ?? '')?.[1], before);
      assert.deepEqual(errors, []);
    });
  });
}
