// The Python worker's JavaScript realm, closed name by name before any program runs: the second
// lock. The first closes the realm as a whole: the worker runs in a sandboxed frame's opaque origin
// under a policy that allows no request (engineFrame.ts, workerPolicy.ts), so a program that gets
// past Python's own sandbox (sandbox.py) and reaches JavaScript finds no storage of the app's
// origin and cannot send a request, whatever names are left. This lock takes those names away as
// well (should the first ever be missing, e.g. in a browser that does not apply the frame's
// policy to its worker), with every way to start another realm and to make code from a string.
// The worker keeps what it needs in its own closures (its channel), which no object reachable from
// Python leads to.
//
// Deleting works because these are configurable properties of the global object, its prototypes
// and the navigator; a realm has no other copy of them. Code made from strings goes too (eval, the
// constructors of every kind of function, timers given a string): a script could otherwise write
// `import()` of another origin, which no global deletion reaches.

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
export const CLOSED_NAVIGATOR: readonly string[] = ['storage', 'storageBuckets', 'locks', 'serviceWorker', 'sendBeacon', 'permissions'];

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

/** A stand-in for a code-making function: same name, same prototype (so `instanceof Function` and
 * `fn.constructor.name` read as before), and it throws. */
function refusing(name: string, prototype: unknown): (...args: unknown[]) => never {
  const refuse = function (): never {
    throw new EvalError(`${name} from a string is not available in ndb's Python worker`);
  };
  Object.defineProperty(refuse, 'name', { value: name });
  Object.defineProperty(refuse, 'prototype', { value: prototype });
  return refuse;
}

type Scope = Record<string, unknown> & { Function: FunctionConstructor };

/** Removes every way to make code from a string in the realm of `scope`. `kinds` are functions of
 * that realm, one of each kind (plain, async, generator, async generator), whose constructors are
 * the code-making ones. Returns what is still open (none in the browsers we test). */
export function closeCodeGeneration(scope: object, kinds: readonly unknown[]): string[] {
  const global = scope as Scope;
  const defineOn = (target: object, key: string, value: unknown) =>
    Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: false });
  for (const fn of kinds) {
    const proto = Object.getPrototypeOf(fn) as { constructor: { name: string } };
    defineOn(proto, 'constructor', refusing(proto.constructor.name, proto));
  }
  const functionProto = global.Function.prototype;
  defineOn(global, 'Function', refusing('Function', functionProto));
  defineOn(global, 'eval', refusing('eval', undefined));
  for (const timer of ['setTimeout', 'setInterval'] as const) {
    const original = global[timer] as ((handler: unknown, ...rest: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    const guarded = function (this: unknown, handler: unknown, ...rest: unknown[]): unknown {
      if (typeof handler !== 'function') throw new EvalError(`${timer} with a string is not available in ndb's Python worker`);
      return original.call(scope, handler, ...rest);
    };
    defineOn(global, timer, guarded);
  }
  const open: string[] = [];
  const tries: Record<string, () => unknown> = {
    eval: () => (global.eval as (code: string) => unknown)('1'),
    Function: () => new global.Function('return 1'),
  };
  for (const fn of kinds) {
    const make = (Object.getPrototypeOf(fn) as { constructor: (code: string) => unknown }).constructor;
    tries[`${make.name}()`] = () => make('return 1');
  }
  tries.setTimeout = () => (global.setTimeout as (code: string) => unknown)('1');
  for (const [name, attempt] of Object.entries(tries)) {
    try {
      attempt();
      open.push(name);
    } catch {
      // closed
    }
  }
  return open;
}
