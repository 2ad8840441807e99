// npm run bench:start [-- --runs N] [-- --load N] [-- --faces pdb,prompt,dap,mcp,engine] [-- --no-snapshot]
//
// How long a person or an agent waits for ndb's first stop (issue 47), beside pdb on the same
// program in the same run (the reference: each face is reported as a ratio to it):
//
// - pdb:    `python3 -m pdb prog.py` until its first `(Pdb) ` prompt;
// - prompt: `ndb debug prog.py` (interactive, on a pipe) until its first `(ndb) ` prompt;
// - dap:    `ndb dap`, initialize → launch (stopOnEntry) → configurationDone, until the `stopped` event;
// - mcp:    `ndb mcp`, connected with the MCP SDK's client, until the first start_session answers;
// - engine: one engine process (src/realEngine/node/engineChild.ts), from its spawn to `ready`, started
//           from the saved interpreter (engineSnapshot.ts) and the plain way (NDB_ENGINE_SNAPSHOT=0).
//
// Each face's time runs from the spawn of its command to the first stop, so it includes Node's and
// tsx's start. Faces are measured in turns (pdb, prompt, dap, mcp, pdb, …) so that a change in the
// machine's load falls on all of them. A warm-up round first (not counted) fills tsx's cache and,
// where the cache folder has no saved interpreter yet, makes it. `--load N` starts N busy loops for
// the duration (a loaded machine); `--no-snapshot` starts every engine the plain way. Prints a table
// on stderr and one JSON line on stdout.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const NDB = join(ROOT, 'bin', 'ndb.mjs');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const RUNS = Math.max(1, Number(option('runs', 10)));
const ENGINE_RUNS = Math.max(1, Number(option('engine-runs', 5)));
const LOAD = Math.max(0, Number(option('load', 0)));
const FACES = option('faces', 'pdb,prompt,dap,mcp,engine').split(',');
const SNAPSHOT = !argv.includes('--no-snapshot');
const TIMEOUT_MS = 180_000;

const PROGRAM = 'def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n\n\nprint(f([1, 2, 3]))\n';
const dir = mkdtempSync(join(tmpdir(), 'ndb-bench-start-'));
const file = join(dir, 'prog.py');
writeFileSync(file, PROGRAM);
const env = { ...process.env, ...(SNAPSHOT ? {} : { NDB_ENGINE_SNAPSHOT: '0' }), NO_COLOR: '1' };

