// set_breakpoints: replaces the session's breakpoints at any stop; each is verified or refused
// with the reason, and a condition that raised in the run says so.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { withConditionErrors } from '../../session/breakpointSpecs';
import { sessionArg, tool, type ToolDeps } from '../toolKit';
import { breakpointAnswer, breakpointArg, verifyBreakpoints, type BreakpointArg } from './breakpointCheck';

export function registerSetBreakpoints(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'set_breakpoints',
    {
      title: 'Set the breakpoints',
      description:
        'Replaces all breakpoints of the session, at any stop (they act like pdb\'s break: continue then stops at the next one). Each is ' +
        '{file?, line, condition?, hit_count?} (or a bare line number of the main file): file, relative to the program\'s folder ' +
        '(e.g. "pricing.py"), default the main file; condition, a Python expression, makes it stop only where it is true ' +
        '(e.g. "lo > hi"); hit_count from that hit on. Each comes back verified, or not with the reason (not a file of the program, ' +
        'no code on that line, past the end, a condition that does not parse); those are not set. A condition that raised when the ' +
        'program ran says so in condition_error (it stops there, as pdb does). [] removes them all.',
      inputSchema: { session: sessionArg, breakpoints: z.array(breakpointArg).max(100).describe('The new breakpoints') },
      outputSchema: { breakpoints: z.array(breakpointAnswer) },
      annotations: { title: 'Set breakpoints', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args: { session: string; breakpoints: BreakpointArg[] }) => {
      const live = deps.registry.get(args.session);
      const verified = await verifyBreakpoints(live.host, live.program, args.breakpoints);
      await live.setBreakpoints(verified.keys, verified.conditions);
      return { breakpoints: withConditionErrors(verified.report, live.program, live.recording) };
    },
  );
}
