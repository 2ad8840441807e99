// A lesson in class, round three (issue 46): projector mode. At 1366×768 the panels under the
// editor hold only the room they need, and with all four folded a 30-line program is wholly on
// screen; A− and A+ set the text size of the editor and the panels; a theme (light, dark, high
// contrast) follows the system unless one is picked, Monaco's with it, and red and green stay
// readable in each; a reload keeps all of it. At 150 % zoom of 1366×768 (911×512 CSS pixels)
// every toolbar button, Restart included, is on screen and nothing is wider than the window; on a
// phone (390×844) the switches are there too. Printing gives a handout, black on white: the program
// with line numbers and the current line marked, the state and the output. Leaves projector-*.png,
// the README's screenshot-projector.png and handout.pdf in e2e/screenshots/.
import assert from 'node:assert/strict';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, SCREENSHOTS, STEP_TIMEOUT, button, clickGlyph, clickLine, idle, openApp, pasteCode, press, status, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

/** 30 lines: a function of 28, called from the module. */
const THIRTY = [
  'def total(numbers):',
  '    s = 0',
  ...Array.from({ length: 26 }, (_, i) => `    s += numbers[${i % 5}] * ${i + 1}  # step ${i + 1}`),
  '    return s',
  'print(total([3, 1, 4, 1, 5]))',
].join('\n');

const LESSON = [
  'def fact(n):',
  '    if n <= 1:',
  '        return 1',
  '    return n * fact(n - 1)',
  '',
  'for i in range(3):',
  '    print("warming up", i)',
  'print(fact(4))',
].join('\n');

/** 24 lines: what a projected lesson shows (the README's screenshot). */
const REPORT = [
  'def grade(score):',
  '    if score >= 90:',
  '        return "A"',
  '    if score >= 75:',
  '        return "B"',
  '    if score >= 60:',
  '        return "C"',
  '    return "F"',
  '',
  '',
  'def report(students):',
  '    counts = {}',
  '    best = None',
  '    for name, score in students:',
  '        letter = grade(score)',
  '        counts[letter] = counts.get(letter, 0) + 1',
  '        if best is None or score > best[1]:',
  '            best = (name, score)',
  '        print(f"{name:6} {score:3} {letter}")',
  '    return counts, best',
  '',
  '',
  'pupils = [("Ada", 93), ("Alan", 71), ("Grace", 58)]',
  'print(report(pupils))',
].join('\n');

const TOOLBAR = ['Step into', 'Step over', 'Step out', 'Continue', 'Step back', 'Step back over', 'Back to call', 'Reverse continue', 'Restart'];
const LOWER = ['Call stack', 'Output', 'Watch', 'Model'];
const THEMES = [
  { label: 'Light theme', theme: 'light', monaco: 'vs' },
  { label: 'Dark theme', theme: 'dark', monaco: 'vs-dark' },
  { label: 'High contrast', theme: 'contrast', monaco: 'hc-black' },
];

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

function shot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return page.screenshot({ path: join(SCREENSHOTS, name) });
}

async function runModule(page, code) {
  await pasteCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await page.getByLabel('Input', { exact: true }).fill('');
  await press(page, 'Restart');
}

async function expectStatus(page, pattern) {
  await page
    .waitForFunction(([s, f]) => new RegExp(s, f).test(document.querySelector('[role="status"] .text')?.textContent ?? ''), [pattern.source, pattern.flags], {
      timeout: STEP_TIMEOUT,
    })
    .catch(async () => assert.fail(`status ${JSON.stringify(await status(page).textContent())} does not match ${pattern}`));
}

async function stepUntil(page, pattern, max = 40) {
  for (let i = 0; i < max; i++) {
    if (pattern.test((await status(page).locator('.text').textContent()) ?? '')) return;
    await press(page, 'Step into');
  }
  assert.fail(`the status never matched ${pattern}`);
}

