// The `ndb` command's first step (bin/ndb.mjs runs it from the CLI's bundle, or through tsx):
// the commands that run a program start their Python engine (a server its pool) before anything
// else is loaded, so that it restores from the saved interpreter (realEngine/node/engineSnapshot.ts)
// while the CLI's own modules load and read their files and model. A request that still has to
// wait for it says so once: on stderr for a command, in an output event for `ndb dap`
// (dap/server.ts), in start_session's answer for `ndb mcp`.

export async function start(argv: readonly string[]): Promise<number> {
  const [command] = argv;
  if (command === 'debug' || command === 'trace' || command === 'dap' || command === 'mcp') {
    const [{ prestartPythonHost, prestartPythonPool }, { setEngineWaitNotice }] = await Promise.all([
      import('../realEngine/node/nodeHosts'),
      import('../realEngine/node/engineWait'),
    ]);
    if (command === 'debug' || command === 'trace') setEngineWaitNotice((text) => process.stderr.write(`ndb: ${text}\n`));
    if (command === 'mcp') prestartPythonPool();
    else prestartPythonHost();
  }
  const { main } = await import('./main');
  return main([...argv]);
}
