// A DAP session recorded message by message, for the golden transcripts in fixtures/dap/: a
// script of requests is sent to `ndb dap` over stdio one at a time; after each, what the adapter
// sent back (the response and the events it caused) is kept in the order it came. Paths and
// times are replaced by placeholders, so that a transcript is the same on every machine.

import { spawn } from 'node:child_process';
import { REPO_ROOT } from '../util/repoRoot';

export type Message = Record<string, unknown> & { type: string; seq?: number };

/** One request of a script, and the events of which one ends its turn besides the response (a
 * move ends with `stopped` or `terminated`). */
export interface ScriptStep {
  command: string;
  arguments?: Record<string, unknown>;
  until?: readonly string[];
}

export type Transcript = Array<{ sent: Message; received: Message[] }>;

/** Content-Length framing, both ways. */
function frame(msg: object): string {
  const body = JSON.stringify(msg);
  return `Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`;
}

/** Runs `script` against a fresh `ndb dap`; `placeholders` maps text (a folder) to what the
 * transcript says instead; `drop` leaves out what differs by machine. */
export async function recordTranscript(
  script: readonly ScriptStep[],
  placeholders: Record<string, string>,
  drop: (msg: Message) => boolean = () => false,
): Promise<Transcript> {
  const child = spawn(process.execPath, ['bin/ndb.mjs', 'dap'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let buffer = Buffer.alloc(0);
  const inbox: Message[] = [];
  let wake: (() => void) | null = null;
  child.stdout.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const head = buffer.indexOf('\r\n\r\n');
      if (head < 0) break;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, head).toString())?.[1]);
      if (buffer.length < head + 4 + length) break;
      inbox.push(JSON.parse(buffer.subarray(head + 4, head + 4 + length).toString('utf8')) as Message);
      buffer = buffer.subarray(head + 4 + length);
    }
    wake?.();
  });
  const transcript: Transcript = [];
  try {
    for (const [i, step] of script.entries()) {
      const sent: Message = { seq: i + 1, type: 'request', command: step.command, ...(step.arguments ? { arguments: step.arguments } : {}) };
      child.stdin.write(frame(sent));
      const received: Message[] = [];
      const until = step.until ?? [];
      let ended = until.length === 0;
      let answered = false;
      const deadline = Date.now() + 90_000;
      while (!answered || !ended) {
        if (inbox.length === 0) {
          if (Date.now() > deadline) throw new Error(`no answer to ${step.command} (waiting for ${answered ? until.join(' or ') : 'the response'})`);
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 1_000);
          });
          continue;
        }
        const msg = inbox.shift()!;
        // the adapter's own numbering is left out (the order is the transcript's), so that a
        // message dropped here does not renumber the rest
        const { seq: _seq, ...kept } = msg;
        if (!drop(msg)) received.push(kept as Message);
        if (msg.type === 'response' && msg.request_seq === sent.seq) answered = true;
        if (msg.type === 'event' && until.includes(String(msg.event))) ended = true;
      }
      transcript.push({ sent, received });
    }
  } finally {
    child.kill();
  }
  return normalized(transcript, placeholders);
}

function normalized(transcript: Transcript, placeholders: Record<string, string>): Transcript {
  let text = JSON.stringify(transcript);
  for (const [from, to] of Object.entries(placeholders)) text = text.split(JSON.stringify(from).slice(1, -1)).join(to);
  return JSON.parse(text, (key, value: unknown) => (key === 'timestamp' || key.endsWith('Ms') ? '<time>' : value)) as Transcript;
}
