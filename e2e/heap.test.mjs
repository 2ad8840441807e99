// The heap as Python Tutor draws it (issue 46): `grid = [[0] * 3] * 3` is one inner list with
// three arrows into it, and `grid[0][1] = 5` shows in that one box; an instance shows Python's own
// repr, its attributes and an arrow to its class, whose class attribute list (`tricks = []`,
// shared by mistake) is a box of its own; Variables' unfold says "same object as grid[0]" between
// items and shows a class's attributes under an instance. On a laptop (1366×768) and a phone
// (390×844), the page never scrolls sideways (the drawing does, inside its panel). Leaves
// screenshot-heap.png and screenshot-heap-phone.png in e2e/screenshots/ (the README's).
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { LOAD_TIMEOUT, SCREENSHOTS, STEP_TIMEOUT, openApp, pasteCode, press, watchErrors } from './helpers.mjs';
import { useApp } from './setup.mjs';

const GRID = ['grid = [[0] * 3] * 3', 'grid[0][1] = 5', 'print(grid)', ''].join('\n');

const PETS = [
  'class Pet:',
  '    tricks = []  # one list, shared by every Pet',
  '    def __init__(self, name):',
  '        self.name = name',
  '    def add_trick(self, trick):',
  '        self.tricks.append(trick)',
  '',
  'rex = Pet("Rex")',
  'tom = Pet("Tom")',
  'rex.add_trick("roll over")',
  'print(tom.tricks)',
  '',
].join('\n');

const SIZES = [
  { name: 'laptop', width: 1366, height: 768, shot: 'screenshot-heap.png' },
  { name: 'phone', width: 390, height: 844, shot: 'screenshot-heap-phone.png' },
];

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

async function statusText(page) {
  return ((await page.getByRole('status').locator('.text').textContent()) ?? '').trim();
}

async function runModule(page, code) {
  await pasteCode(page, code);
  await page.getByLabel('Call', { exact: true }).fill('');
  await page.getByLabel('Input', { exact: true }).fill('');
  await press(page, 'Restart');
}

async function stepUntil(page, pattern, max = 40) {
  for (let i = 0; i < max; i++) {
    if (pattern.test(await statusText(page))) return;
    await press(page, 'Step into');
  }
  assert.fail(`the status never matched ${pattern} (last: ${await statusText(page)})`);
}

/** The Heap switch on, and the drawing. */
async function heapOn(page) {
  const vars = region(page, 'Variables');
  const toggle = vars.getByRole('button', { name: 'Heap', exact: true });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  const heap = vars.getByRole('figure', { name: /Heap/ });
  await heap.waitFor({ timeout: STEP_TIMEOUT });
  return heap;
}