/** The line numbers Monaco draws wholly inside the editor and the window, and whether it scrolls. */
function editorLines(page) {
  return page.evaluate(() => {
    const ed = document.querySelector('.monaco-editor').getBoundingClientRect();
    const top = Math.max(ed.top, 0);
    const bottom = Math.min(ed.bottom, innerHeight);
    const lines = [...document.querySelectorAll('.monaco-editor .line-numbers')]
      .filter((n) => {
        const r = n.getBoundingClientRect();
        return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1;
      })
      .map((n) => Number(n.textContent))
      .sort((a, b) => a - b);
    // Monaco scrolls with a slider of its own: as tall as its track when everything is in view
    const track = document.querySelector('.monaco-editor .scrollbar.vertical').getBoundingClientRect().height;
    const slider = document.querySelector('.monaco-editor .scrollbar.vertical .slider')?.getBoundingClientRect().height ?? track;
    return { lines, scrolls: slider < track - 1, height: Math.round(ed.height) };
  });
}

async function setFolded(page, names, folded) {
  for (const name of names) {
    const fold = region(page, name).locator('.fold');
    if ((await fold.getAttribute('aria-expanded')) === String(folded)) await fold.click();
    assert.equal(await fold.getAttribute('aria-expanded'), String(!folded), `${name} is ${folded ? 'folded' : 'shown'}`);
  }
  await page.waitForTimeout(300); // Monaco lays itself out on its next frame
}

