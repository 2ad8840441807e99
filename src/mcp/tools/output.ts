// output: the program's whole output (stdout), page by page.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionArg, stderrAt, tool, type ToolDeps } from '../toolKit';

export const OUTPUT_PAGE = 20_000;

export function registerOutput(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'output',
    {
      title: 'Output',
      description: `What the program printed by this stop (or by its end), in pages of ${OUTPUT_PAGE} characters; next: the next page's offset.`,
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).max(10_000_000).optional().describe('Offset (default 0)'),
        at_end: z.boolean().optional().describe('The whole run\'s output'),
        stream: z.enum(['stdout', 'stderr']).optional().describe('stdout (default) or stderr (warnings, logging)'),
      },
      outputSchema: { text: z.string(), from: z.number(), length: z.number(), next: z.number().optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; from?: number; at_end?: boolean; stream?: 'stdout' | 'stderr' }) => {
      const live = deps.registry.get(args.session);
      const all =
        args.stream === 'stderr' ? stderrAt(live, args.at_end) : args.at_end ? live.recording.stdout : 'stdout' in live.state ? live.state.stdout : '';
      const from = Math.min(args.from ?? 0, all.length);
      const text = all.slice(from, from + OUTPUT_PAGE);
      const end = from + text.length;
      return { text, from, length: all.length, ...(end < all.length ? { next: end } : {}) };
    },
  );
}
