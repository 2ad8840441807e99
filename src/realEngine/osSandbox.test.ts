// The operating system's boundary (osSandbox.ts), tried as an attacker would: a program that gets
// past Python's layer and out of Pyodide to the engine realm's real global object, then uses what
// Node's permission model does not check (libuv's Unix sockets, timers) or takes memory. Each
// test also runs the same program under the layers above the OS boundary alone, to show the test
// can fail: there it gets out.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand, engineFiles, type Confinement } from './engineChild';
import { REPO_ROOT } from './node';
import { osBoundary } from './osSandbox';
import { ProcessHost } from './processHost';
import { engineProcesses } from '../testing/engineProcesses';
import { MEMORY_PROGRAM, TIMER_PROGRAM, unixSocketProgram } from '../testing/hostilePrograms';

const exec = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'ndb-os-'));
const hostSocket = join(dir, 'host.sock');
let server: Server;
let reached = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    reached++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(hostSocket, resolve));
});

afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function recordWith(confinement: Confinement, source: string, memoryMb?: number) {
  const host = new ProcessHost({ confinement, spare: false, ...(memoryMb ? { memoryMb } : {}) });
  try {
    return await host.record(source, '', { timeLimit: 10 });
  } finally {
    await host.close();
  }
}

describe('the OS boundary on this machine', () => {
  it('is bubblewrap wherever bubblewrap is installed on Linux', () => {
    const boundary = osBoundary(engineFiles());
    const installed = process.platform === 'linux' && ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'].some(existsSync);
    // On a Linux with bwrap installed, a refusal here means the sandbox is broken, not absent.
    expect(boundary.kind).toBe(installed ? 'bubblewrap' : 'none');
    expect(engineCommand().boundary).toBe(boundary.kind);
  });

  it('shows the engine no host path and no host environment', async () => {
    const rec = await recordWith('os', 'import os, sys\nprint(dict(os.environ))\nprint(sys.executable, sys.argv, os.getcwd())\n');
    expect(rec.exit.status).toBe('normal');
    expect(rec.stdout).not.toContain(REPO_ROOT.replace(/\/$/, ''));
    // Pyodide's own environment only (HOME=/home/pyodide, PATH=/): nothing of the host's
    expect(rec.stdout).not.toMatch(/\/root|NODE_CHANNEL|node_modules/);
    expect(rec.stdout).toContain('/ndb/engine.mjs');
  }, 120_000);
});

describe.runIf(engineCommand().boundary === 'bubblewrap')('a program that reached JavaScript', () => {
  it('cannot bind a Unix socket on the host nor connect to one (it can under the layers above the OS)', async () => {
    const inside = await recordWith('os', unixSocketProgram(join(dir, 'bound-os.sock'), hostSocket));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(inside.exit.status).not.toBe('exception'); // it got as far as libuv: only the OS stopped it
    expect(existsSync(join(dir, 'bound-os.sock'))).toBe(false);
    expect(reached).toBe(0);

    const without = await recordWith('namespace', unixSocketProgram(join(dir, 'bound-ns.sock'), hostSocket));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(without.stdout).toContain('bind 0');
    expect(existsSync(join(dir, 'bound-ns.sock'))).toBe(true);
    expect(reached).toBe(1);
  }, 180_000);

  it('leaves no engine running once the command ends (under the layers above the OS, a timer keeps it alive)', async () => {
    const file = join(dir, 'timer.py');
    writeFileSync(file, TIMER_PROGRAM);
    const before = new Set(engineProcesses());
    const run = (confinement: Confinement) =>
      exec(process.execPath, ['--import', 'tsx/esm', 'src/testing/recordOnce.ts', confinement, file], { cwd: REPO_ROOT, timeout: 120_000 });
    const inside = await run('os');
    expect(inside.stdout).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(engineProcesses().filter((pid) => !before.has(pid))).toEqual([]);

    const without = await run('namespace');
    expect(without.stdout).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const left = engineProcesses().filter((pid) => !before.has(pid));
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left.length).toBeGreaterThan(0);
  }, 240_000);

  it('stops a program past the memory limit with a message that says so', async () => {
    const rec = await recordWith('os', MEMORY_PROGRAM, 600);
    expect(rec.exit.status).toBe('error');
    expect(rec.exit.message).toMatch(/more than 600 MB of memory/);
    expect(rec.stdout).not.toContain('took');
  }, 120_000);
});
