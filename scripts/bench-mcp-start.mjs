// npm run bench:mcp [-- --cycles N] [-- --pause S]: how long an agent waits for a debugging session
// of `ndb mcp` (issue 34). Drives the server with the MCP SDK's own client over stdio, as an agent
// does, and times start_session → end_session:
//
// - cold: the first cycle right after the server starts (its first interpreter still loading);
// - warm: once the server has been idle for a moment, N cycles back to back (default 5), the median
//   and each one (each session gets an interpreter of its own, so each ended one is replaced).
//
// Both in the same run, since times on these machines vary with their load. Prints one JSON line.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const CYCLES = Math.max(1, arg('cycles', 5));
const PAUSE_S = Math.max(0, arg('pause', 0));
const SETTLE_S = 20;
const CODE = 'def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function cycle(client) {
  const t = performance.now();
  const started = await client.callTool({ name: 'start_session', arguments: { code: CODE, call: 'f([1, 2, 3])' } }, undefined, { timeout: 120_000 });
  if (started.isError) throw new Error(`start_session failed: ${started.content?.[0]?.text}`);
  const startMs = performance.now() - t;
  await client.callTool({ name: 'end_session', arguments: { session: started.structuredContent.session } });
  return { start_ms: Math.round(startMs), cycle_ms: Math.round(performance.now() - t) };
}

const launched = performance.now();
const transport = new StdioClientTransport({ command: 'node', args: ['bin/ndb.mjs', 'mcp'], stderr: 'ignore' });
const client = new Client({ name: 'ndb-bench', version: '0.0.0' });
await client.connect(transport);
const cold = await cycle(client);
cold.since_launch_ms = Math.round(performance.now() - launched);
await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
const warm = [];
for (let i = 0; i < CYCLES; i++) {
  warm.push(await cycle(client));
  if (PAUSE_S) await new Promise((r) => setTimeout(r, PAUSE_S * 1000));
}
await client.close();
console.log(
  JSON.stringify({
    cold,
    warm_median_cycle_ms: median(warm.map((w) => w.cycle_ms)),
    warm_median_start_ms: median(warm.map((w) => w.start_ms)),
    warm,
    pause_s: PAUSE_S,
    settle_s: SETTLE_S,
  }),
);
