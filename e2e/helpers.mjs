// Shared by the e2e tests: a `vite preview` server over dist/ on a free port, and Debian's Chromium
// driven by playwright-core with a fresh profile.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where the tests leave screenshots (ignored by git; `npm run screenshots` publishes them). */
export const SCREENSHOTS = join(ROOT, 'e2e', 'screenshots');

/** Long waits: Pyodide takes ~5 s to load on this machine, more when it is busy. */
export const LOAD_TIMEOUT = 60_000;
export const STEP_TIMEOUT = 15_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the server did not answer at ${url}`);
}

/** Starts `vite preview` on dist/; returns its URL and a stop function. */
export async function startPreview() {
  if (!existsSync(join(ROOT, 'dist', 'index.html'))) {
    throw new Error('dist/ is missing: run `npm run build` before the e2e tests');
  }
  return startServer([join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview'], '/');
}

/** Starts a static server without COOP/COEP headers (e2e/staticServer.mjs), like GitHub Pages,
 * serving `dir` under `base` (e.g. '/ndb/'). */
export async function startStatic(dir, base) {
  return startServer([join(ROOT, 'e2e', 'staticServer.mjs'), dir, base], base);
}

async function startServer(args, path) {
  const port = await freePort();
  const child = spawn(process.execPath, [...args, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}${path}`;
  try {
    await waitForHttp(url, child, 30_000);
  } catch (err) {
    child.kill('SIGTERM');
    throw new Error(`${err.message}\n${log}`);
  }
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Debian's Chromium with a throwaway profile (`extraArgs`: e.g. --enable-unsafe-webgpu;
 * `options`: more launchPersistentContext options, e.g. {serviceWorkers: 'block'}). */
