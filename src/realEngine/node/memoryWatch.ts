// The memory limit of an engine process, held from outside it: Python's memory is WebAssembly
// memory that Pyodide grows up to 4 GB, which neither Node's heap limit nor an address-space limit
// can hold (V8 reserves far more address space than it uses, so RLIMIT_AS stops Pyodide from
// loading at all). The parent reads the resident memory of the engine's whole process tree from
// /proc and kills the tree past the limit; nothing the program does inside can stop the reading.

import { readFileSync } from 'node:fs';

/** The resident memory (bytes) of `pid` and all its descendants; null once `pid` is gone or where
 * /proc cannot tell (not Linux). */
export function treeRss(pid: number): number | null {
  const own = rssOf(pid);
  if (own === null) return null;
  let total = own;
  for (const child of childrenOf(pid)) total += treeRss(child) ?? 0;
  return total;
}

function rssOf(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    // A zombie has no VmRSS line: it holds no memory.
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const tasks = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return tasks.split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

export interface MemoryWatchOptions {
  /** The limit of the whole tree, in bytes. */
  limit: number;
  /** How often to look (ms). */
  everyMs?: number;
  /** Told once, when the tree is over the limit (with what was measured). */
  onExceeded: (bytes: number) => void;
}

/** Watches a process tree until `stop`; an unref'd timer, so it never keeps a command alive. */
export class MemoryWatch {
  private readonly timer: ReturnType<typeof setInterval> | null;
  private done = false;

  constructor(pid: number | undefined, private readonly options: MemoryWatchOptions) {
    if (pid === undefined || rssOf(pid) === null) {
      this.timer = null; // no /proc: nothing to watch with
      return;
    }
    this.timer = setInterval(() => this.check(pid), options.everyMs ?? 100);
    this.timer.unref();
  }

  /** Whether the limit is held here (Linux's /proc was readable when the watch began). */
  get active(): boolean {
    return this.timer !== null;
  }

  stop(): void {
    this.done = true;
    if (this.timer) clearInterval(this.timer);
  }

  private check(pid: number): void {
    if (this.done) return;
    const bytes = treeRss(pid);
    if (bytes === null) return this.stop();
    if (bytes > this.options.limit) {
      this.stop();
      this.options.onExceeded(bytes);
    }
  }
}
