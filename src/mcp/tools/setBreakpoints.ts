// set_breakpoints: replaces the session's breakpoints at any stop; each is verified or refused
// with the reason.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionArg, tool, type ToolDeps } from '../toolKit';
import { breakpointArg, verifyBreakpoints } from './breakpointCheck';

export function registerSetBreakpoints(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'set_breakpoints',
    {
      title: 'Set the breakpoints',
      description:
        'Replaces all breakpoints of the session, at any stop (they act like pdb\'s break: continue then stops at the next one). Each is ' +
        '{line, condition?, hit_count?} (or a bare line number): condition, a Python expression, makes it stop only where it is true ' +
        '(e.g. "lo > hi"); hit_count from that hit on. Each comes back verified, or not with the reason (no code on that line, past ' +
        'the end, a condition that does not parse); those are not set. [] removes them all.',
      inputSchema: { session: sessionArg, breakpoints: z.array(breakpointArg).max(100).describe('The new breakpoints') },
      outputSchema: { breakpoints: z.array(z.object({ line: z.number(), verified: z.boolean(), message: z.string().optional() })) },
      annotations: { title: 'Set breakpoints', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args: { session: string; breakpoints: Array<number | { line: number; condition?: string; hit_count?: number }> }) => {
      const live = deps.registry.get(args.session);
      const verified = await verifyBreakpoints(live.host, live.source, args.breakpoints);
      await live.setBreakpoints(verified.lines, verified.conditions);
      return { breakpoints: verified.report };
    },
  );
}
