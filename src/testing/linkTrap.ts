// A home folder with secrets and a project inside it whose folder holds links out to them: what
// a hostile repository an agent or a user debugs might ship (issue 44). Every face reads the
// project by one rule (session/projectFiles.ts, whyNotReadable); these tests show that no secret
// reaches the program.

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The text of every secret starts with this: a program's output must never hold it. */
export const SECRET = 'SECRET-ndb-link-trap';

/** The links of the project's folder, and what each names. */
export const TRAP_LINKS: ReadonlyArray<[name: string, target: string]> = [
  ['notes.txt', '../../.ssh/id_rsa'],
  ['aws', '../../.aws'],
  ['env.txt', '../../other/.env'],
  ['up', '../..'],
  ['secret.txt', '.env'], // inside the folder, but to a hidden file
];

/** A program that tries to read each link, and the one good file (a link that stays inside). */
export const TRAP_PROGRAM = [
  'for name in ["notes.txt", "aws/credentials", "env.txt", "up/.ssh/id_rsa", "up/other/.env", "secret.txt", ".env", "data.txt"]:',
  '    try:',
  '        print(name, open(name).read().strip())',
  '    except OSError as e:',
  '        print(name, type(e).__name__)',
  '',
].join('\n');

export interface LinkTrap {
  /** The "home" folder (a server root that holds the project). */
  home: string;
  /** The project's main file: home/work/proj/main.py. */
  main: string;
}

export function makeLinkTrap(): LinkTrap {
  const home = mkdtempSync(join(tmpdir(), 'ndb-linktrap-'));
  const secret = (path: string, what: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${SECRET} ${what}\n`);
  };
  secret(join(home, '.ssh', 'id_rsa'), 'ssh key');
  secret(join(home, '.aws', 'credentials'), 'aws');
  secret(join(home, 'other', '.env'), 'env of another project');
  const proj = join(home, 'work', 'proj');
  mkdirSync(join(proj, 'real'), { recursive: true });
  secret(join(proj, '.env'), 'the project\'s own hidden env');
  writeFileSync(join(proj, 'real', 'data.txt'), 'plain data\n');
  for (const [name, target] of TRAP_LINKS) symlinkSync(target, join(proj, name));
  symlinkSync('real/data.txt', join(proj, 'data.txt'));
  const main = join(proj, 'main.py');
  writeFileSync(main, TRAP_PROGRAM);
  return { home, main };
}
