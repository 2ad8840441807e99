// The service worker: after one visit the whole app works offline, and on hosts that cannot send
// COOP/COEP headers (GitHub Pages) it adds them, so that the page is cross-origin isolated.
//
// - The app's files (the shell, Monaco, Pyodide, ORT's WASM build) are listed by vite-plugin-pwa
//   at build time (`self.__WB_MANIFEST`, with a revision per file) and kept in the cache
//   `ndb-app-<hash of the list>`. A file whose revision did not change is copied from the older
//   cache when a new version installs, so an update downloads only what changed.
// - First visit: the worker takes control at once (the page reloads once if it needs the headers)
//   and fills its cache when the page asks (`ndb-fill`), downloading with `cache: 'no-cache'` so
//   that files the page has just fetched revalidate instead of downloading twice. It then fetches
//   the default model's files into the model's own cache (the one src/neuralEngine/browserModel.ts reads:
//   stored once) and answers `ndb-offline-ready`.
// - Update: a new version fills its cache while installing, then waits; the page shows "Reload",
//   which sends `SKIP_WAITING`. Activation deletes the older app and model caches.
// - ORT's WebGPU build (27 MB) is cached when first used, not on install.
// - Every same-origin response gets COOP/COEP/CORP headers. (The Python worker needs nothing from
//   here: it runs in a sandboxed frame whose policy is in its own document, src/realEngine/browser/engineFrame.ts.)

interface ManifestEntry {
  url: string;
  revision: string | null;
}

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(r: Response | Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  source: { postMessage(message: unknown): void } | null;
}
interface SwScope {
  location: Location;
  registration: { scope: string };
  clients: { claim(): Promise<void>; matchAll(): Promise<{ postMessage(m: unknown): void }[]> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (ev: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (ev: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (ev: ExtendableMessageEvent) => void): void;
}

const sw = self as unknown as SwScope;

// The injection point vite-plugin-pwa looks for, written out as is.
const MANIFEST: ManifestEntry[] = (self as unknown as { __WB_MANIFEST: ManifestEntry[] }).__WB_MANIFEST;
const APP_PREFIX = 'ndb-app-';
const MODEL_PREFIX = 'ndb-models-';
const MODEL_CACHE = __NDB_MODEL_CACHE__;
const MODEL_FILES: string[] = __NDB_MODEL_FILES__;
/** Cached on first use only (ORT's WebGPU build). */
const LAZY = /\/ort\/[^/]*asyncify[^/]*$/;
const REVISION = 'X-Ndb-Revision';
const SCOPE = sw.registration.scope;
const SCOPE_PATH = new URL(SCOPE).pathname;
const INDEX = new URL('index.html', SCOPE).href;

function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = Math.imul(h2 ^ c, 2246822507);
  }
  return ((h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')).slice(0, 12);
}

const APP_CACHE = `${APP_PREFIX}${hash(JSON.stringify(MANIFEST))}`;
/** Absolute URL → revision ('' for files whose name carries a content hash). */
const ENTRIES = new Map(MANIFEST.map((e) => [new URL(e.url, SCOPE).href, e.revision ?? '']));

function stamped(res: Response, revision: string): Response {
  const headers = new Headers(res.headers);
  headers.set(REVISION, revision);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

async function olderAppCaches(): Promise<Cache[]> {
  const names = (await caches.keys()).filter((n) => n.startsWith(APP_PREFIX) && n !== APP_CACHE);
  return Promise.all(names.map((n) => caches.open(n)));
}

/** Stores one file of the list in `cache`: kept, copied from an older version, or downloaded. */
async function store(cache: Cache, older: Cache[], url: string, revision: string, download: boolean): Promise<void> {
  const have = await cache.match(url);
  if (have && have.headers.get(REVISION) === revision) return;
  for (const old of older) {
    const hit = await old.match(url);
    if (hit && hit.headers.get(REVISION) === revision) {
      await cache.put(url, hit);
      return;
    }
  }
  if (!download) return;
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`${new URL(url).pathname}: HTTP ${res.status}`);
  await cache.put(url, stamped(res, revision));
}

/** Runs `work` over `items`, `n` at a time. */
async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, run));
}

/** Everything the app needs offline: its files, then the default model's. */
async function fill(): Promise<void> {
  const cache = await caches.open(APP_CACHE);
  const older = await olderAppCaches();
  await pool([...ENTRIES], 4, ([url, revision]) => store(cache, older, url, revision, !LAZY.test(url)));
  if (MODEL_FILES.length === 0) return;
  const models = await caches.open(MODEL_CACHE);
  await pool(MODEL_FILES, 2, async (file) => {
    const url = new URL(file, SCOPE).href;
    if (await models.match(url)) return;
    const res = await fetch(url, { cache: 'no-cache' });
    if (res.ok) await models.put(url, res);
  });
}

let filling: Promise<void> | null = null;

function fillOnce(): Promise<void> {
  filling ??= fill().catch((err: unknown) => {
    filling = null;
    throw err;
  });
  return filling;
}

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const update = (await caches.keys()).some((n) => n.startsWith(APP_PREFIX) && n !== APP_CACHE);
      // An update is complete before it is offered; a first visit takes control at once.
      if (update) await fillOnce();
      else await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        const stale = (name.startsWith(APP_PREFIX) && name !== APP_CACHE) || (name.startsWith(MODEL_PREFIX) && name !== MODEL_CACHE);
        if (stale) await caches.delete(name);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') {
    void sw.skipWaiting();
  } else if (type === 'ndb-fill') {
    event.waitUntil(
      fillOnce().then(
        () => event.source?.postMessage({ type: 'ndb-offline-ready', version: APP_CACHE }),
        (err: unknown) => event.source?.postMessage({ type: 'ndb-offline-failed', message: err instanceof Error ? err.message : String(err) }),
      ),
    );
  }
});

const NULL_BODY = new Set([101, 204, 205, 304]);

/** The response with the headers that make the page cross-origin isolated. */
function isolated(res: Response): Response {
  if (res.status === 0 || res.type === 'opaque' || res.type === 'opaqueredirect') return res;
  const headers = new Headers(res.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(NULL_BODY.has(res.status) ? null : res.body, { status: res.status, statusText: res.statusText, headers });
}

async function respond(request: Request, url: URL): Promise<Response> {
  const cache = await caches.open(APP_CACHE);
  if (request.mode === 'navigate' && (url.pathname === SCOPE_PATH || url.pathname === `${SCOPE_PATH}index.html`)) {
    const page = await cache.match(INDEX);
    return page ?? fetch(request);
  }
  if (request.headers.has('range')) return fetch(request);
  const key = `${url.origin}${url.pathname}`;
  const revision = ENTRIES.get(key);
  if (revision === undefined) return fetch(request); // the model (its own cache), index.json, …
  const hit = await cache.match(key);
  if (hit) return hit;
  const res = await fetch(request);
  if (res.ok && LAZY.test(key)) await cache.put(key, stamped(res.clone(), revision)).catch(() => undefined);
  return res;
}

sw.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== sw.location.origin || !url.pathname.startsWith(SCOPE_PATH)) return;
  event.respondWith(respond(request, url).then(isolated));
});