async function assertNoHorizontalOverflow(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: innerWidth }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide on a ${width} px screen`);
}

/** On screen (inside the window, without scrolling the page sideways) and not covered. */
async function assertOnScreen(page, what, locator) {
  const p = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      rect: [r.left, r.top, r.right, r.bottom].map(Math.round),
      inside: r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight,
      uncovered: hit !== null && (el === hit || el.contains(hit)),
    };
  });
  assert.ok(p.inside, `${what} lies outside the window: ${JSON.stringify(p.rect)}`);
  assert.ok(p.uncovered, `${what} is covered: ${JSON.stringify(p.rect)}`);
}

/** Picks a theme with the switch and waits for the page and Monaco to show it. */
async function pickTheme(page, { label, theme, monaco }) {
  await page.getByLabel('Theme', { exact: true }).selectOption({ label });
  await page.waitForFunction(([t, m]) => document.documentElement.dataset.theme === t && document.querySelector('.monaco-editor')?.classList.contains(m), [theme, monaco], {
    timeout: STEP_TIMEOUT,
  });
}

/** WCAG's contrast ratio of two colours given as CSS (custom properties resolved by the page). */
function contrasts(page, pairs) {
  return page.evaluate((pairs) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const rgb = (css) => {
      probe.style.color = css;
      return getComputedStyle(probe).color.match(/[\d.]+/g).slice(0, 3).map(Number);
    };
    const lum = ([r, g, b]) => {
      const c = [r, g, b].map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    };
    const out = pairs.map(([fg, bg]) => {
      const [a, b] = [lum(rgb(fg)), lum(rgb(bg))];
      return { fg, bg, ratio: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 10) / 10 };
    });
    probe.remove();
    return out;
  }, pairs);
}

describe('projector mode', () => {
  const app = useApp();

  describe('on a projected laptop screen (1366×768)', () => {
    let page;
    let errors;
    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: 1366, height: 768 });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });
    after(async () => {
      // the next tabs of this profile start from the defaults
      await page.evaluate(() => localStorage.removeItem('ndb-prefs'));
      await page.close();
    });

    it('gives empty panels under the editor only the room they need, and the editor the rest', async () => {
      await runModule(page, THIRTY);
      await stepUntil(page, /^call of total \(line 1\)/);
      await page.waitForTimeout(300);
      const heights = await page.evaluate(() =>
        Object.fromEntries(['callstack', 'output', 'watch', 'model'].map((n) => [n, Math.round(document.querySelector(`.lower > .panel.${n}`).getBoundingClientRect().height)])),
      );
      // nothing printed, two frames: short panels (they grow with what they show, up to a limit)
      assert.ok(heights.output <= 100 && heights.callstack <= 100, `the empty panels are ${JSON.stringify(heights)} px tall`);
      assert.ok(heights.watch <= 90 && heights.model <= 90, `Watch and Model are ${JSON.stringify(heights)} px tall`);
      const { height, lines } = await editorLines(page);
      assert.ok(height >= 340, `the editor is ${height} px tall`);
      assert.ok(lines.length >= 17, `${lines.length} lines of the program are visible`);
      await assertNoHorizontalOverflow(page);
    });

    it('shows a 30-line program whole with the four panels under the editor folded, and a reload keeps them folded', async () => {
      await setFolded(page, LOWER, true);
      let seen = await editorLines(page);
      assert.deepEqual(seen.lines, Array.from({ length: 30 }, (_, i) => i + 1), `visible lines: ${seen.lines.join(' ')}`);
      assert.equal(seen.scrolls, false, 'the editor does not scroll');
      // the folded panels keep their headings (and their summaries) on screen
      for (const name of LOWER) await assertOnScreen(page, `the folded ${name}`, region(page, name).locator('.fold'));
      await assertOnScreen(page, 'Variables', region(page, 'Variables'));
      await assertNoHorizontalOverflow(page);
      await page.reload();
      await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      await idle(page);
      await page.locator('.monaco-editor .view-lines').waitFor({ timeout: LOAD_TIMEOUT });
      await page.waitForTimeout(300);
      for (const name of LOWER) assert.equal(await region(page, name).locator('.fold').getAttribute('aria-expanded'), 'false', `${name} stays folded`);
      seen = await editorLines(page);
      assert.equal(seen.lines.at(-1), 30, `after a reload the visible lines end at ${seen.lines.at(-1)}`);
      await setFolded(page, LOWER, false);
    });

    it('sets the text size of the editor and the panels with A− and A+, and a reload keeps it', async () => {
      const look = () =>
        page.evaluate(() => ({
          line: Math.round(document.querySelector('.monaco-editor .view-line').getBoundingClientRect().height),
          font: getComputedStyle(document.querySelector('.monaco-editor .view-lines')).fontSize,
          status: Math.round(document.querySelector('[role="status"] .text').getBoundingClientRect().height),
          size: document.querySelector('.view .px')?.textContent,
        }));
      const before = await look();
      assert.equal(before.font, '14px');
      assert.equal(before.size, '14');
      await page.getByRole('button', { name: 'Larger text' }).click();
      await page.getByRole('button', { name: 'Larger text' }).click();
      await page.waitForTimeout(300);
      const larger = await look();
      assert.equal(larger.font, '18px');
      assert.equal(larger.size, '18');
      assert.ok(larger.line > before.line, `a line of code is ${larger.line} px tall (${before.line} before)`);
      assert.ok(larger.status > before.status, `the status line's text is ${larger.status} px tall (${before.status} before)`);
      await assertNoHorizontalOverflow(page);
      await shot(page, 'projector-text-18.png');
      await page.reload();
      await page.locator('.monaco-editor .view-lines').waitFor({ timeout: LOAD_TIMEOUT });
      await page.waitForTimeout(300);
      assert.equal((await look()).font, '18px', 'a reload keeps the size');
      // at the ends the buttons are disabled
      for (let i = 0; i < 8; i++) if (await page.getByRole('button', { name: 'Smaller text' }).isEnabled()) await page.getByRole('button', { name: 'Smaller text' }).click();
      assert.equal(await page.getByRole('button', { name: 'Smaller text' }).isEnabled(), false);
      assert.equal((await look()).font, '12px');
      await page.getByRole('button', { name: 'Larger text' }).click();
      await page.waitForTimeout(300);
      assert.equal((await look()).font, '14px');
    });

    it('follows the system theme (dark, more contrast) until one is picked; Monaco follows; a reload keeps the pick', async () => {
      await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
      const shown = () => page.evaluate(() => ({ theme: document.documentElement.dataset.theme, monaco: document.querySelector('.monaco-editor').className }));
      assert.equal((await shown()).theme, 'light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark', null, { timeout: STEP_TIMEOUT });
      assert.match((await shown()).monaco, /\bvs-dark\b/);
      await page.emulateMedia({ colorScheme: 'dark', contrast: 'more' });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'contrast', null, { timeout: STEP_TIMEOUT });
      assert.match((await shown()).monaco, /\bhc-black\b/);
      // a pick wins over the system
      await pickTheme(page, THEMES[0]);
      await pickTheme(page, THEMES[1]);
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, 'rgb(13, 17, 23)');
      await page.emulateMedia({ colorScheme: 'light', contrast: 'no-preference' });
      await page.reload();
      await page.locator('.monaco-editor .view-lines').waitFor({ timeout: LOAD_TIMEOUT });
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && document.querySelector('.monaco-editor')?.classList.contains('vs-dark'), null, {
        timeout: STEP_TIMEOUT,
      });
      assert.equal(await page.getByLabel('Theme', { exact: true }).inputValue(), 'dark');
      await pickTheme(page, { label: 'System theme', theme: 'light', monaco: 'vs' });
    });

    it('keeps red (wrong) and green (right), the current line and a changed value readable in every theme', async () => {
      for (const t of THEMES) {
        await pickTheme(page, t);
        const pairs = [
          ['var(--fg)', 'var(--surface)'],
          ['var(--muted)', 'var(--surface)'],
          ['var(--bad)', 'var(--surface)'], // ✗ and a wrong field's name
          ['var(--ok)', 'var(--surface)'], // ✓
          ['var(--fg)', 'var(--bad-bg)'], // a wrong value, highlighted
          ['var(--bad)', 'var(--bad-bg)'], // a wrong field's value, in red on its highlight
          ['var(--bad-strong)', 'var(--surface)'], // the reasons a prediction is wrong
          ['var(--bad)', 'var(--error-bg)'],
          ['var(--fg)', 'var(--current-bg)'], // the current line (and frame)
          ['var(--fg)', 'var(--changed-bg)'], // a changed value
          ['var(--fg)', 'var(--return-bg)'],
          ['var(--fg)', 'var(--exception-bg)'],
          ['var(--accent)', 'var(--surface)'],
          ['var(--warn)', 'var(--surface)'],
          ['var(--fg)', 'var(--info-bg)'],
        ];
        for (const c of await contrasts(page, pairs)) assert.ok(c.ratio >= 4.5, `${t.theme}: ${c.fg} on ${c.bg} has a contrast of ${c.ratio}:1`);
        // red and green are told apart by more than their hue: both are marked (✓/✗) and far apart in hue
        const [bad, ok] = await page.evaluate(() => {
          const probe = document.createElement('span');
          document.body.append(probe);
          const read = (v) => {
            probe.style.color = `var(${v})`;
            return getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
          };
          const out = [read('--bad'), read('--ok')];
          probe.remove();
          return out;
        });
        assert.ok(bad[0] > bad[1] + 60, `${t.theme}: red is red (${bad})`);
        assert.ok(ok[1] > ok[0] + 60, `${t.theme}: green is green (${ok})`);
      }
      await pickTheme(page, { label: 'System theme', theme: 'light', monaco: 'vs' });
      assert.deepEqual(errors, []);
    });

    it('takes screenshots of the three themes at a stop with a prediction, and the README\'s projector screenshot', async () => {
      await page.getByLabel('Example').selectOption({ label: 'Insertion sort' });
      await idle(page);
      await clickGlyph(page, 7);
      await press(page, 'Continue');
      await press(page, 'Continue');
      await press(page, 'Step over');
      await expectStatus(page, /^line 8 in insertion_sort/);
      if ((await page.locator('main').getAttribute('data-model')) !== 'failed') {
        await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: 60_000 });
      }
      await page.mouse.move(0, 0);
      for (const t of THEMES) {
        await pickTheme(page, t);
        await page.waitForTimeout(200);
        await shot(page, `projector-${t.theme}-laptop.png`);
      }
      await clickGlyph(page, 7);
      // the README's: a lesson of 24 lines, dark, the panels under the editor folded, the text a size larger
      await pickTheme(page, THEMES[1]);
      await runModule(page, REPORT);
      await clickGlyph(page, 17);
      await press(page, 'Continue');
      await press(page, 'Continue');
      await press(page, 'Step over');
      await expectStatus(page, /^line 19 in report/);
      await setFolded(page, LOWER, true);
      await page.getByRole('button', { name: 'Larger text' }).click();
      if ((await page.locator('main').getAttribute('data-model')) !== 'failed') {
        await page.locator('section[aria-label="Prediction"][aria-busy="false"]').waitFor({ timeout: 60_000 });
      }
      await clickLine(page, 19); // no selection left from the paste
      await page.evaluate(() => document.activeElement?.blur());
      await page.waitForTimeout(400);
      assert.equal((await editorLines(page)).lines.at(-1), 24, 'the whole lesson is on screen at 16 px');
      await assertNoHorizontalOverflow(page);
      await page.mouse.move(0, 0);
      await shot(page, 'screenshot-projector.png');
      await page.getByRole('button', { name: 'Smaller text' }).click();
      await setFolded(page, LOWER, false);
      await clickGlyph(page, 17);
      await pickTheme(page, { label: 'System theme', theme: 'light', monaco: 'vs' });
      assert.deepEqual(errors, []);
    });

    it('prints a handout, black on white whatever the theme: the program with line numbers and the current line, the state, the output', async () => {
      await pickTheme(page, THEMES[1]);
      await runModule(page, LESSON);
      await clickGlyph(page, 7);
      await stepUntil(page, /^line 3 in fact/, 80);
      const stack = await region(page, 'Call stack').locator('li').count();
      await page.emulateMedia({ media: 'print' });
      try {
        const printed = await page.evaluate(() => {
          const shown = (el) => el !== null && getComputedStyle(el).display !== 'none' && el.getBoundingClientRect().height > 0;
          const handout = document.querySelector('.handout');
          const current = handout.querySelector('tr.current');
          return {
            app: shown(document.querySelector('.app')),
            toolbar: shown(document.querySelector('[role="toolbar"]')),
            editor: shown(document.querySelector('.monaco-editor')),
            handout: shown(handout),
            text: handout.innerText,
            numbers: [...handout.querySelectorAll('.source .num')].map((n) => n.textContent),
            current: current && { number: current.querySelector('.num').textContent, mark: current.querySelector('.mark').textContent, weight: getComputedStyle(current.querySelector('td')).fontWeight },
            breakpoint: handout.querySelector('tr.breakpoint .num')?.textContent,
            variables: [...handout.querySelectorAll('.state .values.locals tbody tr')].map((tr) => tr.innerText.replace(/\s+/g, ' ').trim()),
            frames: [...handout.querySelectorAll('.frames li')].map((li) => li.innerText.replace(/\s+/g, ' ').trim()),
            output: handout.querySelector('.output pre')?.textContent,
            colour: getComputedStyle(handout).color,
            page: getComputedStyle(document.body).backgroundColor,
          };
        });
        assert.equal(printed.app, false, 'the app is not printed');
        assert.equal(printed.toolbar, false, 'the toolbar is not printed');
        assert.equal(printed.editor, false, 'the editor is not printed');
        assert.equal(printed.handout, true, 'the handout is printed');
        assert.deepEqual(printed.numbers, ['1', '2', '3', '4', '5', '6', '7', '8']);
        assert.deepEqual(printed.current, { number: '3', mark: '▶', weight: '700' });
        assert.equal(printed.breakpoint, '7');
        assert.match(printed.text, /return n \* fact\(n - 1\)/);
        assert.match(printed.text, /Where it stands: line 3 in fact/);
        assert.deepEqual(printed.variables, ['n 1']);
        assert.equal(printed.frames.length, stack);
        assert.match(printed.frames[0], /^fact\(n=1\) line 3$/);
        assert.match(printed.frames.at(-1), /^<module> line 8$/);
        assert.equal(printed.output, 'warming up 0\nwarming up 1\nwarming up 2\n');
        assert.equal(printed.colour, 'rgb(0, 0, 0)');
        assert.equal(printed.page, 'rgb(255, 255, 255)');
      } finally {
        await page.emulateMedia({ media: null });
      }
      // page.pdf prints with the print stylesheet, as the browser's Print does
      mkdirSync(SCREENSHOTS, { recursive: true });
      const pdf = join(SCREENSHOTS, 'handout.pdf');
      await page.pdf({ path: pdf, format: 'A4', printBackground: true });
      assert.ok(statSync(pdf).size > 5000, 'a PDF was written');
      await clickGlyph(page, 7);
      await pickTheme(page, { label: 'System theme', theme: 'light', monaco: 'vs' });
      assert.deepEqual(errors, []);
    });
  });

  describe('at 150 % zoom of a 1366×768 screen (911×512 CSS pixels)', () => {
    let page;
    let errors;
    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: 911, height: 512 });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });
    after(() => page.close());

    it('keeps every toolbar button on screen, Restart included, and nothing wider than the window', async () => {
      for (const name of TOOLBAR) await assertOnScreen(page, `the ${name} button`, button(page, name));
      for (const name of ['Smaller text', 'Larger text']) await assertOnScreen(page, `the ${name} button`, page.getByRole('button', { name }));
      await assertOnScreen(page, 'the theme switch', page.getByLabel('Theme', { exact: true }));
      await assertNoHorizontalOverflow(page);
      // and they work: a step, then Restart
      await press(page, 'Step into');
      await press(page, 'Restart');
      // the toolbar stays on top when the page scrolls
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(200);
      await assertOnScreen(page, 'the Restart button after scrolling', button(page, 'Restart'));
      await page.mouse.wheel(0, -400);
      await setFolded(page, LOWER, true);
      await assertNoHorizontalOverflow(page);
      await shot(page, 'projector-150-folded.png');
      await setFolded(page, LOWER, false);
      await assertNoHorizontalOverflow(page);
      await shot(page, 'projector-150.png');
      assert.deepEqual(errors, []);
    });
  });

  describe('on a phone (390×844)', () => {
    let page;
    let errors;
    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}?backend=wasm`);
    });
    after(() => page.close());

    it('offers the text size and the theme, with nothing wider than the screen in any theme', async () => {
      await page.getByLabel('Example').selectOption({ label: 'Nested calls' });
      await idle(page);
      await press(page, 'Step into');
      await press(page, 'Step into');
      await page.getByRole('button', { name: 'Larger text' }).scrollIntoViewIfNeeded();
      await assertOnScreen(page, 'the Larger text button', page.getByRole('button', { name: 'Larger text' }));
      for (const t of THEMES) {
        await pickTheme(page, t);
        await page.evaluate(() => scrollTo(0, 0));
        await page.waitForTimeout(200);
        await assertNoHorizontalOverflow(page);
        await shot(page, `projector-${t.theme}-phone.png`);
      }
      await page.getByRole('button', { name: 'Larger text' }).click();
      await page.waitForTimeout(300);
      await assertNoHorizontalOverflow(page);
      await page.evaluate(() => scrollTo(0, 0));
      await shot(page, 'projector-text-16-phone.png');
      await page.getByRole('button', { name: 'Smaller text' }).click();
      await pickTheme(page, { label: 'System theme', theme: 'light', monaco: 'vs' });
      assert.deepEqual(errors, []);
    });
  });
});
