// Drives `ndb dap` as VS Code does, with Microsoft's DebugClient over stdio: helpers shared by
// the adapter's tests.

import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { REPO_ROOT } from '../util/repoRoot';

/** `npm`: through the contract's command line (`npm run --silent ndb -- dap`). */
export function dapClient(via: 'node' | 'npm' = 'node'): DebugClient {
  // DebugClient passes the executable as one argument: a shell splits it into the command line.
  const dc =
    via === 'npm'
      ? new DebugClient('npm', 'run --silent ndb -- dap', 'ndb', { shell: true, cwd: REPO_ROOT })
      : new DebugClient('node', 'bin/ndb.mjs dap', 'ndb', { shell: true, cwd: REPO_ROOT });
  // Pyodide loads in seconds, more on a busy machine.
  dc.defaultTimeout = 60_000;
  return dc;
}

/** The next `stopped` or `terminated` event. Listen before sending the request that causes it:
 * the event can arrive in the same chunk as the response. */
export function nextStop(dc: DebugClient): Promise<DebugProtocol.Event> {
  return new Promise((resolve) => {
    const on = (e: DebugProtocol.Event) => {
      dc.removeListener('stopped', on);
      dc.removeListener('terminated', on);
      resolve(e);
    };
    dc.on('stopped', on);
    dc.on('terminated', on);
  });
}

export interface Started {
  first: DebugProtocol.Event;
  breakpoints: DebugProtocol.Breakpoint[];
  capabilities: DebugProtocol.Capabilities;
}

/** initialize, then launch beside the configuration (setBreakpoints, configurationDone) once
 * the adapter says `initialized`, as VS Code does; the first stop. */
export async function launch(dc: DebugClient, args: Record<string, unknown>, breakpoints: DebugProtocol.SourceBreakpoint[] = []): Promise<Started> {
  const first = nextStop(dc);
  const initialized = dc.waitForEvent('initialized');
  const init = await dc.initializeRequest();
  const [, set] = await Promise.all([
    dc.launchRequest(args as DebugProtocol.LaunchRequestArguments),
    initialized.then(async () => {
      const set = await dc.setBreakpointsRequest({ source: { path: String(args.program) }, breakpoints });
      await dc.configurationDoneRequest();
      return set;
    }),
  ]);
  return { first: await first, breakpoints: set.body.breakpoints, capabilities: init.body ?? {} };
}

export interface Where {
  name: string;
  line: number;
  frames: number;
  /** The top frame's Locals scope, name → value. */
  locals: Record<string, string>;
  scopes: DebugProtocol.Scope[];
}

export async function where(dc: DebugClient): Promise<Where> {
  const trace = await dc.stackTraceRequest({ threadId: 1 });
  const top = trace.body.stackFrames[0]!;
  const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
  const localsScope = scopes.find((s) => s.name.startsWith('Locals'));
  const locals: Record<string, string> = {};
  if (localsScope) {
    for (const v of (await dc.variablesRequest({ variablesReference: localsScope.variablesReference })).body.variables) locals[v.name] = v.value;
  }
  return { name: top.name, line: top.line, frames: trace.body.stackFrames.length, locals, scopes };
}

/** Sends a request that moves the debugger; the event it ends with. */
export async function act(dc: DebugClient, send: () => Promise<unknown>): Promise<DebugProtocol.Event> {
  const stop = nextStop(dc);
  await send();
  return stop;
}
