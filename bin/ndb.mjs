#!/usr/bin/env node
// The `ndb` command: runs the TypeScript CLI through tsx, so the CLI and the app share src/core as is.
import { register } from 'tsx/esm/api';

register();
const [command] = process.argv.slice(2);
// The commands that run a program start its Python engine first, so that it loads (from the saved
// interpreter: src/realEngine/engineSnapshot.ts) while the CLI is compiled and reads its files and
// model; a request that still has to wait for it says so once on stderr (`ndb dap` in an output
// event instead: src/dap/server.ts).
if (command === 'debug' || command === 'trace' || command === 'dap') {
  const [{ prestartPythonHost }, { setEngineWaitNotice }] = await Promise.all([
    import('../src/realEngine/nodeHosts.ts'),
    import('../src/realEngine/engineWait.ts'),
  ]);
  if (command !== 'dap') setEngineWaitNotice((text) => process.stderr.write(`ndb: ${text}\n`));
  prestartPythonHost();
}
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
