// Several engine processes behind one PythonHost, for a server that holds many sessions at once
// (`ndb mcp`): a run stuck inside one uninterruptible call holds its process until the deadline,
// and every other request goes to another one. Each owner (a session: processHost.ts, one owner
// one interpreter) keeps to the process it ran in, until it is released (the session ended), when
// that process ends. A new owner gets a fresh process, and SPARES fresh processes are kept warm
// beside the others (each restored from the interpreter the first one saved: engineSnapshot.ts),
// loaded after the server's first requests and then as soon as one is taken (refillSoon), so that a
// new session does not wait for Python to start. There
// are never more than `max` processes: with more owners than that, an idle process of another owner
// is replaced by a fresh one.

import { availableParallelism } from 'node:os';
import { DefaultOwnerHost } from './defaultOwnerHost';
import { hostFromAsk, type PythonHost } from '../engineProtocol';
import { engineWaitHere } from './engineWait';
import { DEFAULT_OWNER, ProcessHost, type ProcessHostOptions } from './processHost';

/** Fresh processes kept ready beside the ones sessions hold. */
export const SPARES = 2;

/** How many processes load at once when the pool refills: one core is left to what runs. */
const LOADING_AT_ONCE = Math.max(1, availableParallelism() - 1);

/** Refilling the spares waits until no request has run for REFILL_IDLE_MS (a tool call is several
 * requests back to back), and at most REFILL_DEFER_MS (refillSoon). */
const REFILL_IDLE_MS = 250;
const REFILL_DEFER_MS = 1_500;

/** How long a request waits for a process when every one is busy with another owner's requests
 * (then it fails with EngineBusy): well within an MCP client's own 60 s request timeout. */
export const POOL_WAIT_MS = 30_000;

/** Every process was busy with other sessions' requests for as long as a request may wait. */
export class EngineBusy extends Error {}

export interface PoolOptions extends ProcessHostOptions {
  /** The most processes at once (default 4). */
  max?: number;
  /** How long a request waits for a free process (default POOL_WAIT_MS). */
  waitMs?: number;
}

export class ProcessPool extends DefaultOwnerHost {
  private readonly hosts: ProcessHost[] = [];
  private readonly max: number;
  /** When each host last served a request (the least recent idle one is reused first). */
  private readonly usedAt = new Map<ProcessHost, number>();
  private clock = 0;
  private closed = false;
  /** Requests waiting for a process to be free, woken when any request ends. */
  private waiters: Array<() => void> = [];
  /** Requests running now, whether the first refill has happened, and its two timers (refillSoon). */
  private running = 0;
  private settled = false;
  private refillIdle: ReturnType<typeof setTimeout> | null = null;
  private refillLatest: ReturnType<typeof setTimeout> | null = null;
  protected readonly byDefault: PythonHost;

  constructor(private readonly options: PoolOptions = {}) {
    super();
    this.max = Math.max(2, options.max ?? 4);
    this.add();
    this.byDefault = this.forOwner(DEFAULT_OWNER);
    // The spares start once the first process is ready (from the interpreter it saved:
    // engineSnapshot.ts, and not competing with it for the cores while it loads), and after the
    // requests waiting for it (refillSoon).
    this.hosts[0]!.whenReady().then(
      () => this.refillSoon(),
      () => undefined,
    );
  }

  /** Resolves once the first process is ready. */
  whenReady(): Promise<void> {
    return this.hosts[0]!.whenReady();
  }

  /** When the first process was started (Date.now()). */
  get startedAt(): number {
    return this.hosts[0]!.startedAt;
  }

  /** How many processes are running or starting. */
  get size(): number {
    return this.hosts.filter((h) => h.hasProcess).length;
  }

  /** The fresh processes (nobody's yet): how many are ready, and how many are loading. */
  get spares(): { ready: number; loading: number } {
    const fresh = this.hosts.filter((h) => this.isFresh(h));
    const ready = fresh.filter((h) => h.isReady).length;
    return { ready, loading: fresh.length - ready };
  }

