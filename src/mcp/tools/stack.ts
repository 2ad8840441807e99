// stack: the frames at the stop, innermost first, each with its line, source and locals.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sourceLines } from '../../core/format';
import { frameEvents } from '../../core/state';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export function registerStack(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'stack',
    {
      title: 'The call stack at the stop',
      description: 'The frames at the current stop, innermost first: function, line, the source line, and its locals (reprs). Empty before the program starts and after it ends.',
      inputSchema: { session: sessionArg },
      outputSchema: { frames: z.array(z.object({ function: z.string(), line: z.number(), source: z.string().optional(), locals: z.record(z.string(), z.string()) })) },
      annotations: { title: 'Call stack', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string }) => {
      const live = deps.registry.get(args.session);
      const rec = live.recording;
      const lines = sourceLines(rec.source);
      const frames = frameEvents(rec, live.position).map((f) => {
        const source = lines[f.line - 1]?.trim();
        return { function: f.function, line: f.line, ...(source ? { source } : {}), locals: rec.events[f.event]!.locals };
      });
      return { frames };
    },
  );
}
