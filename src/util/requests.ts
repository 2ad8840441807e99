// Request/reply over a message channel (a Web Worker): each request gets an id, the answer that
// echoes the id settles its promise, and an answer whose request is no longer pending (superseded,
// failed, or from a worker that was replaced) is dropped. The real engine's and the neural engine's
// clients both keep their requests here. Pure: it never touches the channel itself.

interface Entry<Answer> {
  resolve(answer: Answer): void;
  reject(err: Error): void;
  /** Runs once when the request settles, however it does (e.g. clears its timers). */
  settled?: () => void;
}

export class PendingRequests<Answer> {
  private nextId = 1;
  private readonly pending = new Map<number, Entry<Answer>>();

  /** A new request: the id to send with it, and the promise its answer settles. */
  open(settled?: () => void): { id: number; answer: Promise<Answer> } {
    const id = this.nextId++;
    const answer = new Promise<Answer>((resolve, reject) => {
      this.pending.set(id, settled ? { resolve, reject, settled } : { resolve, reject });
    });
    return { id, answer };
  }

  /** Whether request `id` still waits for its answer. */
  has(id: number): boolean {
    return this.pending.has(id);
  }

  /** The ids of the requests that wait now. */
  ids(): number[] {
    return [...this.pending.keys()];
  }

  /** Settles request `id` with its answer; false (the answer dropped) when it no longer waits. */
  resolve(id: number, answer: Answer): boolean {
    const entry = this.take(id);
    entry?.resolve(answer);
    return entry !== undefined;
  }

  /** Fails request `id`; false when it no longer waits. */
  reject(id: number, err: Error): boolean {
    const entry = this.take(id);
    entry?.reject(err);
    return entry !== undefined;
  }

  /** Fails every request that waits (the worker is gone). */
  rejectAll(err: Error): void {
    for (const id of [...this.pending.keys()]) this.reject(id, err);
  }

  private take(id: number): Entry<Answer> | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.settled?.();
    return entry;
  }
}
