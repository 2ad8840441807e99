// The operating system's boundary (osSandbox.ts), tried as an attacker would: a program that gets
// past Python's layer and out of Pyodide to the engine realm's real global object, then uses what
// Node's permission model does not check (libuv's Unix sockets, timers) or takes memory. Each
// test also runs the same program under the layers above the OS boundary alone, to show the test
// can fail: there it gets out.

import { execFile, spawn } from 'node:child_process';
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
import { orphanSandboxes, strayEngines } from '../testing/engineProcesses';
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

/** Runs recordOnce with `hold`, and SIGKILLs it once it printed; resolves with what it printed. */
function killedAfterPrinting(confinement: Confinement, file: string): Promise<string> {
  const command = spawn(process.execPath, ['--import', 'tsx/esm', 'src/testing/recordOnce.ts', confinement, file, 'hold'], { cwd: REPO_ROOT });
  let printed = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      command.kill('SIGKILL');
      reject(new Error(`recordOnce printed nothing in 120 s: ${printed}`));
    }, 120_000);
    command.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (!printed.includes('\n')) return;
      clearTimeout(timer);
      command.kill('SIGKILL');
      resolve(printed);
    });
  });
}

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

  it('leaves no engine running once the command ends, even killed (under the layers above the OS, a timer keeps it alive)', async () => {
    const file = join(dir, 'timer.py');
    writeFileSync(file, TIMER_PROGRAM);
    const before = new Set(strayEngines());
    const since = new Set(orphanSandboxes());
    const run = (confinement: Confinement) =>
      exec(process.execPath, ['--import', 'tsx/esm', 'src/testing/recordOnce.ts', confinement, file], { cwd: REPO_ROOT, timeout: 120_000 });
    const inside = await run('os');
    expect(inside.stdout).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(strayEngines().filter((pid) => !before.has(pid))).toEqual([]);
    // a command that ends by itself ends its engines, whatever their confinement
    expect((await run('namespace')).stdout).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(strayEngines().filter((pid) => !before.has(pid))).toEqual([]);

    // killed outright, only the OS ends what it started: bubblewrap does, the layers above do not
    expect(await killedAfterPrinting('os', file)).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(strayEngines().filter((pid) => !before.has(pid))).toEqual([]);
    expect(await killedAfterPrinting('namespace', file)).toContain('timer set');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const left = strayEngines().filter((pid) => !before.has(pid));
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left.length).toBeGreaterThan(0);
    expect(orphanSandboxes().filter((pid) => !since.has(pid))).toEqual([]);
  }, 240_000);

  it('leaves no bubblewrap process behind when an engine is ended as it starts', async () => {
    const since = new Set(orphanSandboxes());
    for (let i = 0; i < 10; i++) {
      const host = new ProcessHost({ spare: false });
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      await host.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(orphanSandboxes().filter((pid) => !since.has(pid))).toEqual([]);
  }, 120_000);

  it('stops a program past the memory limit with a message that says so', async () => {
    const rec = await recordWith('os', MEMORY_PROGRAM, 600);
    expect(rec.exit.status).toBe('error');
    expect(rec.exit.message).toMatch(/more than 600 MB of memory/);
    expect(rec.stdout).not.toContain('took');
  }, 120_000);
});
