// set_breakpoints: replaces the session's breakpoints at any stop; each is verified or refused
// with the reason, and a condition that raised in the run says so.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { withConditionErrors } from '../../session/breakpointSpecs';
import { sessionArg, tool, type ToolDeps } from '../toolKit';
import { BREAKPOINTS_HELP, breakpointAnswer, breakpointArg, verifyBreakpoints, type BreakpointArg } from './breakpointCheck';

export function registerSetBreakpoints(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'set_breakpoints',
    {
      title: 'Set breakpoints',
      description:
        "Replaces the session's breakpoints, at any stop (as pdb's break: continue stops at the next). Each comes back verified, " +
        'or refused with why; condition_error: its condition raised in the run (it stops there, as in pdb). [] removes all.',
      inputSchema: { session: sessionArg, breakpoints: z.array(breakpointArg).max(100).describe(BREAKPOINTS_HELP) },
      outputSchema: { breakpoints: z.array(breakpointAnswer) },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args: { session: string; breakpoints: BreakpointArg[] }) => {
      const live = deps.registry.get(args.session);
      const verified = await verifyBreakpoints(live.host, live.program, args.breakpoints);
      await live.setBreakpoints(verified.keys, verified.conditions);
      return { breakpoints: withConditionErrors(verified.report, live.program, live.recording) };
    },
  );
}
