// The saved interpreter of the Node faces' engine (engineSnapshot.ts): the first engine makes it
// before any program has run in it, and an engine restored from it answers as a plainly loaded one;
// a damaged cache file is ignored and made again; what a program leaves behind in its interpreter
// (a patched module, a global in builtins) is not in the next engine started from the snapshot.
// (The hostile programs of osSandbox.test.ts and sandbox.test.ts run in engines started from the
// shared snapshot too, once one is saved.)

import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand, spawnEngine } from './engineChild';
import { isReady, isReply, isSnapshotReply } from './engineProcessProtocol';
import { readSnapshotFile, SnapshotStore, snapshotKey } from './engineSnapshot';
import { engineSources } from './node';
import { ProcessHost } from './processHost';

const dir = mkdtempSync(join(tmpdir(), 'ndb-snapshot-'));
const KEY = snapshotKey({ pyodideVersion: 'test', engineScript: 'test', sources: engineSources() });

const PROGRAM =
  'class Box:\n    def __init__(self, n):\n        self.n = n\n    def __repr__(self):\n        return f"Box({self.n})"\n\n' +
  'def f(xs):\n    out = {}\n    for i, x in enumerate(xs):\n        try:\n            out[x] = Box(10 // x)\n        except ZeroDivisionError as e:\n            out[x] = str(e)\n' +
  '    print(len(out), out)\n    return [b for b in out.values()]\n';

const POLLUTE =
  'import builtins, collections, string\n' +
  'builtins.NDB_LEFTOVER = "left"\n' +
  'string.ascii_letters = "patched"\n' +
  'collections.ndb_mark = 1\n' +
  'print("polluted")\n';
const PROBE = 'import builtins, collections, string\nprint(hasattr(builtins, "NDB_LEFTOVER"), string.ascii_letters == "patched", hasattr(collections, "ndb_mark"))\n';

let store: SnapshotStore;
let maker: ProcessHost;

beforeAll(async () => {
  store = new SnapshotStore(KEY, { dir });
  maker = new ProcessHost({ spare: false, snapshots: store });
  await maker.whenReady();
}, 180_000);

