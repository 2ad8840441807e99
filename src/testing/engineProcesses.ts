// The engine processes running on this machine, for tests that count what a face leaves behind:
// the Node processes of the engine script (inside bubblewrap as /ndb/engine.mjs), not bubblewrap's
// own processes around them.

import { readdirSync, readFileSync } from 'node:fs';
import { engineFiles } from '../realEngine/engineChild';

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
