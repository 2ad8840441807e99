// The tools of `ndb mcp`, one file each, registered in the order a client lists them.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolDeps } from '../toolKit';
import { registerEndSession } from './endSession';
import { registerEvaluate } from './evaluate';
import { registerGuessInputs } from './guessInputs';
import { registerOutput } from './output';
import { registerPredict } from './predict';
import { registerSetBreakpoints } from './setBreakpoints';
import { registerStack } from './stack';
import { registerStartSession } from './startSession';
import { registerStep } from './step';
import { registerTrace } from './trace';

export function registerTools(server: McpServer, deps: ToolDeps): void {
  registerStartSession(server, deps);
  registerStep(server, deps);
  registerStack(server, deps);
  registerEvaluate(server, deps);
  registerSetBreakpoints(server, deps);
  registerPredict(server, deps);
  registerGuessInputs(server, deps);
  registerTrace(server, deps);
  registerOutput(server, deps);
  registerEndSession(server, deps);
}