export async function launchBrowser(origin, extraArgs = [], options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'ndb-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  });
  if (origin) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Collects page errors so that a test can assert there were none. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()} ${msg.location()?.url ?? ''}`.trim());
  });
  return errors;
}

/** Opens the app and waits until Python is loaded and the first recording is shown. */
export async function openApp(page, url) {
  await page.goto(url);
  await page.locator('main[data-engine="ready"]').waitFor({ timeout: LOAD_TIMEOUT });
  await idle(page);
}

/** Waits until no recording is running. */
export async function idle(page) {
  await page.locator('[role="toolbar"][aria-busy="false"]').waitFor({ timeout: STEP_TIMEOUT });
}

export function button(page, name) {
  return page.getByRole('button', { name, exact: true });
}

/** Presses a toolbar button and waits for the debugger to settle. */
export async function press(page, name) {
  await button(page, name).click({ timeout: STEP_TIMEOUT });
  await idle(page);
}

export function status(page) {
  return page.getByRole('status');
}

/** The Variables panel as {name: value}, plus the return/exception line if shown. */
export async function variables(page) {
  const panel = page.getByRole('region', { name: 'Variables' });
  const rows = await panel.locator('tbody tr[data-name]').evaluateAll((trs) =>
    trs.map((tr) => [tr.getAttribute('data-name') ?? '', tr.querySelector('td code.v')?.textContent?.trim() ?? '', tr.classList.contains('changed')]),
  );
  const special = await panel.locator('.special').evaluateAll((ps) =>
    ps.map((p) => `${p.querySelector('.label')?.textContent ?? ''} ${p.querySelector('code.v')?.textContent ?? ''}`),
  );
  return {
    values: Object.fromEntries(rows.map(([n, v]) => [n, v])),
    changed: rows.filter((r) => r[2]).map((r) => r[0]),
    special: special.map((s) => s.replace(/\s+/g, ' ').trim()),
  };
}

/** The Call stack panel, innermost frame first, as "function(arguments) line N". */
export async function callStack(page) {
  const items = await page.getByRole('region', { name: 'Call stack' }).locator('li').allTextContents();
  return items.map((s) => s.replace(/\s+/g, ' ').trim());
}

export async function output(page) {
  return (await page.getByRole('region', { name: 'Output' }).locator('pre').textContent()) ?? '';
}

/** Replaces the editor's text as a paste would. */
export async function setCode(page, text) {
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Replaces the editor's whole text with `text` as a person pasting a program would (select all,
 * paste): typed text would be indented again by the editor. */
export async function pasteCode(page, text) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.locator('.monaco-editor .view-lines').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('ControlOrMeta+v');
}

/** The editor's text as shown (Monaco renders spaces as no-break spaces). */
export async function editorText(page) {
  const lines = await page.locator('.monaco-editor .view-lines .view-line').evaluateAll((els) =>
    els
      .map((el) => ({ top: parseFloat(el.style.top || '0'), text: el.textContent ?? '' }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text.replace(/\u00a0/g, ' ')),
  );
  return lines.join('\n');
}

/** Clicks the glyph margin (breakpoint gutter) of a line. */
export async function clickGlyph(page, line, button = 'left') {
  const box = await lineBox(page, line);
  const margin = await page.locator('.monaco-editor .glyph-margin').boundingBox();
  await page.mouse.click(margin.x + margin.width / 2, box.y + box.height / 2, { button });
}

/** Clicks into the text of a line (button: 'left' or 'right'). */
export async function clickLine(page, line, button = 'left') {
  const box = await lineBox(page, line);
  const text = await page.locator('.monaco-editor .view-lines').boundingBox();
  await page.mouse.click(text.x + 200, box.y + box.height / 2, { button });
}

async function lineBox(page, line) {
  const num = page.locator('.monaco-editor .line-numbers').filter({ hasText: new RegExp(`^\\s*${line}\\s*$`) }).first();
  // Monaco re-renders its lines when the model changes (an example, a link): a number found a
  // moment ago may be gone; wait for one that stays.
  for (let attempt = 0; attempt < 20; attempt++) {
    await num.waitFor({ state: 'visible', timeout: STEP_TIMEOUT }).catch(() => undefined);
    const box = await num.boundingBox().catch(() => null);
    if (box) return box;
    await page.waitForTimeout(100);
  }
  throw new Error(`line ${line} is not visible`);
}

/** The line numbers that carry a breakpoint dot. */
export async function breakpointLines(page) {
  return page.evaluate(() => {
    const dots = [...document.querySelectorAll('.monaco-editor .ndb-breakpoint')];
    const nums = [...document.querySelectorAll('.monaco-editor .line-numbers')];
    return dots
      .map((d) => {
        const y = d.getBoundingClientRect().top + 2;
        const n = nums.find((el) => {
          const r = el.getBoundingClientRect();
          return y >= r.top && y < r.bottom;
        });
        return n ? Number(n.textContent) : NaN;
      })
      .sort((a, b) => a - b);
  });
}

/** Waits until the current-line highlight is on `line` (Monaco draws it on its next frame);
 * returns the line it is on then, or at the timeout. */
export async function currentLineBecomes(page, line) {
  const deadline = Date.now() + STEP_TIMEOUT;
  let seen = await currentLine(page);
  while (seen !== line && Date.now() < deadline) {
    await page.waitForTimeout(100);
    seen = await currentLine(page);
  }
  return seen;
}

/** The line the editor highlights as the current one. */
export async function currentLine(page) {
  return page.evaluate(() => {
    const hl = document.querySelector('.monaco-editor .ndb-current-line');
    if (!hl) return null;
    const y = hl.getBoundingClientRect().top + 2;
    const n = [...document.querySelectorAll('.monaco-editor .line-numbers')].find((el) => {
      const r = el.getBoundingClientRect();
      return y >= r.top && y < r.bottom;
    });
    return n ? Number(n.textContent) : null;
  });
}

/** Holds back the model's download (its ONNX files) in `context` until `release()`, which also
 * lets later downloads through: the real engine must not wait for the model. */
export async function holdModelDownload(context) {
  let open;
  const held = new Promise((r) => (open = r));
  const onnx = '**/models/*/onnx/*.onnx';
  await context.route(onnx, async (route) => {
    await held;
    await route.continue().catch(() => undefined); // handled already after unroute
  });
  return {
    async release() {
      open();
      await context.unroute(onnx);
    },
  };
}
