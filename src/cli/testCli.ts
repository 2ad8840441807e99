// The CLI's tests run `main` in this process and read what it printed (stdout's lines; stderr
// stays the process's own). Only the tests import it (src/cli's own: nothing else may, layers.test.ts).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main';
import { REPO_ROOT } from '../util/repoRoot';

export async function runCli(...argv: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(argv, (l) => lines.push(l));
  return { code, lines };
}

/** A set of two gallery-like items of examples/01_loop_sum.py called as `call` (Step into, Step
 * over, Step out; and Step into twice), written as JSON lines into a fresh folder: its path. */
export function loopSumSet(call: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ndb-eval-set-'));
  const source = readFileSync(join(REPO_ROOT, 'examples/01_loop_sum.py'), 'utf8').replace(/^(#.*\n)+/, '');
  const item = (actions: string[]) => JSON.stringify({ id: 'g', source, call, start: null, actions, breakpoints: [], max_events: 2000 });
  const set = join(dir, 'gallery.jsonl');
  writeFileSync(set, `${item(['step_into', 'step_over', 'step_return'])}\n${item(['step_into', 'step_into'])}\n`);
  return set;
}
