// What osSandbox.ts's probe found, kept between commands: the probe starts Node inside bubblewrap
// once (~45 ms of a command's start here, before its engine can be spawned, and a whole sandboxed
// Node's CPU on a loaded machine), and on a given machine its answer changes only when what it ran
// changes. So a probe that found bubblewrap working leaves an empty file named by a digest of
// everything that answer rests on: the bubblewrap, prlimit and Node binaries (path, size, mtime,
// inode), the kernel's release and its user-namespace switches, this user, the seccomp filter and
// the engine's files. A start whose facts hash to an existing file skips the probe.
//
// Only that one bit is kept (never paths or arguments: those are worked out afresh every time),
// and only "it works": a machine that refuses bubblewrap is probed every time and says so. Should
// the facts match while bubblewrap fails after all (an engine process ends before it is ready),
// `distrust` removes the file, so that the next start probes again.

import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { defaultCacheDir, privateFolder } from './engineSnapshot';

const PREFIX = 'sandbox-works-';

/** The kernel's switches for unprivileged user namespaces (absent ones read as ''). */
const USERNS_SWITCHES = ['/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/user/max_user_namespaces', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns'];

/** The digest of what a probe's answer rests on; null when a binary cannot be looked at. */
export function probeFacts(binaries: readonly string[], more: readonly (string | Buffer)[]): string | null {
  const hash = createHash('sha256');
  const part = (value: string | Buffer) => hash.update(`${Buffer.byteLength(value)}:`).update(value);
  part('ndb sandbox probe 1');
  try {
    for (const file of binaries) {
      const st = statSync(file);
      part(`${file}\0${st.size}\0${st.mtimeMs}\0${st.ino}`);
    }
  } catch {
    return null;
  }
  part(release());
  part(`${process.getuid?.() ?? ''}:${process.getgid?.() ?? ''}`);
  for (const file of USERNS_SWITCHES) {
    let value = '';
    try {
      value = readFileSync(file, 'utf8');
    } catch {
      // not on this kernel
    }
    part(value);
  }
  for (const value of more) part(value);
  return hash.digest('hex').slice(0, 32);
}

/** The cache folder, when it is one only this user can write (else nothing is kept). */
function folder(): string | null {
  const dir = defaultCacheDir();
  return dir && privateFolder(dir) ? dir : null;
}

/** Whether a probe with these facts found bubblewrap working. */
export function knownToWork(facts: string | null): boolean {
  const dir = facts ? folder() : null;
  if (!dir) return false;
  try {
    return statSync(join(dir, `${PREFIX}${facts}`)).isFile();
  } catch {
    return false;
  }
}

/** A probe with these facts found bubblewrap working: kept (the others' files go). */
export function rememberWorks(facts: string | null): void {
  if (!facts) return;
  try {
    const dir = defaultCacheDir();
    if (!dir) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!privateFolder(dir)) return;
    for (const name of readdirSync(dir)) if (name.startsWith(PREFIX) && name !== `${PREFIX}${facts}`) unlinkSync(join(dir, name));
    closeSync(openSync(join(dir, `${PREFIX}${facts}`), 'a', 0o600));
  } catch {
    // not kept: the next start probes
  }
}

/** Bubblewrap failed though the facts said it works: the next start probes again. */
export function distrust(facts: string | null): void {
  const dir = facts ? folder() : null;
  if (!dir) return;
  try {
    unlinkSync(join(dir, `${PREFIX}${facts}`));
  } catch {
    // gone already
  }
}