/** Whether the page scrolls sideways. */
async function pageOverflow(page) {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

for (const size of SIZES) {
  describe(`the heap on a ${size.name} (${size.width}×${size.height})`, () => {
    const app = useApp();
    let page;
    let errors;

    before(async () => {
      page = await app.browser.context.newPage();
      await page.setViewportSize({ width: size.width, height: size.height });
      errors = watchErrors(page);
      await openApp(page, `${app.server.url}/`);
      await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
    });

    it('draws grid = [[0] * 3] * 3 as one inner list with three arrows into it, the 5 in that one box', async () => {
      await runModule(page, GRID);
      await stepUntil(page, /^line 3 in <module>/);
      const heap = await heapOn(page);
      const boxes = heap.locator('g.box');
      assert.equal(await boxes.count(), 2, 'the outer list and one inner list');
      const [outer, inner] = await boxes.evaluateAll((gs) => gs.map((g) => g.getAttribute('data-object')));
      assert.deepEqual(await heap.locator('g.box text.title').allTextContents(), ['list', 'list']);
      // the outer list's three cells are arrows, all three into the inner box
      const arrows = await heap.locator('path.arrow').evaluateAll((ps) => ps.map((p) => [p.getAttribute('data-from'), p.getAttribute('data-to')]));
      assert.deepEqual(arrows, [
        ['grid', outer],
        ['grid[0]', inner],
        ['grid[1]', inner],
        ['grid[2]', inner],
      ]);
      assert.equal(await heap.locator(`g.box[data-object="${outer}"] circle.dot`).count(), 3);
      assert.deepEqual(await heap.locator(`g.box[data-object="${inner}"] text.t.cell`).allTextContents(), ['0', '5', '0']);
      assert.match(await heap.locator(`g.box[data-object="${inner}"]`).getAttribute('class'), /\bshared\b/);
      // each arrow ends at the inner box's left side
      const ends = await heap.evaluate((fig, id) => {
        const box = fig.querySelector(`g.box[data-object="${id}"] rect.outline`).getBBox();
        return [...fig.querySelectorAll(`path.arrow[data-to="${id}"]`)].map((p) => {
          const end = p.getPointAtLength(p.getTotalLength());
          return Math.abs(end.x - box.x) < 1.5 && end.y > box.y && end.y < box.y + box.height;
        });
      }, inner);
      assert.deepEqual(ends, [true, true, true]);
      // in words, for a screen reader
      assert.match(await heap.textContent(), /grid\[1\] refers to object #\d+, a list/);

      // Variables: grid's rows unfold, the second and third say which object they are
      const vars = region(page, 'Variables');
      await vars.getByRole('button', { name: 'Unfold grid', exact: true }).click();
      const parts = vars.getByRole('list', { name: 'Parts of grid' });
      assert.deepEqual(
        (await parts.locator(':scope > li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()),
        ['▸ [0] = [0, 5, 0]', '▸ [1] = [0, 5, 0] same object as grid[0]', '▸ [2] = [0, 5, 0] same object as grid[0]'],
      );
      assert.ok((await pageOverflow(page)) <= 0, 'the page does not scroll sideways');
      // the README's picture: on the laptop the Prediction folded away, so that Variables has the
      // room to show grid's rows and the heap together (a phone's page scrolls to them)
      const fold = region(page, 'Prediction').getByRole('button', { name: 'Prediction', exact: true });
      if (size.name === 'laptop') await fold.click();
      await heap.scrollIntoViewIfNeeded();
      await vars.locator('tr[data-name="grid"]').scrollIntoViewIfNeeded();
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, size.shot) });
      if (size.name === 'laptop') await fold.click();
      await vars.getByRole('button', { name: 'Fold grid', exact: true }).click();
      assert.deepEqual(errors, []);
    });

    it('draws two instances with Python\'s own repr and one arrow each to their class, whose tricks list is a box', async () => {
      await runModule(page, PETS);
      await stepUntil(page, /^line 11 in <module>/);
      const heap = await heapOn(page);
      assert.deepEqual(await heap.locator('g.box text.title').allTextContents(), ['Pet instance', 'Pet class', 'list', 'Pet instance']);
      const cls = heap.locator('g.box[data-kind="class"]');
      assert.deepEqual(await cls.locator('text.t.key').allTextContents(), ['tricks', 'add_trick']);
      const pet = await cls.getAttribute('data-object');
      const instances = heap.locator('g.box[data-kind="instance"]');
      assert.deepEqual(await instances.locator('text.t.repr').allTextContents(), ['<__main__.Pet object at 0x…>', '<__main__.Pet object at 0x…>']);
      assert.deepEqual(await instances.locator('text.t.value').allTextContents(), ["'Rex'", "'Tom'"]);
      // an arrow from each instance's __class__ into the one class; tricks, from the class, to its list
      const arrows = await heap.locator('path.arrow').evaluateAll((ps) => ps.map((p) => [p.getAttribute('data-from'), p.getAttribute('data-to')]));
      assert.deepEqual(
        arrows.filter(([, to]) => to === pet).map(([from]) => from),
        ['type(rex)', 'type(tom)'],
      );
      const tricks = arrows.find(([from]) => from === 'Pet.tricks')?.[1];
      assert.ok(tricks, 'Pet.tricks is an arrow');
      assert.deepEqual(await heap.locator(`g.box[data-object="${tricks}"] text.t.cell`).allTextContents(), ["'roll over'"]);

      // Variables: tom unfolds into Python's repr, its name, and its class's tricks (rex's trick)
      const vars = region(page, 'Variables');
      await vars.getByRole('button', { name: 'Unfold tom', exact: true }).click();
      const parts = vars.getByRole('list', { name: 'Parts of tom' });
      assert.deepEqual(
        (await parts.locator(':scope > li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()),
        ['<__main__.Pet object at 0x…>', "name = 'Tom'", 'class Pet', "▸ tricks = ['roll over']"],
      );
      assert.ok((await pageOverflow(page)) <= 0, 'the page does not scroll sideways');
      await heap.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, `heap-pets-${size.name}.png`) });
      await vars.getByRole('button', { name: 'Fold tom', exact: true }).click();

      // stepping back redraws the heap as it was: before add_trick, tricks is empty
      for (let i = 0; i < 6 && !/^line 10 in <module>/.test(await statusText(page)); i++) await press(page, 'Step back');
      assert.match(await statusText(page), /^line 10 in <module>/);
      assert.deepEqual(await heap.locator(`g.box[data-object="${tricks}"] text.t.empty`).allTextContents(), ['empty']);
      assert.deepEqual(errors, []);
    });
  });
}
