#!/usr/bin/env node
// The `ndb` command: src/cli/start.ts, from the CLI's bundle where it is built from src/ as it is
// (bin/cliBundle.mjs: a start in a fraction of tsx's time and CPU), else through tsx.
import { cliEntry } from './cliBundle.mjs';

const argv = process.argv.slice(2);
const bundled = await cliEntry();
let start;
if (bundled) ({ start } = await import(bundled));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ start } = await import('../src/cli/start.ts'));
}
process.exitCode = await start(argv);
