// Drives `ndb debug FILE`'s prompt as a user does: the `ndb` process with commands piped on
// stdin, or in a pseudo-terminal made by util-linux's `script`, typing each input once the
// prompts before it have come. Helpers of the CLI's prompt tests.

import { spawn, spawnSync } from 'node:child_process';
import { REPO_ROOT } from '../util/repoRoot';

export const PROMPT = '(ndb) ';

export interface Finished {
  code: number | null;
  out: string;
  err: string;
}

/** `ndb debug ARGS` with `input` on a pipe (closed after it). */
export function debugPiped(args: readonly string[], input: string): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', ['bin/ndb.mjs', 'debug', ...args], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

/** The answer to each piped command: its lines after its prompt, up to the next. */
export function answers(out: string): string[][] {
  return out
    .split(PROMPT)
    .slice(1)
    .map((chunk) => chunk.split('\n').filter((l) => l !== ''));
}

/** Whether this machine has `script` to make a pseudo-terminal. */
export const hasScript = (): boolean => spawnSync('script', ['--version']).status === 0;

export interface Keys {
  type: string;
  /** Typed once this many fresh prompts have been printed. */
  prompts: number;
  waitMs?: number;
}

/** `ndb debug ARGS` in a pseudo-terminal; `typedAt[i]`: how much output there was when keys i
 * were typed. */
export async function debugInTerminal(args: readonly string[], keys: readonly Keys[], env: NodeJS.ProcessEnv): Promise<Finished & { typedAt: number[] }> {
  const command = ['node', 'bin/ndb.mjs', 'debug', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: REPO_ROOT, env: { ...env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  // a fresh prompt leaves the cursor after it; readline also redraws it when history is recalled
  const prompts = () => out.split(`${PROMPT}\x1b[7G`).length - 1;
  const typedAt: number[] = [];
  for (const k of keys) {
    const start = Date.now();
    while (prompts() < k.prompts) {
      if (Date.now() - start > 60_000) throw new Error(`no prompt ${k.prompts}: ${JSON.stringify(out)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    if (k.waitMs) await new Promise((r) => setTimeout(r, k.waitMs));
    typedAt.push(out.length);
    child.stdin.write(k.type);
  }
  return { code: await closed, out, err, typedAt };
}
