// stack: the frames at the stop, innermost first, each with its file, line, source and locals; a
// deep stack comes in pages (`from`, `limit`) with the whole depth said.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sourceOfFile } from '../../core/location';
import { sourceLines } from '../../core/sourceLines';
import { frameEvents } from '../../core/state';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export const STACK_PAGE = 50;

export function registerStack(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'stack',
    {
      title: 'The call stack at the stop',
      description:
        'The frames at the current stop, innermost first: function, file (relative to the program\'s folder), line, the source line, ' +
        `and its locals (reprs). At most \`limit\` frames (default ${STACK_PAGE}) from \`from\` (0: the innermost); total is the whole ` +
        'depth and next where the next page starts. Empty before the program starts and after it ends.',
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).optional().describe('The first frame to give, counted from the innermost (default 0)'),
        limit: z.number().int().min(1).max(1_000).optional().describe(`Frames to give (default ${STACK_PAGE})`),
      },
      outputSchema: {
        frames: z.array(z.object({ function: z.string(), file: z.string(), line: z.number(), source: z.string().optional(), locals: z.record(z.string(), z.string()) })),
        total: z.number(),
        next: z.number().optional(),
      },
      annotations: { title: 'Call stack', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; from?: number; limit?: number }) => {
      const live = deps.registry.get(args.session);
      const rec = live.recording;
      const lines = new Map<number, string[]>();
      const all = frameEvents(rec, live.position);
      const from = args.from ?? 0;
      const page = all.slice(from, from + (args.limit ?? STACK_PAGE));
      const frames = page.map((f) => {
        const index = rec.codes[rec.events[f.event]!.code]?.file ?? 0;
        if (!lines.has(index)) lines.set(index, sourceLines(sourceOfFile(rec, index) ?? ''));
        const source = lines.get(index)![f.line - 1]?.trim();
        return { function: f.function, file: f.file, line: f.line, ...(source ? { source } : {}), locals: rec.events[f.event]!.locals };
      });
      const next = from + page.length;
      return { frames, total: all.length, ...(next < all.length ? { next } : {}) };
    },
  );
}
