// A lesson in class, round two (issue 35): Predict first from the keyboard and the Check button
// with the model following (scored, no error); two names for one list beside an equal third one;
// globals and a closure's nonlocal; a 6-deep recursion whose frames show their arguments; 30 lines
// of output; input() typed live. At 1366×768 and 390×844. Leaves classroom-*.png in
// e2e/screenshots/ to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, SCREENSHOTS, STEP_TIMEOUT, callStack, clickGlyph, idle, openApp, pasteCode, press, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const PREDICT_TIMEOUT = 60_000;

const ALIASING = 'a = [1, 2]\nb = a\nc = [1, 2]\nprint(a == c)\nb.append(3)\nprint(a)\n';
const GLOBALS = [
  'counter = 0',
  '',
  'def bump():',
  '    global counter',
  '    counter += 1',
  '',
  'def make_counter():',
  '    count = 0',
  '    def inc():',
  '        nonlocal count',
  '        count += 1',
  '        return count',
  '    return inc',
  '',
  'bump()',
  'tick = make_counter()',
  'tick()',
  '',
].join('\n');
/** 30 lines of output, then a 6-deep recursion that stops at its base case (line 4). */
const PROJECTED = [
  'def fact(n):',
  '    if n <= 1:',
  '        print("base case")',
  '        return 1',
  '    return n * fact(n - 1)',
  '',
  'for i in range(30):',
  '    print("line", i)',
  ...Array.from({ length: 22 }, (_, i) => `# a comment to make the program long, ${i + 1}`),
  'print(fact(6))',
  '',
].join('\n');
const ASKS = 'name = input("Name? ")\nage = input("Age? ")\nprint(f"Hello, {name}, {age}")\n';
/** The README's lesson screenshot: aliasing across frames, a global, a recursion's arguments. */
const LESSON = [
  'calls = 0',
  '',
  'def fact(n, seen):',
  '    global calls',
  '    calls += 1',
  '    seen.append(n)',
  '    if n <= 1:',
  '        return 1',
  '    return n * fact(n - 1, seen)',
  '',
  'trail = []',
  'log = trail',
  'for i in range(3):',
  '    print("warming up", i)',
  'print(fact(4, trail))',
  '',
].join('\n');
const RECURSION = 'def fact(n):\n    if n <= 1:\n        return 1\n    return n * fact(n - 1)\n\nprint(fact(6))\n';

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

/** Steps into until the status line matches (at most `max` steps). */
async function stepUntil(page, pattern, max = 40) {
  for (let i = 0; i < max; i++) {
    const text = (await page.getByRole('status').locator('.text').textContent()) ?? '';
    if (pattern.test(text)) return;
    await press(page, 'Step into');
  }
  assert.fail(`the status never matched ${pattern}`);
}

/** How many of a region's frames (list items) and lines of text (a pre) are wholly visible: inside
 * its scroller, inside the window, not folded. */
