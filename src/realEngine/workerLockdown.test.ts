// closeRealm on a stand-in for a worker's global object: what it deletes, wherever on the
// prototype chain it lives, and what it reports when it cannot.
import { describe, expect, it } from 'vitest';
import { CLOSED_GLOBALS, closeRealm } from './workerLockdown';

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
