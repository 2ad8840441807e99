// The operating system's boundary (osSandbox.ts), tried as an attacker would: a program that gets
// past Python's layer and out of Pyodide to the engine realm's real global object, then uses what
// Node's permission model does not check (libuv's Unix sockets, timers) or takes memory. Each
// test also runs the same program under the layers above the OS boundary alone, to show the test
// can fail: there it gets out.

import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineCommand, engineFiles, spawnEngine, type Confinement } from './engineChild';
import { isReady } from './engineProcessProtocol';
import { REPO_ROOT } from '../../util/repoRoot';
import { ENGINE_MAX_FILES, osBoundary } from './osSandbox';
import { ProcessHost } from './processHost';
import { orphanSandboxes, strayEngines } from '../../testing/engineProcesses';
import { kernelMemoryProgram, MEMORY_PROGRAM, TIMER_PROGRAM, unixSocketProgram } from '../../testing/hostilePrograms';

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

function kidsOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
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

  it('binds no Unix socket inside the sandbox either, where kernel buffers would hold memory no reading shows (it can under the layers above the OS)', async () => {
    const tag = `ndb-hold-${process.pid}-${Date.now()}`;
    const inside = await recordWith('os', kernelMemoryProgram(tag));
    expect(inside.stdout).toBe('abstract bind -1\nshm bind -1\n'); // EPERM: the seccomp filter refuses socket()
    try {
      const without = await recordWith('namespace', kernelMemoryProgram(tag));
      expect(without.stdout).toBe('abstract bind 0\nshm bind 0\n');
    } finally {
      rmSync(`/dev/shm/${tag}.sock`, { force: true }); // the host's: the layers above the OS let it through
    }
  }, 180_000);

  it('runs the engine with /dev and /dev/shm read-only, a seccomp filter and at most 64 open files, as the kernel reports them', async () => {
    // read from outside, in /proc: what the kernel applies to the engine's Node process itself
    const child = spawnEngine(engineCommand('os'));
    try {
      await new Promise<void>((resolve, reject) => {
        child.on('message', (msg) => (isReady(msg) ? resolve() : undefined));
        child.on('exit', (code) => reject(new Error(`the engine ended (${code})`)));
      });
      let pid = child.pid!;
      for (let next = kidsOf(pid); next.length > 0; next = kidsOf(pid)) pid = next[0]!; // bwrap, bwrap, node
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toBe('/ndb/node');
      expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(new RegExp(`^Max open files\\s+${ENGINE_MAX_FILES}\\s+${ENGINE_MAX_FILES}\\s`, 'm'));
      expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(/^Seccomp:\s+2$/m);
      const mounts = readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n').map((l) => l.split(' '));
      // every mount the engine sees is read-only but /proc (/dev/shm is a folder of /dev's tmpfs)
      const writable = mounts.filter((fields) => fields.length > 5 && fields[5]!.split(',')[0] !== 'ro').map((fields) => fields[4]);
      // device nodes, and the sandbox's own pseudo-terminals (whose buffers the open-file limit bounds)
      const devices = new Set(['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty', '/dev/pts']);
      expect(writable.filter((point) => point !== '/proc' && !devices.has(point!))).toEqual([]);
      expect(mounts.find((fields) => fields[4] === '/dev')?.[5]?.split(',')[0]).toBe('ro');
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('leaves no bubblewrap process behind when engines are ended at every moment of their start on a loaded machine', async () => {
    const since = new Set(orphanSandboxes());
    // three busy loops on two cores, as a machine running an evaluation beside a build
    const load = Array.from({ length: 3 }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    try {
      for (let i = 0; i < 12; i++) {
        const host = new ProcessHost({ spare: false });
        await new Promise((resolve) => setTimeout(resolve, (i % 6) * 40));
        await host.close();
      }
    } finally {
      for (const p of load) p.kill('SIGKILL');
    }
    await new Promise((resolve) => setTimeout(resolve, 6_000)); // the sweeps after each kill (1 s, 5 s)
    expect(orphanSandboxes().filter((pid) => !since.has(pid))).toEqual([]);
  }, 120_000);

  it('stops a program past the memory limit with a message that says so', async () => {
    const rec = await recordWith('os', MEMORY_PROGRAM, 600);
    expect(rec.exit.status).toBe('error');
    expect(rec.exit.message).toMatch(/more than 600 MB of memory/);
    expect(rec.stdout).not.toContain('took');
  }, 120_000);
});
