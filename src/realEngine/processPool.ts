// Several engine processes behind one PythonHost, for a server that holds many sessions at once
// (`ndb mcp`): a run stuck inside one uninterruptible call holds its process until the deadline,
// and every other request goes to another one. Each owner (a session: processHost.ts, one owner
// one interpreter) keeps to the process it ran in, until it is released (the session ended), when
// that process ends. A new owner gets a fresh process, and one fresh process is kept warm beside
// the others so that a new session never waits for Python to start. There are never more than
// `max` processes: with more owners than that, an idle process of another owner is replaced by a
// fresh one.

import { DefaultOwnerHost } from './defaultOwnerHost';
import { hostFromAsk, type PythonHost } from './engineProtocol';
import { DEFAULT_OWNER, ProcessHost, type ProcessHostOptions } from './processHost';

/** Fresh processes kept ready beside the ones sessions hold. */
export const SPARES = 2;

export interface PoolOptions extends ProcessHostOptions {
  /** The most processes at once (default 4). */
  max?: number;
}

export class ProcessPool extends DefaultOwnerHost {
  private readonly hosts: ProcessHost[] = [];
  private readonly max: number;
  /** When each host last served a request (the least recent idle one is reused first). */
  private readonly usedAt = new Map<ProcessHost, number>();
  private clock = 0;
  protected readonly byDefault: PythonHost;

  constructor(private readonly options: PoolOptions = {}) {
    super();
    this.max = Math.max(2, options.max ?? 4);
    this.add();
    this.byDefault = this.forOwner(DEFAULT_OWNER);
  }

  /** Resolves once the first process is ready. */
  whenReady(): Promise<void> {
    return this.hosts[0]!.whenReady();
  }

  /** How many processes are running or starting. */
  get size(): number {
    return this.hosts.filter((h) => h.hasProcess).length;
  }

  forOwner(owner: string): PythonHost {
    return hostFromAsk((question) => this.use(owner, (h) => h.ask(question)), {
      forOwner: (other) => this.forOwner(other),
      release: async () => {
        for (const host of this.hosts) if (host.owner === owner) host.releaseOwner(owner);
        this.keepSpare();
      },
    });
  }

  async close(): Promise<void> {
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
   * (replaced by a fresh process), or the least busy. Then a fresh spare. */
  private use<T>(owner: string, task: (host: PythonHost) => Promise<T>): Promise<T> {
    const fresh = this.hosts.filter((h) => this.isFresh(h));
    const idle = this.hosts.filter((h) => h.busy === 0);
    const host =
      this.hosts.find((h) => h.owner === owner) ??
      fresh.find((h) => h.isReady) ??
      fresh[0] ??
      this.hosts.find((h) => !h.hasProcess) ??
      (this.hosts.length < this.max ? this.add() : undefined) ??
      [...idle].sort((a, b) => (this.usedAt.get(a) ?? 0) - (this.usedAt.get(b) ?? 0))[0] ??
      [...this.hosts].sort((a, b) => a.busy - b.busy)[0]!;
    this.usedAt.set(host, ++this.clock);
    const run = task(host.forOwner(owner));
    this.keepSpare();
    return run;
  }

  /** SPARES fresh processes kept warm, within `max` processes in all: an agent that ends a session
   * and starts the next at once takes the second while the first's replacement loads (Python
   * takes seconds to start; issue 34 measured it with `npm run bench:mcp`). */
  private keepSpare(): void {
    let fresh = this.hosts.filter((h) => this.isFresh(h)).length;
    while (fresh < SPARES && this.size < this.max) {
      const empty = this.hosts.find((h) => !h.hasProcess);
      if (empty) empty.warm();
      else if (this.hosts.length < this.max) this.add().warm();
      else return;
      fresh++;
    }
  }
}
