// Several engine processes behind one PythonHost, for a server that holds many sessions at once
// (`ndb mcp`): a run stuck inside one uninterruptible call holds its process until the deadline,
// and every other request goes to another one. One process is kept idle and warm beside the busy
// ones (up to `max`), so that a request never waits for Python to start.

import type { Recording } from '../core/trace';
import type { CodeLines, LocalsEvaluation, PythonHost } from './pythonHost';
import { ProcessHost, type ProcessHostOptions } from './processHost';
import type { RecordOptions } from './realEngine';

export interface PoolOptions extends ProcessHostOptions {
  /** The most processes at once (default 3). */
  max?: number;
}

export class ProcessPool implements PythonHost {
  private readonly hosts: ProcessHost[] = [];
  private readonly max: number;

  constructor(private readonly options: PoolOptions = {}) {
    this.max = Math.max(2, options.max ?? 3);
    this.add();
    this.add();
  }

  /** Resolves once the first process is ready. */
  whenReady(): Promise<void> {
    return this.hosts[0]!.whenReady();
  }

  /** How many processes are running. */
  get size(): number {
    return this.hosts.length;
  }

  record(source: string, call: string, options?: RecordOptions): Promise<Recording> {
    return this.use((h) => h.record(source, call, options));
  }

  codeLines(source: string): Promise<CodeLines> {
    return this.use((h) => h.codeLines(source));
  }

  expressionError(expr: string): Promise<string | null> {
    return this.use((h) => h.expressionError(expr));
  }

  evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation> {
    return this.use((h) => h.evaluateOnLocals(expr, locals));
  }

  sameValue(predicted: string, expected: string): Promise<boolean> {
    return this.use((h) => h.sameValue(predicted, expected));
  }

  firstArgument(args: string): Promise<string | null> {
    return this.use((h) => h.firstArgument(args));
  }

  callArguments(values: readonly string[]): Promise<string | null> {
    return this.use((h) => h.callArguments(values));
  }

  async close(): Promise<void> {
    await Promise.all(this.hosts.map((h) => h.close()));
  }

  private add(): ProcessHost {
    const host = new ProcessHost(this.options);
    this.hosts.push(host);
    return host;
  }

  /** An idle process (a ready one first), else the least busy; then a warm spare if none is left
   * idle and there is room for one. */
  private use<T>(task: (host: ProcessHost) => Promise<T>): Promise<T> {
    const idle = this.hosts.filter((h) => h.busy === 0);
    const host = idle.find((h) => h.isReady) ?? idle[0] ?? [...this.hosts].sort((a, b) => a.busy - b.busy)[0]!;
    const run = task(host);
    if (this.hosts.every((h) => h.busy > 0) && this.hosts.length < this.max) this.add();
    return run;
  }
}