async function visibleRows(page, name) {
  return region(page, name).evaluate((el) => {
    const body = el.querySelector('.body');
    const box = body.getBoundingClientRect();
    const top = Math.max(box.top, 0);
    const bottom = Math.min(box.bottom, innerHeight);
    const inside = (r) => r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1;
    const frames = [...el.querySelectorAll('li')].filter((li) => inside(li.getBoundingClientRect())).length;
    const pre = el.querySelector('pre');
    let lines = 0;
    if (pre) {
      const range = document.createRange();
      range.selectNodeContents(pre);
      const tops = new Set([...range.getClientRects()].filter(inside).map((r) => Math.round(r.top)));
      lines = tops.size;
    }
    return { frames, lines };
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
  describe(`a lesson in class, round two, on a ${size.name} (${size.width}×${size.height})`, () => {
    const app = useApp();
    let page;
    let errors;

    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });

    it('shows Variables, readable, on the first screen (above a phone\'s toolbar)', async () => {
      const vars = region(page, 'Variables');
      await vars.locator('tr[data-name]').first().waitFor({ timeout: STEP_TIMEOUT });
      const seen = await vars.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const bar = document.querySelector('[role="toolbar"]').getBoundingClientRect();
        const limit = bar.top > innerHeight / 2 ? bar.top : innerHeight;
        const row = el.querySelector('tr[data-name]').getBoundingClientRect();
        return { top: Math.round(r.top), bottom: Math.round(r.bottom), limit: Math.round(limit), rowBottom: Math.round(row.bottom), scrollY };
      });
      assert.equal(seen.scrollY, 0);
      assert.ok(seen.rowBottom <= seen.limit && seen.bottom - seen.top >= 60, `Variables on the first screen: ${JSON.stringify(seen)}`);
    });

    it('Predict first from the keyboard and the Check button: scored beside the model, no error', async () => {
      await page.locator('main[data-model="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await page.getByLabel('Example').selectOption({ label: 'A for loop that sums' });
      await idle(page);
      const panel = region(page, 'Prediction');
      await panel.getByLabel('Mode').selectOption({ label: 'Compare' });
      await page.getByLabel('Predict first').check();
      const reveal = page.getByRole('table', { name: 'Learner, model and truth' });
      // Enter in "Your next line"
      await page.getByLabel('Your next line').fill('2');
      await page.getByLabel('Your next line').press('Enter');
      await idle(page);
      await reveal.waitFor({ timeout: STEP_TIMEOUT });
      await predicted(page);
      assert.doesNotMatch(await panel.textContent(), /failed|could not be cloned/);
      assert.match(await panel.locator('p.tally').last().textContent(), /You: 1 of 1 lines/);
      // the model's answer is in the reveal (not "no prediction")
      await page.waitForFunction(() => !/no prediction/.test(document.querySelector('tr[data-who="model"]')?.textContent ?? 'no prediction'), null, {
        timeout: PREDICT_TIMEOUT,
      });
      // The Check button
      await page.getByLabel('Your next line').fill('3');
      await panel.getByRole('button', { name: /^Check/ }).click();
      await idle(page);
      await predicted(page);
      await page.waitForFunction(() => /You: \d of 2 lines/.test([...document.querySelectorAll('p.tally')].at(-1)?.textContent ?? ''), null, {
        timeout: STEP_TIMEOUT,
      });
      assert.doesNotMatch(await panel.textContent(), /failed|could not be cloned/);
      assert.match(await panel.locator('p.tally').last().textContent(), /Model, on the same steps: \d of 2 lines/);
      // green says "right": the model's confidence is never green, however sure it is
      const greens = await panel.locator('.sure').evaluateAll((els) => els.filter((e) => /^rgb\(\s*\d+,\s*(1[2-9]\d|2\d\d),\s*\d+\)$/.test(getComputedStyle(e).color) && (() => { const [r, g, b] = getComputedStyle(e).color.match(/\d+/g).map(Number); return g > r + 40 && g > b + 40; })()).length);
      assert.equal(greens, 0);
      await page.getByLabel('Predict first').uncheck();
      assert.deepEqual(errors, []);
    });

    it('shows two names for one list as one object, and an equal third list as another', async () => {
      await runModule(page, ALIASING);
      await stepUntil(page, /^line 5 in <module>/);
      const vars = region(page, 'Variables');
      const row = (name) => vars.locator(`tr[data-name="${name}"]`);
      // before the append: one object, two names
      assert.match(await row('b').textContent(), /same object as a\b/);
      assert.match(await row('a').textContent(), /same object as b\b/);
      assert.doesNotMatch(await row('c').textContent(), /same object/);
      await press(page, 'Step over');
      // mutating through b changes what a shows; c, equal before, is not touched
      assert.match(await row('a').locator('code.v').textContent(), /^\[1, 2, 3\]$/);
      assert.match(await row('b').locator('code.v').textContent(), /^\[1, 2, 3\]$/);
      assert.match(await row('c').locator('code.v').textContent(), /^\[1, 2\]$/);
      assert.ok((await row('a').getAttribute('class')).includes('changed'), 'a is marked changed by b.append');
      // the heap: two arrows into one box for a and b, a box of its own for c
      await vars.getByRole('button', { name: 'Heap', exact: true }).click();
      const heap = vars.getByRole('figure', { name: /Heap/ });
      await heap.waitFor({ timeout: STEP_TIMEOUT });
      // each list a box of cells under their indices, a and b two arrows into the first
      const boxes = heap.locator('g.box');
      assert.equal(await boxes.count(), 2);
      assert.deepEqual(await boxes.nth(0).locator('text.t.cell').allTextContents(), ['1', '2', '3']);
      assert.deepEqual(await boxes.nth(1).locator('text.t.cell').allTextContents(), ['1', '2']);
      assert.match(await boxes.nth(0).getAttribute('class'), /\bshared\b/);
      const ids = await boxes.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-object'))));
      const arrows = await heap.locator('path.arrow').evaluateAll((ps) => ps.map((p) => [p.getAttribute('data-from'), Number(p.getAttribute('data-to'))]));
      assert.deepEqual(arrows, [['a', ids[0]], ['b', ids[0]], ['c', ids[1]]]);
      assert.match(await heap.textContent(), /b refers to object #\d+, a list/);
      // the arrows end at their boxes' left sides, as drawn
      const ends = await heap.evaluate((fig) =>
        [...fig.querySelectorAll('path.arrow')].map((p) => {
          const end = p.getPointAtLength(p.getTotalLength());
          const box = fig.querySelector(`g.box[data-object="${p.getAttribute('data-to')}"] rect.outline`).getBBox();
          return Math.abs(end.x - box.x) < 1.5 && end.y >= box.y - 1 && end.y <= box.y + box.height + 1;
        }),
      );
      assert.deepEqual(ends, [true, true, true]);
      await shot(page, `classroom-aliasing-${size.name}.png`);
      await vars.getByRole('button', { name: 'Heap', exact: true }).click();
      await heap.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    });

    it('shows the globals a function changes under a heading, and a closure\'s nonlocal variable', async () => {
      await runModule(page, GLOBALS);
      await stepUntil(page, /^line 5 in bump/);
      const vars = region(page, 'Variables');
      const heading = vars.getByRole('heading', { name: /Global/ });
      await heading.waitFor({ timeout: STEP_TIMEOUT });
      const globals = vars.getByRole('table', { name: /Global/ });
      assert.equal(await globals.locator('tr[data-global="counter"] code.v').textContent(), '0');
      // a function is a definition, not a variable of the lesson
      assert.equal(await globals.locator('tr[data-global="bump"]').count(), 0);
      await press(page, 'Step over');
      assert.equal(await globals.locator('tr[data-global="counter"] code.v').textContent(), '1');
      assert.ok((await globals.locator('tr[data-global="counter"]').getAttribute('class')).includes('changed'));
      await stepUntil(page, /^line 11 in inc/);
      const count = vars.locator('tr[data-name="count"]');
      assert.match(await count.textContent(), /nonlocal, from make_counter/);
      await shot(page, `classroom-globals-${size.name}.png`);
    });

    it('names each frame of a recursion with its argument', async () => {
      await runModule(page, RECURSION);
      await stepUntil(page, /^call of fact \(line 1\)/, 60);
      for (let i = 0; i < 6; i++) {
        const frames = await callStack(page);
        if (frames.length >= 7) break;
        await stepUntil(page, /^line 4 in fact/, 10);
        await press(page, 'Step into');
      }
      const frames = await callStack(page);
      assert.equal(frames.length, 7, JSON.stringify(frames));
      assert.match(frames[0], /^fact\(n=1\) line 1$/);
      assert.deepEqual(frames.slice(0, 6).map((f) => f.replace(/ line \d+$/, '')), ['fact(n=1)', 'fact(n=2)', 'fact(n=3)', 'fact(n=4)', 'fact(n=5)', 'fact(n=6)']);
      assert.match(frames[6], /^<module> line 6$/);
      await shot(page, `classroom-recursion-${size.name}.png`);
    });

    it('asks for input() live under Output, goes on with what is typed, and keeps it in the Input field and the link', async () => {
      await runModule(page, ASKS);
      const out = region(page, 'Output');
      const ask = page.getByLabel('Program input');
      assert.equal(await ask.count(), 0);
      await press(page, 'Continue');
      await ask.waitFor({ timeout: STEP_TIMEOUT });
      assert.equal(await out.locator('pre').textContent(), 'Name? ');
      assert.match(await page.locator('div[role="status"]').textContent(), /type it in "Program input"/);
      await ask.fill('Ada');
      await ask.press('Enter');
      await idle(page);
      // the run went on: input() read the line, and the same Continue waits at the next input(), as a terminal does
      await page.waitForFunction(() => /^line 2 in <module>: waiting for input$/.test(document.querySelector('[role="status"] .text')?.textContent ?? ''), null, { timeout: STEP_TIMEOUT });
      assert.equal(await page.locator('tr[data-name="name"] code.v').textContent(), "'Ada'");
      assert.equal(await out.locator('pre').textContent(), 'Name? Ada\nAge? ');
      // a forward move while it waits still waits (now to step over the line once it is typed)
      await press(page, 'Step over');
      await ask.waitFor({ timeout: STEP_TIMEOUT });
      // the model's answer arriving later does not push the waiting field out of sight
      await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
      await page.waitForTimeout(300);
      const seen = await ask.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { focused: document.activeElement === el, hit: top !== null && el.contains(top), box: [r.left, r.top, r.right, r.bottom].map(Math.round) };
      });
      assert.ok(seen.focused && seen.hit, `Program input is in view and focused: ${JSON.stringify(seen)}`);
      await shot(page, `classroom-input-${size.name}.png`);
      await ask.fill('36');
      await page.getByRole('button', { name: 'Send' }).click();
      await idle(page);
      await page.waitForFunction(() => /^line 3 in <module>/.test(document.querySelector('[role="status"] .text')?.textContent ?? ''), null, { timeout: STEP_TIMEOUT });
      await press(page, 'Continue');
      assert.equal(await out.locator('pre').textContent(), 'Name? Ada\nAge? 36\nHello, Ada, 36\n');
      assert.equal(await page.getByLabel('Input', { exact: true }).inputValue(), 'Ada\n36\n');
      await page.waitForFunction(() => /[#&]in=Ada%0A36/.test(location.hash), null, { timeout: STEP_TIMEOUT });
      assert.equal(await ask.count(), 0);
    });

    it('takes the README\'s lesson screenshot: one list under three names, a global, frames with their arguments', async () => {
      await runModule(page, LESSON);
      await stepUntil(page, /^line 7 in fact/, 80);
      for (let depth = 0; depth < 3; depth++) {
        await press(page, 'Step into');
        await stepUntil(page, /^line 7 in fact/, 12);
      }
      await press(page, 'Step over');
      const frames = await callStack(page);
      // one list under every name: each frame shows it as it is now
      assert.deepEqual(frames.slice(0, 4).map((f) => f.replace(/ line \d+$/, '')), [1, 2, 3, 4].map((n) => `fact(n=${n}, seen=[4, 3, 2, 1])`));
      const vars = region(page, 'Variables');
      assert.match(await vars.locator('tr[data-name="seen"]').textContent(), /same object as trail \(global\), log \(global\)/);
      assert.match(await vars.locator('tr[data-global="log"]').textContent(), /same object as seen, trail/);
      await predicted(page);
      await page.waitForTimeout(300);
      await shot(page, size.name === 'phone' ? 'screenshot-lesson-phone.png' : 'screenshot-lesson.png');
    });

    // a projected lesson is a laptop's screen: the phone runs no variant of it (rather than a skipped one)
    const onLaptop = size.name === 'phone' ? () => {} : it;
    onLaptop('shows 6 frames of a recursion and the last 12 lines of its output at once, nothing folded (a projected lesson)', async () => {
      await runModule(page, PROJECTED);
      // a click on a line number sets a breakpoint and selects no text
      await page.locator('.monaco-editor .line-numbers').filter({ hasText: /^\s*3\s*$/ }).first().click();
      assert.equal(await page.locator('.monaco-editor .ndb-breakpoint').count(), 1);
      await page.waitForTimeout(100);
      assert.equal(await page.locator('.monaco-editor .selected-text').count(), 0, 'no text is selected');
      await press(page, 'Continue');
      await page.waitForFunction(() => /^line 3 in fact/.test(document.querySelector('[role="status"] .text')?.textContent ?? ''), null, { timeout: STEP_TIMEOUT });
      assert.equal((await callStack(page)).length, 7);
      for (const folded of await page.locator('section.panel .fold[aria-expanded="false"]').all()) assert.fail(`${await folded.textContent()} is folded`);
      const stack = await visibleRows(page, 'Call stack');
      const out = await visibleRows(page, 'Output');
      assert.ok(stack.frames >= 6, `${stack.frames} frames are visible`);
      assert.ok(out.lines >= 12, `${out.lines} lines of output are visible`);
      await shot(page, `classroom-projected-${size.name}.png`);
      await clickGlyph(page, 3);
    });
  });
}

