// Names a program chose never meet a plain object's prototype (issue 44): plain Python whose
// variables are called `constructor`, `toString`, `valueOf` and `hasOwnProperty` (a class body's
// attributes and a Java-style method among them), with a local made through f_locals and a global
// made through globals() called `g (global)`, stepped through with the Heap view on. Every stop
// shows its names and values, the line marker follows, no error is thrown, and the output's
// right-to-left override is shown escaped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STEP_TIMEOUT, currentLineBecomes, output, pasteCode, press, variables } from './helpers.mjs';
import { useApp } from './setup.mjs';

/** The same program as src/testing/prototypeNames.ts. */
const PROGRAM = [
  'import sys',
  '',
  'class Thing:',
  '    constructor = 1',
  '    valueOf = 2',
  '    def toString(self):',
  '        return "thing"',
  '',
  'def show(constructor, toString):',
  '    valueOf = [constructor]',
  '    hasOwnProperty = valueOf',
  '    sys._getframe().f_locals["g (global)"] = valueOf',
  '    del toString',
  '    return hasOwnProperty',
  '',
  'g = [1]',
  'globals()["g (global)"] = g',
  'constructor = Thing()',
  'toString = constructor.toString()',
  'valueOf = show(g, toString)',
  'hasOwnProperty = valueOf',
  'print("before \\u202edesrever\\u202c after")',
  '',
].join('\n');

function region(page, name) {
  return page.getByRole('region', { name, exact: true });
}

async function statusText(page) {
  return ((await page.getByRole('status').locator('.text').textContent()) ?? '').trim();
}

describe('names a plain object has on its prototype', () => {
  const app = useApp({ open: '' });

  it('steps through them: every stop shows its names and values, the marker moves, nothing throws', async () => {
    const { page, errors } = app;
    await pasteCode(page, PROGRAM);
    await page.getByLabel('Call', { exact: true }).fill('');
    await page.getByLabel('Input', { exact: true }).fill('');
    await press(page, 'Restart');
    const vars = region(page, 'Variables');
    await vars.getByRole('button', { name: 'Heap', exact: true }).click();

    /** Steps into until the status matches, checking that each step moved the line marker to the
     * status's line and left no error. */
    const seen = [];
    async function stepUntil(pattern, max = 40) {
      for (let i = 0; i < max; i++) {
        const text = await statusText(page);
        if (pattern.test(text)) return;
        await press(page, 'Step into');
        const after = await statusText(page);
        const line = /line (\d+)/.exec(after);
        if (line) {
          assert.equal(await currentLineBecomes(page, Number(line[1])), Number(line[1]), `the marker is on line ${line[1]} at "${after}"`);
          seen.push(Number(line[1]));
        }
        assert.deepEqual(errors, [], `no page error after "${after}"`);
      }
      assert.fail(`the status never matched ${pattern} (last: ${await statusText(page)})`);
    }

    // the class body: its attributes and its Java-style method are rows like any other
    await stepUntil(/^line 6 in Thing$/);
    assert.deepEqual((await variables(page)).values, { constructor: '1', valueOf: '2' });
    await stepUntil(/^Thing returns/);
    assert.deepEqual((await variables(page)).values, { constructor: '1', valueOf: '2', toString: '<function Thing.toString>' });
    assert.equal(await vars.locator('.note.alias').count(), 0, 'no name there shares an object with another');

    // the method called toString, and the module's variables named after prototype members
    await stepUntil(/^line 7 in toString$/);
    assert.deepEqual((await variables(page)).values, { self: 'Thing()' });
    await stepUntil(/^line 10 in show$/);
    assert.deepEqual((await variables(page)).values, { constructor: '[1]', toString: "'thing'" });

    // a local made through f_locals called like the app's label for a global is a local row
    await stepUntil(/^line 14 in show$/);
    const inShow = await variables(page);
    assert.deepEqual(inShow.values, { constructor: '[1]', valueOf: '[[1]]', hasOwnProperty: '[[1]]', 'g (global)': '[[1]]' });
    const globals = vars.getByRole('table', { name: /Global/ });
    assert.equal(await globals.locator('tr[data-global="g"] code.v').textContent(), '[1]');
    assert.equal(await globals.locator('tr[data-global="g (global)"] code.v').textContent(), '[1]');
    assert.equal(await vars.locator('tbody tr[data-name]').count(), 4, 'the globals are their own group, not rows among the locals');
    assert.match(await vars.locator('tr[data-name="constructor"]').textContent(), /same object as g \(global\), g \(global\) \(global\)/);
    assert.equal(await vars.locator('tr[data-name="constructor"] .scope-tag').count(), 2, 'both names are globals, each tagged');
    assert.equal(await vars.locator('tr[data-name="valueOf"] .scope-tag').count(), 0, 'the local g (global) is no global');
    // the heap: one row per name, the local g (global) and the two globals apart
    const heap = vars.getByRole('figure', { name: /Heap/ });
    await heap.waitFor({ timeout: STEP_TIMEOUT });
    const refs = await heap.locator('text[data-ref]').evaluateAll((ts) => ts.map((t) => `${t.getAttribute('data-scope')} ${t.getAttribute('data-ref')}`));
    // the module's constructor, hidden here by the parameter of the same name, is shown too (issue 46)
    assert.deepEqual(refs, ['local constructor', 'local valueOf', 'local hasOwnProperty', 'local g (global)', 'global g', 'global g (global)', 'global constructor', 'global toString']);
    // the lists [1] and [[1]], the module's Thing() that its constructor names, and its class
    // (whose attributes are called constructor and valueOf)
    assert.deepEqual(await heap.locator('g.box text.title').allTextContents(), ['list', 'list', 'Thing instance', 'Thing class']);
    assert.deepEqual(await heap.locator('g.box[data-kind="class"] text.t.key').allTextContents(), ['constructor', 'valueOf', 'toString']);
    // seven names' arrows, [[1]]'s item's and the instance's to its class
    assert.equal(await heap.locator('path.arrow').count(), 9);

    // the call stack names the frame with its arguments, a deleted one left out
    await stepUntil(/^show returns/);
    assert.match((await region(page, 'Call stack').locator('li').first().textContent()) ?? '', /show\(constructor=\[1\]\)/);

    // back in the module: the names a plain object has are the program's variables
    await stepUntil(/^line 22 in <module>$/);
    const end = await variables(page);
    for (const [name, value] of Object.entries({ g: '[1]', 'g (global)': '[1]', constructor: 'Thing()', toString: "'thing'", valueOf: '[[1]]', hasOwnProperty: '[[1]]' })) {
      assert.equal(end.values[name], value, name);
    }
    assert.ok(new Set(seen).size >= 8, `the marker moved over many lines: ${seen.join(', ')}`);

    // the output's right-to-left override is shown as an escape, never applied
    await press(page, 'Step over');
    const text = await output(page);
    assert.equal(text, 'before \\u202edesrever\\u202c after\n');
    assert.doesNotMatch(text, /[\u202a-\u202e\u2066-\u2069]/);
    // stepping back over the heap view's stops keeps every panel going
    for (let i = 0; i < 6; i++) await press(page, 'Step back');
    assert.match(await statusText(page), /^(line \d+ in |show returns|\w+ returns)/);
    assert.deepEqual(errors, []);
  });
});
