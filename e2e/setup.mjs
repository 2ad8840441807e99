// The setup every e2e file shares: a server over the built app and Debian's Chromium, started
// before the file's tests and closed after them; with `open`, the app loaded in the first tab.
import { after, before } from 'node:test';
import { launchBrowser, openApp, startPreview, watchErrors } from './helpers.mjs';

/**
 * Registers the before/after hooks of the surrounding `describe` and returns `app`, whose fields
 * are set by the time the tests run: `server` ({url, stop}), `browser` ({context, close}), and
 * with `open` (a query string: '' or e.g. '?backend=wasm') `page`, the first tab with the app
 * loaded and idle, and `errors`, the page errors it logged.
 *
 * Options: `start`, another server than `vite preview` on dist/ (e.g. () => startStatic(…));
 * `args`, more Chromium flags.
 */
export function useApp({ open, start = startPreview, args = [], options = {} } = {}) {
  const app = { server: undefined, browser: undefined, page: undefined, errors: [] };
  before(async () => {
    app.server = await start();
    app.browser = await launchBrowser(app.server.url, args, options);
    if (open === undefined) return;
    app.page = app.browser.context.pages()[0] ?? (await app.browser.context.newPage());
    app.errors = watchErrors(app.page);
    await openApp(app.page, `${app.server.url}${open}`);
  });
  after(async () => {
    await app.browser?.close();
    await app.server?.stop();
  });
  return app;
}
