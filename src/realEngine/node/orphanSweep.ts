// Bubblewrap processes of ndb's engines that lost the process that started them. Killed in the
// moment it clones the sandbox, bubblewrap's first process can leave the clone behind before the
// clone has asked to die with its parent (issue 44: one was found sleeping, its parent init, two
// hours after a check on a loaded machine had ended). Such a process is never legitimate: every
// engine ends with the face that started it. So after an engine is killed, and when a face exits,
// the orphans are looked for and ended.

import { readdirSync, readFileSync } from 'node:fs';
import { INSIDE } from './osSandbox';

function argvOf(pid: string): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** Bubblewrap processes of an ndb engine (their command line names the engine script's place in
 * the sandbox) whose parent is init, not yet reaped. Empty where there is no /proc. */
export function orphanSandboxPids(): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const pid of names) {
    if (!/^\d+$/.test(pid)) continue;
    const argv = argvOf(pid);
    if (!argv || !argv[0]?.endsWith('bwrap') || !argv.includes(INSIDE.script)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && ppid === '1') found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Ends every orphan found now with `kill` (a tree kill); returns how many. */
export function sweepOrphans(kill: (pid: number) => void): number {
  const orphans = orphanSandboxPids();
  for (const pid of orphans) kill(pid);
  return orphans.length;
}

/** Looks again after each delay (unref'd timers: they keep no command alive). */
export function sweepLater(kill: (pid: number) => void, delaysMs: readonly number[] = [1_000, 5_000]): void {
  for (const ms of delaysMs) setTimeout(() => sweepOrphans(kill), ms).unref();
}
