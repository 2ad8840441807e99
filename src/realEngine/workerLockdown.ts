// The Python worker's JavaScript realm, closed before any program runs. A debugged program that
// gets past Python's own sandbox (sandbox.py) and reaches JavaScript finds no storage of the app's
// origin (CacheStorage holds the service worker's copy of the app, IndexedDB and the Cache API
// hold the Pyodide snapshot), no way to send a request, and no way to start another realm that
// would have them again. The worker keeps what it needs in its own closures (the channel to the
// page, the snapshot's cache), which no object reachable from Python leads to.
//
// Deleting works because these are configurable properties of the global object, its prototypes
// and the navigator; a realm has no other copy of them. The script's Content-Security-Policy
// (vite.config.ts, sw.ts) is the second lock: no eval, no script or connection to another origin.

/** Globals that reach storage, the network or another realm. */
export const CLOSED_GLOBALS: readonly string[] = [
  // the network
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'WebTransport',
  'importScripts',
  'FontFace',
  'fonts',
  // the origin's storage
  'caches',
  'indexedDB',
  'cookieStore',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL',
  // other realms and channels of the origin
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'postMessage',
  'Notification',
];

/** Properties of `navigator` that reach the origin's storage, locks or service worker. */
export const CLOSED_NAVIGATOR: readonly string[] = ['storage', 'locks', 'serviceWorker', 'sendBeacon', 'permissions'];

/** Deletes `names` from an object and every object on its prototype chain (below Object). */
function deleteEverywhere(target: object | null | undefined, names: readonly string[]): string[] {
  const left: string[] = [];
  for (const name of names) {
    for (let o: object | null | undefined = target; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
      if (Object.prototype.hasOwnProperty.call(o, name)) Reflect.deleteProperty(o, name);
    }
    if (target && name in target) left.push(name);
  }
  return left;
}

/** Closes the realm of `scope` (the worker's global object). Returns the names that could not be
 * removed (none in the browsers we test; the caller refuses to run programs otherwise). */
export function closeRealm(scope: object): string[] {
  const navigator = (scope as { navigator?: object }).navigator;
  const left = deleteEverywhere(navigator, CLOSED_NAVIGATOR).map((n) => `navigator.${n}`);
  return [...left, ...deleteEverywhere(scope, CLOSED_GLOBALS)];
}