  forOwner(owner: string): PythonHost {
    return hostFromAsk((question) => this.use(owner, (h) => h.ask(question)), {
      forOwner: (other) => this.forOwner(other),
      release: async () => {
        for (const host of this.hosts) if (host.owner === owner) host.releaseOwner(owner);
        this.refillSoon();
      },
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopRefillTimers();
    await Promise.all(this.hosts.map((h) => h.close()));
  }

  private add(): ProcessHost {
    // The pool keeps its own fresh process; its hosts keep none each.
    const host = new ProcessHost({ ...this.options, spare: false });
    this.hosts.push(host);
    return host;
  }

  /** A host whose process is fresh (nobody's yet) and idle. */
  private isFresh(host: ProcessHost): boolean {
    return host.hasProcess && host.owner === null && host.busy === 0;
  }

  /** The owner's own process; else a fresh one (a ready one first); else a host with no process
   * (it starts one); else a new host while there is room; else the least recently used idle one
   * (replaced by a fresh process). A process that is loading or running a request of another
   * owner is never taken from it: with none free, the request waits (up to `waitMs`) for one, else
   * fails with EngineBusy. Then a fresh spare. */
  private async use<T>(owner: string, task: (host: PythonHost) => Promise<T>): Promise<T> {
    const until = Date.now() + (this.options.waitMs ?? POOL_WAIT_MS);
    let host = this.pick(owner);
    let found: () => void = () => undefined;
    if (!host) engineWaitHere(new Promise<void>((resolve) => (found = resolve)), Date.now()); // the face says so once
    try {
      while (!host) {
        const left = until - Date.now();
        if (left <= 0) {
          throw new EngineBusy(
            `all ${this.max} Python engines are busy with other sessions' runs (waited ${Math.round((this.options.waitMs ?? POOL_WAIT_MS) / 1000)} s); try again in a moment, or end a session`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        host = this.pick(owner);
      }
    } finally {
      found();
    }
    this.usedAt.set(host, ++this.clock);
    this.running++;
    const run = task(host.forOwner(owner));
    this.refillSoon();
    return run.finally(() => {
      this.running--;
      this.wake();
      this.refillSoon();
    });
  }

  private pick(owner: string): ProcessHost | undefined {
    const fresh = this.hosts.filter((h) => this.isFresh(h));
    const idle = this.hosts.filter((h) => h.busy === 0);
    return (
      this.hosts.find((h) => h.owner === owner) ??
      fresh.find((h) => h.isReady) ??
      fresh[0] ??
      this.hosts.find((h) => !h.hasProcess) ??
      (this.hosts.length < this.max ? this.add() : undefined) ??
      [...idle].sort((a, b) => (this.usedAt.get(a) ?? 0) - (this.usedAt.get(b) ?? 0))[0]
    );
  }

  /** A request ended: the waiting ones look again. */
  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const go of waiting) go();
  }

  /** Refills the spares: at once, as soon as one is taken, once the server's first requests are
   * over; until then, once no request has run for REFILL_IDLE_MS, or REFILL_DEFER_MS from the
   * first call, whichever comes first. Processes loading beside the first session's run take the
   * cores it needs (an agent waits on it at launch): on a loaded 2-core machine, spares started as
   * the first session was taken made MCP's first start_session 5.5× pdb's first stop (`npm run
   * bench:start -- --load 4`); later, sessions started back to back (`npm run bench:mcp`) need
   * the spares loading as early as they can. */
  private refillSoon(): void {
    if (this.closed) return;
    if (this.settled) {
      this.refillNow();
      return;
    }
    this.refillLatest ??= setTimeout(() => this.refillNow(), REFILL_DEFER_MS);
    this.refillLatest.unref?.();
    if (this.refillIdle) clearTimeout(this.refillIdle);
    this.refillIdle = null;
    if (this.running > 0) return; // the request's end calls again
    this.refillIdle = setTimeout(() => {
      this.refillIdle = null;
      if (this.running === 0) this.refillNow();
    }, REFILL_IDLE_MS);
    this.refillIdle.unref?.();
  }

  private refillNow(): void {
    this.settled = true;
    this.stopRefillTimers();
    this.keepSpare();
  }

  private stopRefillTimers(): void {
    if (this.refillIdle) clearTimeout(this.refillIdle);
    if (this.refillLatest) clearTimeout(this.refillLatest);
    this.refillIdle = this.refillLatest = null;
  }

  /** SPARES fresh processes kept warm, within `max` processes in all: a replacement starts as soon
   * as a spare is taken (or a session's process ends), once the server's first requests are over
   * (refillSoon), so that an agent that ends a session and starts the next at once finds one ready (issue 34,
   * measured with `npm run bench:mcp`). No more than LOADING_AT_ONCE processes load at a time (the
   * next starts once one is ready): processes that load side by side on a small machine each take
   * as long as all of them, and the one a request waits for would be ready no sooner. */
  private keepSpare(): void {
    if (this.closed) return;
    const loading = this.hosts.filter((h) => h.hasProcess && !h.isReady);
    let fresh = this.hosts.filter((h) => this.isFresh(h)).length;
    let starting = loading.length;
    while (fresh < SPARES && this.size < this.max && starting < LOADING_AT_ONCE) {
      const host = this.hosts.find((h) => !h.hasProcess) ?? (this.hosts.length < this.max ? this.add() : undefined);
      if (!host) return;
      host.warm();
      host.whenReady().then(
        () => this.refillSoon(),
        () => undefined, // its host starts another, which a later request or release looks at
      );
      fresh++;
      starting++;
    }
    // full for now: look again once a loading one is ready
    if (fresh < SPARES && starting >= LOADING_AT_ONCE && loading.length > 0) {
      loading[0]!.whenReady().then(
        () => this.refillSoon(),
        () => undefined,
      );
    }
  }
}