describe('the embed in a 358 px frame on a phone', () => {
  const app = useApp();

  it('fits its frame with every button reachable, the stack named, input asked for live', async () => {
    const page = await app.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page, `${app.server.url}?model=none`);
    await runModule(page, 'def greet(who):\n    return "Hello, " + who\n\nname = input("Name? ")\nprint(greet(name))\n');
    await page.getByRole('button', { name: /embed/i }).click();
    await page.getByText('Embed code copied').waitFor({ timeout: STEP_TIMEOUT });
    const snippet = (await page.evaluate(() => navigator.clipboard.readText())).replace('width="700" height="500"', 'width="358" height="600"');
    const course = await app.browser.context.newPage();
    await course.setViewportSize({ width: 390, height: 844 });
    const errors = watchErrors(course);
    await course.setContent(`<!doctype html><html><body style="margin:16px"><h1>Lesson 5</h1>${snippet}</body></html>`);
    const frame = course.frameLocator('iframe');
    await frame.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
    const fits = await frame.locator('html').evaluate(() => ({ w: document.documentElement.scrollWidth, vw: innerWidth }));
    assert.ok(fits.w <= fits.vw, `the embed is ${fits.w} px wide in a ${fits.vw} px frame`);
    const toolbar = ['Step into', 'Step over', 'Step out', 'Continue', 'Step back', 'Step back over', 'Back to call', 'Reverse continue', 'Restart'];
    const reach = async () => {
      for (const name of toolbar) {
        const b = frame.getByRole('button', { name, exact: true });
        await b.scrollIntoViewIfNeeded();
        const hit = await b.evaluate((el) => {
          const r = el.getBoundingClientRect();
          const inside = r.left >= 0 && r.right <= innerWidth + 0.5 && r.top >= 0 && r.bottom <= innerHeight + 0.5;
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return { inside, hit: top !== null && el.contains(top), box: [r.left, r.top, r.right, r.bottom].map(Math.round) };
        });
        assert.ok(hit.inside && hit.hit, `${name} is reachable: ${JSON.stringify(hit)}`);
      }
    };
    await reach();
    await frame.getByRole('button', { name: 'Step into', exact: true }).click();
    for (let i = 0; i < 3; i++) {
      await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
      await frame.getByRole('button', { name: 'Step into', exact: true }).click();
    }
    await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
    // input() found no line: the embed asks for it under Output
    const ask = frame.getByLabel('Program input');
    await ask.waitFor({ timeout: STEP_TIMEOUT });
    await ask.fill('Ada');
    await ask.press('Enter');
    await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
    await frame.getByRole('button', { name: 'Step into', exact: true }).click();
    await frame.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
    await frame.getByRole('status').locator('.text').filter({ hasText: /call of greet/ }).waitFor({ timeout: STEP_TIMEOUT });
    const stack = await frame.getByRole('region', { name: 'Call stack', exact: true }).locator('li').allInnerTexts();
    assert.match(stack[0].replace(/\s+/g, ' '), /^greet\(who='Ada'\) line 1$/);
    await reach();
    const open = await frame.getByRole('link', { name: /Open in ndb/ }).evaluate((a) => {
      const r = a.getBoundingClientRect();
      const bar = document.querySelector('[role="toolbar"]').getBoundingClientRect();
      return { overlaps: !(r.bottom <= bar.top || r.top >= bar.bottom || r.right <= bar.left || r.left >= bar.right) };
    });
    assert.equal(open.overlaps, false, 'Open in ndb does not overlap the toolbar');
    await course.screenshot({ path: join(SCREENSHOTS, 'classroom-embed-phone.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
});
