// The probe cache (sandboxProbeCache.ts) keeps one bit, "bubblewrap works here", named by a digest
// of what that answer rests on: a start with the same facts skips the probe; a changed binary,
// kernel switch or filter probes again; an engine that ends before it is ready makes the next start
// probe again; a cache folder others can write is not used.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { engineFiles } from './engineChild';
import { engineEndedBeforeReady, osBoundary, osBoundaryFromCache, resetOsBoundary } from './osSandbox';
import { knownToWork, probeFacts, rememberWorks } from './sandboxProbeCache';

const scratch = mkdtempSync(join(tmpdir(), 'ndb-probe-cache-'));
const saved = process.env.XDG_CACHE_HOME;
let cache: string;
let n = 0;
beforeEach(() => {
  process.env.XDG_CACHE_HOME = join(scratch, `xdg-${n++}`);
  cache = join(process.env.XDG_CACHE_HOME, 'ndb');
  resetOsBoundary();
});
afterEach(() => {
  if (saved === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = saved;
  resetOsBoundary();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const kept = () => (existsSync(cache) ? readdirSync(cache).filter((f) => f.startsWith('sandbox-works-')) : []);

describe('the sandbox probe cache', () => {
  it('skips the probe where the same facts found bubblewrap working, and probes again after an engine failed to start', () => {
    const files = engineFiles();
    const first = osBoundary(files);
    expect(osBoundaryFromCache()).toBe(false);
    if (first.kind !== 'bubblewrap') {
      // a machine that refuses bubblewrap keeps nothing, and is probed every time
      expect(kept()).toEqual([]);
      return;
    }
    expect(kept()).toHaveLength(1);
    resetOsBoundary();
    expect(osBoundary(files)).toEqual(first);
    expect(osBoundaryFromCache()).toBe(true);
    // an engine ended before it was ready: the bit goes, and the next start probes
    expect(engineEndedBeforeReady()).toBe(true);
    expect(kept()).toEqual([]);
    expect(engineEndedBeforeReady()).toBe(false);
    resetOsBoundary();
    expect(osBoundary(files)).toEqual(first);
    expect(osBoundaryFromCache()).toBe(false);
    expect(kept()).toHaveLength(1);
  }, 60_000);

  it('names the bit by every fact: a binary changed or gone, another filter or file', () => {
    const binary = join(scratch, 'bwrap-like');
    writeFileSync(binary, 'x');
    const facts = probeFacts([binary], ['filter', '/pyodide', '/script']);
    expect(facts).toMatch(/^[0-9a-f]{32}$/);
    expect(probeFacts([binary], ['filter', '/pyodide', '/script'])).toBe(facts);
    expect(probeFacts([binary], ['other filter', '/pyodide', '/script'])).not.toBe(facts);
    expect(probeFacts([binary], ['filter', '/pyodide', '/elsewhere'])).not.toBe(facts);
    const later = new Date(Date.now() + 5_000);
    utimesSync(binary, later, later);
    expect(probeFacts([binary], ['filter', '/pyodide', '/script'])).not.toBe(facts);
    expect(probeFacts([join(scratch, 'missing')], ['filter'])).toBeNull();

    rememberWorks(facts);
    expect(knownToWork(facts)).toBe(true);
    expect(knownToWork(probeFacts([binary], ['filter', '/pyodide', '/script']))).toBe(false);
    expect(knownToWork(null)).toBe(false);
    // one bit at a time: a new one replaces the old
    rememberWorks('0'.repeat(32));
    expect(kept()).toEqual([`sandbox-works-${'0'.repeat(32)}`]);
  });

  it('does not use a cache folder that others can write', () => {
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    rememberWorks('1'.repeat(32));
    expect(knownToWork('1'.repeat(32))).toBe(true);
    chmodSync(cache, 0o777);
    expect(knownToWork('1'.repeat(32))).toBe(false);
    chmodSync(cache, 0o700);
  });
});
