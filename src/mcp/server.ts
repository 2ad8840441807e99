// `ndb mcp`: the debugger as tools for agents, over MCP on stdin/stdout. Logs go to stderr;
// stdout carries the protocol only.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadLiveModel } from '../session/liveModel';
import { claimStdout, logLine } from '../util/stdio';
import type { ModelDtype } from '../neuralEngine/modelConfig';
import { engineSandboxNotice } from '../realEngine/node/engineChild';
import { loadPythonPool } from '../realEngine/pythonHost';
import { SessionRegistry } from './sessions';
import { registerTools } from './tools';

export interface McpOptions {
  model?: string;
  dtype?: ModelDtype;
  /** Folders start_session's `path` may read from (default: the working directory). */
  roots?: readonly string[];
}

export async function runMcpServer(options: McpOptions = {}): Promise<number> {
  const out = claimStdout();
  process.on('uncaughtException', (err) => logLine(`uncaught: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (err) => logLine(`unhandled: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  const notice = engineSandboxNotice();
  const server = new McpServer({ name: 'ndb', version: '0.1.0' }, { instructions: notice ? `${INSTRUCTIONS} Warning: ${notice}` : INSTRUCTIONS });
  registerTools(server, {
    host: loadPythonPool,
    model: () => loadLiveModel(options.model, options.dtype),
    registry: new SessionRegistry(),
    roots: options.roots ?? [process.cwd()],
  });
  // Pyodide takes seconds to load: start now, while the client initializes.
  loadPythonPool().catch((err: unknown) => logLine(`the Python engine could not be loaded: ${err instanceof Error ? err.message : String(err)}`));
  await server.connect(new StdioServerTransport(process.stdin, out));
  // The client went away (stdin closed): nothing is left to serve, and the Python thread and the
  // model would keep the process alive.
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    server.server.onclose = () => resolve();
  });
  await server.close().catch(() => undefined);
  process.exit(0);
}

const INSTRUCTIONS =
  'ndb records a Python program once and lets you move through the run like pdb, backwards too: ' +
  'start_session (code or path, breakpoints with conditions), then step with step_into / step_over / step_return / continue / ' +
  'breakpoint:LINE and their inverses inv_step_into / inv_step_over / inv_step_call; set:NAME=EXPR changes a local and re-runs from there. ' +
  'At any stop: stack (frames and locals), evaluate (any expression in a frame), set_breakpoints (conditional ones too), output, trace. ' +
  'To find a bug fast: a conditional breakpoint on the suspect line, continue, then evaluate. An uncaught exception ends with a traceback. ' +
  'predict shows what a small model thinks an action does, with how sure it is; guess_inputs proposes calls that return the value at a return.';