afterAll(async () => {
  await maker?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a recording says, without what may differ between two runs of one program. */
function answerOf(rec: Awaited<ReturnType<ProcessHost['record']>>) {
  return { events: rec.events, codes: rec.codes, program: rec.program, stdout: rec.stdout, stderr: rec.stderr, exit: rec.exit };
}

describe('the saved interpreter of the engine process', () => {
  it('is made by the first engine, before any program runs in it, and kept on disk with mode 0600', async () => {
    expect(maker.restored).toBe(false);
    // ready means installed and saved: no request of anyone's has reached the process yet
    expect(store.current).toBeInstanceOf(Uint8Array);
    await store.flushed();
    expect(statSync(store.file!).mode & 0o777).toBe(0o600);
    const read = readSnapshotFile(store.file!, KEY);
    // (compared as buffers: an equality of 31 MB element by element would take the test's memory)
    expect(read !== null && Buffer.from(read).equals(Buffer.from(store.current!))).toBe(true);
  });

  it('restores an engine that records and answers as a plainly loaded one', async () => {
    const plain = new ProcessHost({ spare: false, snapshots: null });
    const restored = new ProcessHost({ spare: false, snapshots: store });
    try {
      await Promise.all([plain.whenReady(), restored.whenReady()]);
      expect(plain.restored).toBe(false);
      expect(restored.restored).toBe(true);
      for (const call of ['f([1, 0, 5])', 'f([])', 'f("x")']) {
        const [a, b] = await Promise.all([plain.record(PROGRAM, call), restored.record(PROGRAM, call)]);
        expect(b.events.length).toBeGreaterThan(0);
        expect(answerOf(b)).toEqual(answerOf(a));
      }
      const [linesA, linesB] = await Promise.all([plain.codeLines(PROGRAM), restored.codeLines(PROGRAM)]);
      expect(linesB).toEqual(linesA);
      const [errA, errB] = await Promise.all([plain.expressionError('x +'), restored.expressionError('x +')]);
      expect(errB).toEqual(errA);
      // a traceback reads the engine's own lines from its files, written again in a restored one
      const failing = 'def g():\n    raise ValueError("no")\n';
      const [failA, failB] = await Promise.all([plain.record(failing, 'g()'), restored.record(failing, 'g()')]);
      expect(answerOf(failB)).toEqual(answerOf(failA));
    } finally {
      await Promise.all([plain.close(), restored.close()]);
    }
  }, 180_000);

  it('does not carry what a program left in its interpreter into the next engine started from it', async () => {
    // the maker's own interpreter keeps what a program of its owner left (the test can fail)...
    expect((await maker.record(POLLUTE, '')).stdout).toBe('polluted\n');
    expect((await maker.record(PROBE, '')).stdout).toBe('True True True\n');
    // ...an engine restored from the snapshot, made before any program, has none of it
    const next = new ProcessHost({ spare: false, snapshots: store });
    try {
      await next.whenReady();
      expect(next.restored).toBe(true);
      expect((await next.record(PROBE, '')).stdout).toBe('False False False\n');
    } finally {
      await next.close();
    }
  }, 180_000);

  it('is made only before the first question: the engine refuses a snapshot once a program may have run', async () => {
    const child = spawnEngine(engineCommand('os'), { kind: 'boot', snapshot: null, make: true });
    const replies: unknown[] = [];
    let waiting: ((msg: unknown) => void) | null = null;
    child.on('message', (msg) => {
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve(msg);
      } else replies.push(msg);
    });
    const next = () => (replies.length > 0 ? Promise.resolve(replies.shift()) : new Promise<unknown>((resolve) => (waiting = resolve)));
    try {
      expect(isReady(await next())).toBe(true);
      child.send({ id: 1, kind: 'snapshot' });
      const first = await next();
      expect(isSnapshotReply(first)).toBe(true);
      child.send({ id: 2, kind: 'ask', question: JSON.stringify({ kind: 'codeLines', source: 'x = 1\n' }) });
      expect(isReply(await next())).toBe(true); // answered or refused: a question was asked
      child.send({ id: 3, kind: 'snapshot' });
      expect(await next()).toEqual({ id: 3, error: 'a snapshot is made only before any program runs', fatal: false });
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('falls back to a plain load, said once, when the snapshot does not restore, and makes it again', async () => {
    const said: string[] = [];
    const broken = new SnapshotStore(KEY, { dir: null, say: (line) => said.push(line) });
    // a snapshot of the wrong build: Pyodide refuses it
    const claim = broken.claim()!;
    const bad = new Uint8Array(store.current!);
    bad.fill(0, 0, 64);
    broken.made(claim, bad);
    const hosts = [new ProcessHost({ spare: false, snapshots: broken }), new ProcessHost({ spare: false, snapshots: broken })];
    try {
      await Promise.all(hosts.map((h) => h.whenReady()));
      expect(hosts.map((h) => h.restored)).toEqual([false, false]);
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^ndb: the saved Python engine could not be restored \(.+\); Python starts the plain way/);
      expect((await hosts[0]!.record(PROGRAM, 'f([2])')).stdout).toBe('1 {2: Box(5)}\n');
      // one of them made the snapshot again
      expect(broken.current).not.toBe(bad);
      expect(broken.current).toBeInstanceOf(Uint8Array);
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  }, 240_000);

  it('ignores a cache file that is cut short, changed, of another engine or readable by others, and makes it again', async () => {
    await store.flushed();
    const file = store.file!;
    const good = readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 5000]! ^= 0x40;
    const otherKey = Buffer.from(good);
    otherKey[9]! ^= 1;
    const damaged: Array<[string, Buffer, number]> = [
      ['cut short', good.subarray(0, Math.floor(good.length / 2)), 0o600],
      ['one bit changed', flipped, 0o600],
      ['named for another engine', otherKey, 0o600],
      ['readable by others', good, 0o644],
      ['empty', Buffer.alloc(0), 0o600],
    ];
    for (const [what, bytes, mode] of damaged) {
      rmSync(file, { force: true });
      writeFileSync(file, bytes, { mode });
      chmodSync(file, mode);
      expect(readSnapshotFile(file, KEY), what).toBeNull();
    }
    // the file cut short: a new store ignores it, its first engine loads the plain way and saves
    // the snapshot again, and the next one starts from that
    writeFileSync(file, good.subarray(0, 1000), { mode: 0o600 });
    chmodSync(file, 0o600);
    const fresh = new SnapshotStore(KEY, { dir });
    const first = new ProcessHost({ spare: false, snapshots: fresh });
    try {
      await first.whenReady();
      expect(first.restored).toBe(false);
      await fresh.flushed();
      expect(readSnapshotFile(file, KEY)).toBeInstanceOf(Uint8Array);
    } finally {
      await first.close();
    }
    const again = new ProcessHost({ spare: false, snapshots: new SnapshotStore(KEY, { dir }) });
    try {
      await again.whenReady();
      expect(again.restored).toBe(true);
      expect((await again.record(PROGRAM, 'f([2])')).stdout).toBe('1 {2: Box(5)}\n');
    } finally {
      await again.close();
    }
  }, 240_000);
});
