// `ndb dap`: the debug adapter on stdin/stdout, for VS Code (editors/vscode), nvim-dap and any
// other DAP client. Logs go to stderr; stdout carries the protocol only.

import { OutputEvent } from '@vscode/debugadapter';
import { setEngineWaitNotice } from '../realEngine/node/engineWait';
import { claimStdout, logLine } from '../util/stdio';
import { NdbDebugAdapter } from './adapter';

export function runDapServer(): Promise<number> {
  const out = claimStdout();
  // A bug in one request must not take the session down with it.
  process.on('uncaughtException', (err) => logLine(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => logLine(`unhandled: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  const adapter = new NdbDebugAdapter();
  // One launch per adapter process: a launch that waits for its Python engine says so once.
  setEngineWaitNotice((text) => adapter.sendEvent(new OutputEvent(`ndb: ${text}\n`, 'console')));
  process.on('SIGTERM', () => adapter.shutdown());
  adapter.start(process.stdin, out);
  // The adapter ends the process itself when the client disconnects or stdin closes.
  return new Promise((resolve) => process.stdin.on('close', () => resolve(0)));
}
