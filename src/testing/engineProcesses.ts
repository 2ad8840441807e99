// The engine processes running on this machine, for tests that count what a face leaves behind:
// the Node processes of the engine script (inside bubblewrap as /ndb/engine.mjs), not bubblewrap's
// own processes around them.

import { readdirSync, readFileSync } from 'node:fs';
import { engineFiles } from '../realEngine/node/engineChild';

function argvOf(pid: string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

function parentOf(pid: string): string | null {
  try {
    // the command name may hold spaces and parentheses: the fields after its closing one
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? null;
  } catch {
    return null;
  }
}

/** Bubblewrap processes of ndb's engine that lost the process that started them and still run
 * (not zombies): never legitimate, as each must end with its engine. */
export function orphanSandboxes(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      const argv = argvOf(pid);
      if (!argv || !argv[0]?.endsWith('bwrap') || !argv.includes('/ndb/engine.mjs')) return false;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && ppid === '1';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Engine processes alive now; with `under`, only the descendants of that process. */
export function engineProcesses(under?: number): number[] {
  const script = engineFiles().script;
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const isDescendant = (pid: string): boolean => {
    for (let p: string | null = pid, hops = 0; p && p !== '0' && hops < 64; p = parentOf(p), hops++) {
      if (Number(p) === under) return true;
    }
    return false;
  };
  return pids
    .filter((pid) => {
      const argv = argvOf(pid);
      if (!argv || argv.length === 0 || argv[0]!.endsWith('bwrap')) return false;
      return argv.some((a) => a === script || a === '/ndb/engine.mjs');
    })
    .filter((pid) => under === undefined || isDescendant(pid))
    .map(Number);
}

/** Engine processes that no live program owns any more: above them only bubblewrap's processes,
 * then init (their command ended or was killed). Engines of other commands running meanwhile (a
 * test file beside, an evaluation) are not counted. */
export function strayEngines(): number[] {
  return engineProcesses().filter((pid) => {
    for (let p = parentOf(String(pid)), hops = 0; p !== null && hops < 64; p = parentOf(p), hops++) {
      if (p === '1' || p === '0') return true;
      const argv = argvOf(p);
      if (!argv || !argv[0]?.endsWith('bwrap')) return false;
    }
    return true;
  });
}

