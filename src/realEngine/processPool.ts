// Several engine processes behind one PythonHost, for a server that holds many sessions at once
// (`ndb mcp`): a run stuck inside one uninterruptible call holds its process until the deadline,
// and every other request goes to another one. Each owner (a session: processHost.ts, one owner
// one interpreter) keeps to the process it ran in; a new owner gets a fresh process, which is
// kept warm beside the busy ones (up to `max`) so that a new session never waits for Python to
// start. With more owners than processes, an idle process of another owner is replaced by a
// fresh one.

import { DefaultOwnerHost } from './defaultOwnerHost';
import type { PythonHost } from './pythonHost';
import { DEFAULT_OWNER, ProcessHost, type ProcessHostOptions } from './processHost';

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
    this.add();
    this.byDefault = this.forOwner(DEFAULT_OWNER);
  }

  /** Resolves once the first process is ready. */
  whenReady(): Promise<void> {
    return this.hosts[0]!.whenReady();
  }

  /** How many processes are running. */
  get size(): number {
    return this.hosts.length;
  }

  forOwner(owner: string): PythonHost {
    const on = <T>(task: (host: PythonHost) => Promise<T>): Promise<T> => this.use(owner, task);
    return {
      record: (source, call, options) => on((h) => h.record(source, call, options)),
      codeLines: (source) => on((h) => h.codeLines(source)),
      expressionError: (expr) => on((h) => h.expressionError(expr)),
      evaluateOnLocals: (expr, locals) => on((h) => h.evaluateOnLocals(expr, locals)),
      sameValue: (predicted, expected) => on((h) => h.sameValue(predicted, expected)),
      firstArgument: (args) => on((h) => h.firstArgument(args)),
      callArguments: (values) => on((h) => h.callArguments(values)),
      forOwner: (other) => this.forOwner(other),
    };
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

  /** The owner's own process; else a fresh idle one (a ready one first); else a new one while
   * there is room; else the least recently used idle one (replaced by a fresh process), or the
   * least busy. Then a fresh spare, if none is left and there is room for one. */
  private use<T>(owner: string, task: (host: PythonHost) => Promise<T>): Promise<T> {
    const idle = this.hosts.filter((h) => h.busy === 0);
    const fresh = idle.filter((h) => h.owner === null);
    const host =
      this.hosts.find((h) => h.owner === owner) ??
      fresh.find((h) => h.isReady) ??
      fresh[0] ??
      (this.hosts.length < this.max ? this.add() : undefined) ??
      [...idle].sort((a, b) => (this.usedAt.get(a) ?? 0) - (this.usedAt.get(b) ?? 0))[0] ??
      [...this.hosts].sort((a, b) => a.busy - b.busy)[0]!;
    this.usedAt.set(host, ++this.clock);
    const run = task(host.forOwner(owner));
    if (!this.hosts.some((h) => h.owner === null && h.busy === 0) && this.hosts.length < this.max) this.add();
    return run;
  }
}
