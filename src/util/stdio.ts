// Servers that speak a protocol on stdout (`ndb dap`, `ndb mcp`) must own it: one stray line
// from a library (a console.log, a warning) would corrupt the stream. claimStdout() hands out
// the only writer to the real stdout and sends everything else to stderr.

import { Writable } from 'node:stream';

let claimed: Writable | null = null;

export function claimStdout(): Writable {
  if (claimed) return claimed;
  const realWrite = process.stdout.write.bind(process.stdout) as (chunk: Uint8Array | string, callback: (err?: Error | null) => void) => boolean;
  claimed = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      realWrite(chunk, (err) => callback(err ?? null));
    },
  });
  const toStderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = toStderr as typeof process.stdout.write;
  const log = (...args: unknown[]) => console.error(...args);
  console.log = log;
  console.info = log;
  console.debug = log;
  console.warn = log;
  console.dir = (item: unknown) => console.error(item);
  // A client that went away leaves nothing to serve.
  process.stdout.on('error', () => process.exit(0));
  return claimed;
}

/** A line on stderr, the servers' log. */
export function logLine(text: string): void {
  process.stderr.write(`ndb: ${text}\n`);
}
