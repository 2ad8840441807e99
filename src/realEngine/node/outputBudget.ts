// What an engine process writes on its own stdout and stderr, past the tracer's capture (a
// program's `os.write(2, …)`, or JavaScript it reached), bounded per request: the face's stderr
// is where MCP clients and editors keep their logs, and 70 MB reached it from one session before
// this (issue 44). Up to `limit` bytes a request pass; the rest is dropped, and said once.

/** The bytes of an engine's own output passed on per request (both streams together). */
export const ENGINE_OUTPUT_BYTES = 64 * 1024;

export class OutputBudget {
  private used = 0;
  private dropped = 0;

  constructor(
    private readonly write: (chunk: Buffer) => void,
    private readonly limit = ENGINE_OUTPUT_BYTES,
  ) {}

  /** A chunk of either stream: passed on while the request's budget lasts. */
  take(chunk: Buffer): void {
    const room = this.limit - this.used;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.used += part.length;
      this.write(part);
    }
    if (chunk.length > room) {
      if (this.dropped === 0) {
        this.write(
          Buffer.from(
            `\nndb: the program wrote more than ${Math.round(this.limit / 1024)} KB straight to file descriptors 1 and 2 ` +
              '(outside its recorded output) in one request; the rest of it is dropped\n',
          ),
        );
      }
      this.dropped += chunk.length - Math.max(0, room);
    }
  }

  /** A new request: a new budget. */
  reset(): void {
    this.used = 0;
    this.dropped = 0;
  }

  /** Bytes dropped since the last reset. */
  get droppedBytes(): number {
    return this.dropped;
  }
}
