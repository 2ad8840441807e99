// The debugging sessions an MCP client holds: bounded in number, each bounded in events and time
// by its runs (LIVE_LIMITS), dropped after an hour unused. One request runs at a time: Pyodide is
// one interpreter, and a step must not interleave with another on the same session.

import { LiveSession } from '../cli/liveSession';

export const MAX_SESSIONS = 8;
export const IDLE_MS = 60 * 60 * 1000;

/** A request the client can fix: answered as a tool error with this message. */
export class ToolError extends Error {}

interface Held {
  live: LiveSession;
  usedAt: number;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Held>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs `task` after every request before it has finished. */
  serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Checks that a new session may start (call before the expensive recording). */
  reserve(): void {
    this.dropIdle();
    if (this.sessions.size >= MAX_SESSIONS) {
      throw new ToolError(`too many sessions (${MAX_SESSIONS}): end one with end_session first (open: ${[...this.sessions.keys()].join(', ')})`);
    }
  }

  add(live: LiveSession): string {
    this.reserve();
    const id = `s${this.nextId++}`;
    this.sessions.set(id, { live, usedAt: this.now() });
    return id;
  }

  get(id: string): LiveSession {
    this.dropIdle();
    const held = this.sessions.get(id);
    if (!held) {
      const open = [...this.sessions.keys()];
      throw new ToolError(`unknown session '${id}': start one with start_session${open.length ? ` (open: ${open.join(', ')})` : ''}`);
    }
    held.usedAt = this.now();
    return held.live;
  }

  end(id: string): void {
    this.get(id);
    this.sessions.delete(id);
  }

  get size(): number {
    return this.sessions.size;
  }

  private dropIdle(): void {
    const now = this.now();
    for (const [id, held] of this.sessions) if (now - held.usedAt > IDLE_MS) this.sessions.delete(id);
  }
}
