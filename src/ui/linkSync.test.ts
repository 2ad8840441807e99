// Share-link restore sequencing, with a fake address bar and a fake session whose recordings
// answer when the test says: links that change while a restore awaits Python, answers that come
// too late, edits made again after the recording, and the hash held while a link is restored.

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Position } from '../core/trace';
import type { Edit } from '../core/whatIf';
import { LinkSync, type LinkEnvironment, type LinkHost, type LinkedRun } from './linkSync.svelte';
import { RunMark, type RunFlag } from './runMark';
import { decodeHash, encodeHash, type SharedState } from './shareLink';

const EXAMPLE = 'def total(xs):\n    return sum(xs)\n';

function shared(source: string, extra: Partial<SharedState> = {}): SharedState {
  return { source, call: source === EXAMPLE ? 'total([1])' : 'f()', input: '', breakpoints: [], position: 0, conditions: {}, watches: [], edits: [], ...extra };
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The address bar: `hash` is what the page shows; `written` what the app wrote into it. */
class FakeAddressBar implements LinkEnvironment {
  current = '';
  ownHash?: LinkEnvironment['ownHash'];
  embedded = false;
  written: string[] = [];
  copied: string[] = [];
  copyFails = false;
  private listeners: Array<() => void> = [];

  hash(): string {
    return this.current;
  }
  replaceHash(hash: string): void {
    this.current = hash;
    this.written.push(hash);
  }
  onHashChange(listener: () => void): void {
    this.listeners.push(listener);
  }
  href(): string {
    return `https://ndb.test/${this.current}`;
  }
  async copy(text: string): Promise<void> {
    if (this.copyFails) throw new Error('denied');
    this.copied.push(text);
  }
  /** The user opens another link in the same tab. */
  navigate(hash: string): void {
    this.current = hash;
    for (const l of this.listeners) l();
  }
}

/** The rest of the session: records when the test resolves the recording, and logs what the
 * restore asked of it, tagged with the source shown at the time. */
class FakeSession implements LinkHost {
  engineReady = true;
  shown: SharedState | null = null;
  log: string[] = [];
  recordings: Array<Deferred<boolean>> = [];
  /** When set, making the link's edits again waits for it. */
  replayGate: Deferred<void> | null = null;
  /** The session as a link carries it (what a hash write encodes). */
  state: SharedState = shared('print(1)\n');
  private sessionId = 0;

  snapshot(): SharedState {
    return this.state;
  }
  show(link: SharedState): boolean {
    this.shown = link;
    this.state = { ...link, position: 0, edits: [] };
    this.log.push(`show ${link.source.split('(')[0]}`);
    return link.source === EXAMPLE;
  }
  async waitForEngine(): Promise<boolean> {
    return this.engineReady;
  }
  async checkExpressions(): Promise<void> {
    this.log.push('check');
  }
  /** Like the debugger: an answer that arrives when it is no longer wanted is dropped. */
  async record(wanted: () => boolean): Promise<LinkedRun | null> {
    const source = this.shown?.source.split('(')[0] ?? '';
    this.log.push(`record ${source}`);
    const answer = deferred<boolean>();
    this.recordings.push(answer);
    const ok = await answer.promise;
    if (!wanted()) {
      this.log.push(`dropped ${source}`);
      return null;
    }
    if (!ok) return null;
    const id = ++this.sessionId;
    const ids = (): number => this.sessionId;
    return {
      get current() {
        return ids() === id;
      },
      replayEdits: async (edits: readonly Edit[]) => {
        this.log.push(`edits ${edits.map((e) => `${e.name}=${e.expr}@${e.at}`).join(',')}`);
        await this.replayGate?.promise;
      },
      goTo: (position: Position | null) => {
        this.log.push(`goTo ${position}`);
        this.state = { ...this.state, position: position ?? -1 };
      },
    };
  }
}

function setup(hash = ''): { bar: FakeAddressBar; host: FakeSession; link: LinkSync } {
  const bar = new FakeAddressBar();
  bar.current = hash;
  const host = new FakeSession();
  return { bar, host, link: new LinkSync(bar, host) };
}

/** Lets pending promise callbacks (and the hash's gzip) run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/** After a hash change: waits until the link has been decoded (its gzip runs off the thread, late
 * on a loaded machine) and shown, `shows` being how many links the host has shown by then. */
async function shown(host: FakeSession, shows: number): Promise<void> {
  await vi.waitFor(() => expect(host.log.filter((l) => l.startsWith('show ')).length).toBeGreaterThanOrEqual(shows), { timeout: 10_000 });
  await settle();
}

afterEach(() => {
  vi.useRealTimers();
});

describe('share-link restore', () => {
  it('shows code from a link, waits for consent, then records, makes the edits again and goes to the position', async () => {
    const edits = [{ at: 2, name: 'n', expr: '10' }, { at: 4, name: 'm', expr: '0' }];
    const { bar, host, link } = setup(await encodeHash(shared('def f():\n    pass\n', { position: 7, edits })));
    expect(await link.start()).toBe(true);
    expect(link.sharedPending).toBe(true);
    expect(host.log).toEqual(['show def f']);

    const running = link.runShared();
    await settle();
    // Nothing is made again before the recording is there.
    expect(host.log).toEqual(['show def f', 'check', 'record def f']);
    host.recordings[0]!.resolve(true);
    await running;
    expect(host.log.slice(3)).toEqual(['edits n=10@2,m=0@4', 'goTo 7']);
    // The hash kept the link while it was restored, then follows the session.
    expect(bar.written).toEqual([]);
    await vi.waitFor(() => expect(bar.written).toHaveLength(1));
    expect((await decodeHash(bar.written[0]!))?.position).toBe(7);
  });

  it('runs a gallery example from a link at once, unless the link adds Python', async () => {
    const { host, link } = setup(await encodeHash(shared(EXAMPLE, { position: 3 })));
    await link.start();
    expect(link.sharedPending).toBe(false);
    await settle();
    expect(host.log).toEqual(['show def total', 'check', 'record def total']);

    const other = setup(await encodeHash(shared(EXAMPLE, { watches: ['xs'] })));
    await other.link.start();
    expect(other.link.sharedPending).toBe(true);
    expect(other.host.log).toEqual(['show def total']);
  });

  it('drops a recording that answers after a newer link was loaded', async () => {
    const { bar, host, link } = setup(await encodeHash(shared(EXAMPLE, { position: 5 })));
    await link.start();
    await settle();
    expect(host.log).toEqual(['show def total', 'check', 'record def total']);

    // Another link arrives while Python is still recording the first one.
    bar.navigate(await encodeHash(shared('def g():\n    return 1\n', { position: 2 })));
    await shown(host, 2);
    expect(link.sharedPending).toBe(true);
    host.recordings[0]!.resolve(true);
    await settle();
    // The late answer is dropped: no edits made, no jump, and the new link's hash stays.
    expect(host.log).toEqual(['show def total', 'check', 'record def total', 'show def g', 'dropped def total']);
    expect(bar.written).toEqual([]);

    // The newer link restores its own position once the user agrees.
    const running = link.runShared();
    await settle();
    host.recordings[1]!.resolve(true);
    await running;
    expect(host.log.slice(5)).toEqual(['check', 'record def g', 'goTo 2']);
  });

  it('stops a restore whose link was replaced while its edits were made again', async () => {
    const edits = [{ at: 1, name: 'n', expr: '2' }];
    const { bar, host, link } = setup(await encodeHash(shared('def f():\n    pass\n', { position: 3, edits })));
    await link.start();
    host.replayGate = deferred<void>();
    const running = link.runShared();
    await settle();
    host.recordings[0]!.resolve(true);
    await settle();
    expect(host.log.slice(-1)).toEqual(['edits n=2@1']);
    bar.navigate(await encodeHash(shared('def g():\n    pass\n', { position: 5 })));
    await shown(host, 2);
    host.replayGate.resolve();
    await running;
    // No jump to the old link's position in the new link's program.
    expect(host.log.slice(-2)).toEqual(['edits n=2@1', 'show def g']);
    expect(link.sharedPending).toBe(true);
  });

  it('restores the newer link when the hash changes during a restore, and holds the hash until it is done', async () => {
    const { bar, host, link } = setup(await encodeHash(shared(EXAMPLE, { position: 4 })));
    await link.start();
    await settle();
    const second = await encodeHash(shared(EXAMPLE, { position: 6, breakpoints: [2] }));
    bar.navigate(second);
    await shown(host, 2);
    // An example again: its restore starts at once, beside the first one's pending answer.
    expect(host.log).toEqual(['show def total', 'check', 'record def total', 'show def total', 'check', 'record def total']);
    // A move while the link is restored leaves the hash alone.
    host.state = shared(EXAMPLE, { position: 99 });
    link.schedule(0);
    await settle();
    expect(bar.written).toEqual([]);
    host.recordings[1]!.resolve(true);
    await settle();
    expect(host.log.slice(6)).toEqual(['goTo 6']);
    // Only now is the hash written, once, for the second link's session.
    await vi.waitFor(() => expect(bar.written).toHaveLength(1));
    expect((await decodeHash(bar.written[0]!))?.position).toBe(6);
    host.recordings[0]!.resolve(true);
    await settle();
    expect(host.log.slice(7)).toEqual(['dropped def total']);
    expect(bar.written).toHaveLength(1);
  });

  it('asks for one restore when the start and "Run shared code" both want it', async () => {
    const { host, link } = setup(await encodeHash(shared(EXAMPLE)));
    host.engineReady = false;
    await link.start();
    expect(host.log).toEqual(['show def total']);
    host.engineReady = true;
    const a = link.restore();
    const b = link.restore();
    expect(b).toBe(a);
    await settle();
    host.recordings[0]!.resolve(true);
    await Promise.all([a, b]);
    expect(host.log).toEqual(['show def total', 'check', 'record def total', 'goTo 0']);
  });

  it('shows two links opened in a row in that order', async () => {
    const { bar, host, link } = setup();
    expect(await link.start()).toBe(false);
    bar.navigate(await encodeHash(shared('def a():\n    pass\n')));
    bar.navigate(await encodeHash(shared('def b():\n    pass\n')));
    await settle();
    expect(host.log).toEqual(['show def a', 'show def b']);
    expect(host.shown?.source).toMatch(/^def b/);
    // A hash without code is not a link: what is shown stays.
    bar.navigate('#call=f()');
    await settle();
    expect(host.log).toHaveLength(2);
  });
});

describe('hash writes', () => {
  it('wait for the program to stop changing, and a move is written at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bar, host, link } = setup();
    await link.start();
    link.schedule();
    host.state = shared('x = 1\n');
    link.schedule();
    await vi.advanceTimersByTimeAsync(399);
    expect(bar.written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    await vi.waitFor(() => expect(bar.written).toHaveLength(1));
    expect((await decodeHash(bar.written[0]!))?.source).toBe('x = 1\n');
  });

  it('drop a write that a newer one overtook, and skip a hash that is already there', async () => {
    const { bar, host, link } = setup();
    await link.start();
    host.state = shared('old = 1\n');
    const first = link.share();
    host.state = shared('new = 2\n');
    const second = link.share();
    await Promise.all([first, second]);
    expect(bar.written).toHaveLength(1);
    expect((await decodeHash(bar.written[0]!))?.source).toBe('new = 2\n');
    await link.share();
    expect(bar.written).toHaveLength(1);
    // Our own write is not taken for a new link.
    bar.navigate(bar.current);
    await settle();
    expect(host.log).toEqual([]);
  });

  it('keep a link that waits for consent, and share copies it as it is', async () => {
    const hash = await encodeHash(shared('def f():\n    pass\n'));
    const { bar, link } = setup(hash);
    await link.start();
    link.schedule(0);
    await settle();
    await link.share();
    expect(bar.written).toEqual([]);
    expect(bar.copied).toEqual([`https://ndb.test/${hash}`]);
    expect(link.shareNote).toBe('Link copied');
    bar.copyFails = true;
    await link.share();
    expect(link.shareNote).toBe('Copy the link from the address bar');
  });
});

describe("the tab's own link", () => {
  it('runs at once when the tab reloads a hash it wrote itself, and asks for anyone else\'s', async () => {
    const hash = await encodeHash(shared('def f():\n    pass\n'));
    const own = { value: null as string | null, get: () => own.value, set: (h: string) => (own.value = h) };
    const mine = setup(hash);
    mine.bar.ownHash = own;
    own.value = hash;
    expect(await mine.link.start()).toBe(true);
    expect(mine.link.sharedPending).toBe(false);
    await settle();
    expect(mine.host.log).toEqual(['show def f', 'check', 'record def f']);

    const theirs = setup(hash);
    theirs.bar.ownHash = { get: () => 'another hash', set: () => undefined };
    await theirs.link.start();
    expect(theirs.link.sharedPending).toBe(true);
  });

  it('remembers each hash it writes as its own', async () => {
    const { bar, host, link } = setup();
    const written: string[] = [];
    bar.ownHash = { get: () => written.at(-1) ?? null, set: (h) => written.push(h) };
    await link.start();
    host.state = shared('print(2)\n');
    link.schedule(0);
    await settle();
    await settle();
    expect(written.length).toBe(1);
    expect(written[0]).toBe(bar.current);
    expect(await decodeHash(written[0]!)).toMatchObject({ source: 'print(2)\n' });
  });
});

describe('a reload after a run that did not finish', () => {
  /** The tab's run flag (sessionStorage in the browser); `on` at load: the last page stopped
   * during a run. */
  function flag(on: boolean): RunFlag & { value: boolean; sets: boolean[] } {
    const f = { value: on, sets: [] as boolean[], get: () => f.value, set: (v: boolean) => (f.sets.push(v), (f.value = v)) };
    return f;
  }

  it("shows the tab's own link without running it, says why, and runs it when asked", async () => {
    const hash = await encodeHash(shared('def f():\n    pass\n'));
    const { bar, host } = setup(hash);
    bar.ownHash = { get: () => hash, set: () => undefined };
    const marks = new RunMark(flag(true), (done) => done());
    const link = new LinkSync(bar, host, marks);
    expect(await link.start()).toBe(true);
    expect(link.sharedPending).toBe(true);
    expect(link.unfinished).toBe(true);
    await settle();
    expect(host.log).toEqual(['show def f']);
    const running = link.runShared();
    await settle();
    expect(link.unfinished).toBe(false);
    host.recordings[0]!.resolve(true);
    await running;
    expect(host.log).toEqual(['show def f', 'check', 'record def f', 'goTo 0']);
  });

  it('holds even an embed in a frame or a gallery example, and only the first link of the page', async () => {
    const hash = await encodeHash(shared(EXAMPLE));
    const { bar, host } = setup(hash);
    bar.embedded = true;
    const link = new LinkSync(bar, host, new RunMark(flag(true), (done) => done()));
    await link.start();
    expect([link.sharedPending, link.unfinished]).toEqual([true, true]);
    const running = link.runShared();
    await settle();
    host.recordings[0]!.resolve(true);
    await running;
    // another link later in the same page is the usual case again
    bar.navigate(await encodeHash(shared(EXAMPLE, { position: 2 })));
    await shown(host, 2);
    expect([link.sharedPending, link.unfinished]).toEqual([false, false]);
  });

  it('holds the first example of a page opened without a link', async () => {
    const { host, link } = (() => {
      const bar = new FakeAddressBar();
      const host = new FakeSession();
      return { host, link: new LinkSync(bar, host, new RunMark(flag(true), (done) => done())) };
    })();
    expect(await link.start()).toBe(false);
    link.holdIfUnfinished();
    expect([link.sharedPending, link.unfinished]).toEqual([true, true]);
    link.holdIfUnfinished();
    const running = link.runShared();
    expect(link.sharedPending).toBe(false);
    await settle();
    host.recordings[0]!.resolve(true);
    await running;
    expect(host.log).toEqual(['check', 'record ']);
  });

  it('runs as before when the last page finished its runs, and marks the restore as a run until it is drawn', async () => {
    const hash = await encodeHash(shared('def f():\n    pass\n'));
    const { bar, host } = setup(hash);
    bar.ownHash = { get: () => hash, set: () => undefined };
    const f = flag(false);
    const drawn: Array<() => void> = [];
    const link = new LinkSync(bar, host, new RunMark(f, (done) => drawn.push(done)));
    await link.start();
    expect(link.sharedPending).toBe(false);
    await settle();
    expect(f.value).toBe(true);
    host.recordings[0]!.resolve(true);
    await settle();
    // answered, but not yet drawn: still marked
    expect(f.value).toBe(true);
    for (const done of drawn) done();
    expect(f.value).toBe(false);
  });
});

describe('embedded in a course page', () => {
  it('runs the linked code at once, without asking', async () => {
    const hash = await encodeHash(shared('def f():\n    pass\n', { watches: ['1 + 1'] }));
    const { bar, host, link } = setup(hash);
    bar.embedded = true;
    expect(await link.start()).toBe(true);
    expect(link.sharedPending).toBe(false);
    await settle();
    expect(host.log).toEqual(['show def f', 'check', 'record def f']);
  });

  it('copies an iframe of the current link, or shows it when the clipboard refuses', async () => {
    const { bar, host, link } = setup();
    await link.start();
    host.state = shared('print(3)\n', { input: 'a\nb\n' });
    await link.copyEmbed();
    expect(bar.copied).toHaveLength(1);
    const src = /src="([^"]+)"/.exec(bar.copied[0]!)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(src).toMatch(/^https:\/\/ndb\.test\/\?embed=1#code=/);
    expect(await decodeHash(new URL(src).hash)).toMatchObject({ source: 'print(3)\n', input: 'a\nb\n' });
    expect(link.shareNote).toBe('Embed code copied');
    expect(link.embedFallback).toBeNull();
    bar.copyFails = true;
    await link.copyEmbed();
    expect(link.embedFallback).toMatch(/^<iframe src=/);
  });
});