const load = Array.from({ length: LOAD }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
const endLoad = () => {
  for (const p of load) p.kill('SIGKILL');
};
process.on('exit', () => {
  endLoad();
  rmSync(dir, { recursive: true, force: true });
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Spawns a command and resolves with the ms until `done(stdoutSoFar)` holds; then `finish`es it. */
function untilOutput(command, args, done, finish) {
  const t = performance.now();
  const child = spawn(command, args, { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: no first stop in ${TIMEOUT_MS / 1000} s: ${out}${err}`));
    }, TIMEOUT_MS);
    child.stderr.on('data', (chunk) => (err += chunk));
    let stopped = false;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (stopped || !done(out)) return;
      stopped = true;
      const ms = performance.now() - t;
      clearTimeout(timer);
      finish(child);
      child.once('exit', () => resolvePromise({ ms, stderr: err }));
      setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!stopped) reject(new Error(`${command} ${args.join(' ')} ended (${code}) before its first stop: ${out}${err}`));
    });
  });
}

const quit = (child) => {
  child.stdin.end('q\n');
};

const faces = {
  pdb: () => untilOutput('python3', ['-m', 'pdb', file], (out) => out.includes('(Pdb) '), quit),
  prompt: () => untilOutput(process.execPath, [NDB, 'debug', file], (out) => out.includes('(ndb) '), quit),
  dap: () => dapFirstStop(),
  mcp: () => mcpFirstStart(),
};

/** `ndb dap` driven as a client does: the ms from its spawn to the first `stopped` event. */
function dapFirstStop() {
  const t = performance.now();
  const child = spawn(process.execPath, [NDB, 'dap'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let seq = 1;
  const sendRequest = (command, args) => {
    const body = JSON.stringify({ seq: seq++, type: 'request', command, arguments: args });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  let buffer = Buffer.alloc(0);
  let err = '';
  const notes = [];
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ndb dap: no stop in ${TIMEOUT_MS / 1000} s: ${err}`));
    }, TIMEOUT_MS);
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ndb dap ended (${code}) before its first stop: ${err}`));
    });
    child.stdout.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const head = buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, head).toString())?.[1]);
        if (buffer.length < head + 4 + length) return;
        const msg = JSON.parse(buffer.subarray(head + 4, head + 4 + length).toString());
        buffer = buffer.subarray(head + 4 + length);
        if (msg.type === 'event' && msg.event === 'initialized') {
          sendRequest('launch', { program: file, stopOnEntry: true, engine: 'real' });
          sendRequest('configurationDone', {});
        } else if (msg.type === 'event' && msg.event === 'output' && /waiting for an engine/.test(msg.body?.output ?? '')) {
          notes.push(msg.body.output.trim());
        } else if (msg.type === 'response' && !msg.success) {
          clearTimeout(timer);
          child.kill('SIGKILL');
          reject(new Error(`ndb dap: ${msg.command} failed: ${msg.message}`));
        } else if (msg.type === 'event' && msg.event === 'stopped') {
          const ms = performance.now() - t;
          clearTimeout(timer);
          child.removeAllListeners('exit');
          sendRequest('disconnect', {});
          child.stdin.end();
          child.once('exit', () => resolvePromise({ ms, stderr: notes.join('\n') }));
          setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
        }
      }
    });
    sendRequest('initialize', { adapterID: 'ndb', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
  });
}

/** `ndb mcp` with the SDK's client: the ms from its spawn to the first start_session's answer. */
async function mcpFirstStart() {
  const t = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [NDB, 'mcp'], cwd: dir, env, stderr: 'ignore' });
  const client = new Client({ name: 'ndb-bench-start', version: '0.0.0' });
  await client.connect(transport);
  const started = await client.callTool({ name: 'start_session', arguments: { code: PROGRAM } }, undefined, { timeout: TIMEOUT_MS });
  const ms = performance.now() - t;
  if (started.isError) throw new Error(`start_session failed: ${started.content?.[0]?.text}`);
  await client.close();
  return { ms, stderr: started.structuredContent?.note ?? '' };
}

/** One engine process from its spawn to `ready`, with or without the saved interpreter. */
async function engineStarts() {
  const { register } = await import('tsx/esm/api');
  register();
  const { ProcessHost } = await import('../src/realEngine/node/processHost.ts');
  const result = {};
  for (const [name, snapshots] of [
    ['restored', undefined],
    ['plain', null],
  ]) {
    if (name === 'restored' && !SNAPSHOT) continue;
    const times = [];
    let restored = 0;
    for (let i = 0; i < ENGINE_RUNS; i++) {
      const host = new ProcessHost({ spare: false, ...(snapshots === null ? { snapshots: null } : {}) });
      const t = performance.now();
      await host.whenReady();
      times.push(performance.now() - t);
      if (host.restored) restored++;
      await host.close();
    }
    result[name] = { median_ms: Math.round(median(times)), ms: times.map(Math.round), restored };
  }
  return result;
}

function savedInterpreters() {
  const cache = process.env.XDG_CACHE_HOME ? join(process.env.XDG_CACHE_HOME, 'ndb') : join(process.env.HOME ?? tmpdir(), '.cache', 'ndb');
  try {
    return readdirSync(cache).filter((name) => name.endsWith('.snapshot')).length;
  } catch {
    return 0;
  }
}

const order = ['pdb', 'prompt', 'dap', 'mcp'].filter((f) => FACES.includes(f));
const cacheBefore = savedInterpreters();
const loadBefore = loadavg()[0];
process.stderr.write(`bench:start: ${RUNS} runs of ${order.join(', ')} on ${cpus().length} cores, load ${loadBefore.toFixed(1)}, ${LOAD} busy loops, snapshot ${SNAPSHOT ? 'on' : 'off'}\n`);
// warm-up: tsx's cache, and the saved interpreter if there is none yet
for (const face of order) await faces[face]();
const times = Object.fromEntries(order.map((f) => [f, []]));
const notes = Object.fromEntries(order.map((f) => [f, 0]));
for (let i = 0; i < RUNS; i++) {
  for (const face of order) {
    const { ms, stderr } = await faces[face]();
    times[face].push(ms);
    if (/waiting for an engine/.test(stderr)) notes[face]++;
  }
  process.stderr.write(`  run ${i + 1}: ${order.map((f) => `${f} ${(times[f][i] / 1000).toFixed(2)} s`).join(', ')}\n`);
}
const engine = FACES.includes('engine') ? await engineStarts() : undefined;
const loadAfter = loadavg()[0];
endLoad();

const pdb = times.pdb ? median(times.pdb) : null;
const report = {
  runs: RUNS,
  cores: cpus().length,
  busy_loops: LOAD,
  load_average: [Number(loadBefore.toFixed(1)), Number(loadAfter.toFixed(1))],
  snapshot: SNAPSHOT,
  saved_interpreter_before: cacheBefore > 0,
  faces: Object.fromEntries(
    order.map((f) => [
      f,
      {
        median_ms: Math.round(median(times[f])),
        ms: times[f].map(Math.round),
        ...(pdb && f !== 'pdb' ? { ratio_to_pdb: Number((median(times[f]) / pdb).toFixed(1)) } : {}),
        ...(f !== 'pdb' ? { said_waiting: notes[f] } : {}),
      },
    ]),
  ),
  ...(engine ? { engine_spawn_to_ready: engine } : {}),
};
for (const f of order) {
  const r = report.faces[f];
  process.stderr.write(`${f.padEnd(7)} median ${(r.median_ms / 1000).toFixed(2)} s${r.ratio_to_pdb !== undefined ? `  (${r.ratio_to_pdb}x pdb)` : ''}\n`);
}
if (engine) for (const [k, v] of Object.entries(engine)) process.stderr.write(`engine ${k.padEnd(8)} median ${(v.median_ms / 1000).toFixed(2)} s (${v.ms.join(', ')} ms)\n`);
console.log(JSON.stringify(report));
process.exit(0);
