// The debugging sessions an MCP client holds: bounded in number, each bounded in events and time
// by its runs, dropped after an hour unused. Requests on one session run one at a time (a step must
// not interleave with another on the same session); sessions do not wait for each other (the
// engine is a pool of processes: a run stuck in one holds no other session).

import { LiveSession } from '../session/liveSession';

export const MAX_SESSIONS = 8;
export const IDLE_MS = 60 * 60 * 1000;

/** A request the client can fix: answered as a tool error with this message. */
export class ToolError extends Error {}

interface Held {
  live: LiveSession;
  usedAt: number;
  /** The output already returned to the client, per stream: states carry only what is new. */
  outputSent: number;
  errorsSent: number;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Held>();
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Runs `task` after every request before it on the same key (a session id; '' for requests
   * that hold no session) has finished. */
  serial<T>(task: () => Promise<T>, key = ''): Promise<T> {
    const before = key === '' ? this.queue : (this.queues.get(key) ?? Promise.resolve());
    const run = before.then(task, task);
    const settled = run.catch(() => undefined);
    if (key === '') this.queue = settled;
    else {
      this.queues.set(key, settled);
      // forget a queue once it is empty, so that ended sessions leave nothing behind
      void settled.then(() => {
        if (this.queues.get(key) === settled) this.queues.delete(key);
      });
    }
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
    this.sessions.set(id, { live, usedAt: this.now(), outputSent: 0, errorsSent: 0 });
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

  /** The output of the session's current stop not yet returned (marked returned now), and its
   * whole length. */
  newOutput(id: string, text: string, stream: 'stdout' | 'stderr' = 'stdout'): { output: string; length: number } {
    const held = this.sessions.get(id);
    if (!held) return { output: text, length: text.length };
    const key = stream === 'stdout' ? 'outputSent' : 'errorsSent';
    const output = text.length > held[key] ? text.slice(held[key]) : '';
    held[key] = text.length;
    return { output, length: text.length };
  }

  end(id: string): void {
    const live = this.get(id);
    this.sessions.delete(id);
    // its interpreter ends with it: nothing of its program stays behind
    void live.host.release();
  }

  get size(): number {
    return this.sessions.size;
  }

  private dropIdle(): void {
    const now = this.now();
    for (const [id, held] of this.sessions) {
      if (now - held.usedAt <= IDLE_MS) continue;
      this.sessions.delete(id);
      void held.live.host.release();
    }
  }
}
