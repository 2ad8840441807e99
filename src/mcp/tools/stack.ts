// stack: the frames at the stop, innermost first, each with its file, line, source and locals; a
// deep stack comes in pages (`from`, `limit`) with the whole depth said.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sourceOfFile } from '../../core/location';
import { sourceLines } from '../../core/sourceLines';
import { frameEvents } from '../../core/state';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export const STACK_PAGE = 50;

export function registerStack(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'stack',
    {
      title: 'Call stack',
      description:
        'Frames at the stop, innermost first: function (qualified, e.g. Frozen.rate), file, line, source, locals (reprs). ' +
        'total: the depth; next: where the next page starts. None before the start or after the end.',
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).max(100_000).optional().describe('First frame, 0 = innermost'),
        limit: z.number().int().min(1).max(1_000).optional().describe(`Frames (default ${STACK_PAGE})`),
      },
      outputSchema: { frames: z.array(anyObject), total: z.number(), next: z.number().optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
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
