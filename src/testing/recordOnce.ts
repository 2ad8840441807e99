// A command that records one program with the Node faces' engine and ends without closing it, as
// `ndb trace` does: `node --import tsx/esm src/testing/recordOnce.ts CONFINEMENT FILE [hold]`. The
// OS sandbox's tests run it to see whether an engine process outlives the command that started it;
// with `hold` it waits after printing, to be killed (SIGKILL: no exit handler of its own runs).

import { readFileSync } from 'node:fs';
import type { Confinement } from '../realEngine/node/engineChild';
import { ProcessHost } from '../realEngine/node/processHost';

const [confinement, file, hold] = process.argv.slice(2) as [Confinement, string, string | undefined];
const host = new ProcessHost({ confinement, spare: false });
const rec = await host.record(readFileSync(file, 'utf8'), '', { timeLimit: 5 });
process.stdout.write(`${JSON.stringify({ exit: rec.exit, stdout: rec.stdout })}\n`);
if (hold === 'hold') setInterval(() => undefined, 60_000);
