// closeRealm on a stand-in for a worker's global object: what it deletes, wherever on the
// prototype chain it lives, and what it reports when it cannot.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CLOSED_GLOBALS, closeCodeGeneration, closeRealm } from './workerLockdown';

function standIn() {
  const scopeProto = { fetch() {}, postMessage() {}, get caches() { return {}; } };
  const navigatorProto = { storage: {}, locks: {}, userAgent: 'test' };
  const scope = Object.create(scopeProto) as Record<string, unknown>;
  scope.WebSocket = class {};
  scope.indexedDB = {};
  scope.crypto = {};
  scope.navigator = Object.create(navigatorProto) as object;
  return scope;
}

describe('closeRealm', () => {
  it('deletes storage, network and realms from the scope, its prototypes and the navigator', () => {
    const scope = standIn();
    expect(closeRealm(scope)).toEqual([]);
    for (const name of ['fetch', 'postMessage', 'caches', 'WebSocket', 'indexedDB']) expect(name in scope, name).toBe(false);
    expect('storage' in (scope.navigator as object)).toBe(false);
    expect('locks' in (scope.navigator as object)).toBe(false);
    // what Pyodide and the worker still need stays
    expect('crypto' in scope).toBe(true);
    expect((scope.navigator as { userAgent: string }).userAgent).toBe('test');
    expect(CLOSED_GLOBALS).toContain('fetch');
  });

  it('names what it could not delete', () => {
    const scope = standIn();
    Object.defineProperty(scope, 'fetch', { value: () => undefined, configurable: false });
    expect(closeRealm(scope)).toEqual(['fetch']);
  });
});

describe('closeCodeGeneration', () => {
  /** A realm of its own (as the worker is), with a timer that would run a string. */
  function realm() {
    const ran: string[] = [];
    const context = vm.createContext({ setTimeout: (handler: unknown) => (typeof handler === 'string' ? ran.push(handler) : 0) });
    const kinds = vm.runInContext('[function () {}, async function () {}, function* () {}, async function* () {}]', context) as unknown[];
    const scope = vm.runInContext('globalThis', context) as object;
    const run = (code: string): unknown => vm.runInContext(`try { (${code}); 'open' } catch (e) { e.name + ': ' + e.message }`, context);
    return { context, kinds, scope, run, ran };
  }

  const ROUTES = [
    'eval("1")',
    'Function("return 1")',
    '(function () {}).constructor("return 1")',
    '(async function () {}).constructor("return 1")',
    '(function* () {}).constructor("return 1")',
    '(async function* () {}).constructor("return 1")',
    'setTimeout("1")',
  ];

  it('leaves no way to make code from a string, and plain functions as they were', () => {
    const { kinds, scope, run, ran, context } = realm();
    // the control: every route is open before
    for (const code of ROUTES) expect(run(code), code).toBe('open');
    expect(closeCodeGeneration(scope, kinds)).toEqual([]);
    for (const code of ROUTES) expect(run(code), code).toMatch(/^EvalError: .*not available in ndb's Python worker/);
    expect(ran).toEqual(['1']); // only the control's
    // what Pyodide reads of functions stays true
    expect(vm.runInContext('[(function f() {}) instanceof Function, (function () {}).constructor.name, (async () => {}).constructor.name, typeof setTimeout(() => 1)]', context)).toEqual([
      true,
      'Function',
      'AsyncFunction',
      'number',
    ]);
  });
});
