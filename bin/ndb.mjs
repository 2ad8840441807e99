#!/usr/bin/env node
// The `ndb` command: runs the TypeScript CLI through tsx, so the CLI and the app share src/core as is.
import { register } from 'tsx/esm/api';

register();
const [command] = process.argv.slice(2);
// The commands that run a program start its Python engine first (a server its pool), so that it
// loads (from the saved interpreter: src/realEngine/engineSnapshot.ts) while the CLI is compiled and
// reads its files and model; a request that still has to wait for it says so once, on stderr for a
// command (`ndb dap` in an output event: src/dap/server.ts; `ndb mcp` in start_session's answer).
if (command === 'debug' || command === 'trace' || command === 'dap' || command === 'mcp') {
  const [{ prestartPythonHost, prestartPythonPool }, { setEngineWaitNotice }] = await Promise.all([
    import('../src/realEngine/nodeHosts.ts'),
    import('../src/realEngine/engineWait.ts'),
  ]);
  if (command === 'debug' || command === 'trace') setEngineWaitNotice((text) => process.stderr.write(`ndb: ${text}\n`));
  if (command === 'mcp') prestartPythonPool();
  else prestartPythonHost();
}
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
