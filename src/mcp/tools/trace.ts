// trace: the recording in pages, filtered by function or line.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export const TRACE_PAGE = 200;
export const MAX_TRACE_PAGE = 2_000;
/** A page also ends before its events' JSON passes this many characters (the answer's cap is
 * MAX_RESULT_CHARS; the rest is left for the exit state). */
export const TRACE_PAGE_CHARS = 60_000;

const anyObject = z.record(z.string(), z.unknown());

export function registerTrace(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'trace',
    {
      title: 'The recording, page by page',
      description:
        "Recorded events of the session's current run (what-if edits included), as `ndb trace --json` writes them (event, line, " +
        'function, depth, frame, locals, value; index: the event\'s place in the run), from `from` (default 0), at most `limit` ' +
        `(default ${TRACE_PAGE}, at most ${MAX_TRACE_PAGE}, and no more than about ${TRACE_PAGE_CHARS / 1000} KB of events), only those of a function or at a line if asked; next is where the next ` +
        'page starts (absent at the end); then how the run ended (status, message, value, traceback, stdout).',
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).optional().describe('The first event index to consider (default 0)'),
        limit: z.number().int().min(1).max(MAX_TRACE_PAGE).optional().describe(`Events per page (default ${TRACE_PAGE})`),
        function: z.string().max(200).optional().describe('Only events of this function'),
        line: z.number().int().positive().optional().describe('Only events at this line'),
      },
      outputSchema: { events: z.array(anyObject), total: z.number(), next: z.number().optional(), exit: anyObject, truncated: z.boolean() },
      annotations: { title: 'Trace', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; from?: number; limit?: number; function?: string; line?: number }) => {
      const live = deps.registry.get(args.session);
      const rec = live.recording;
      const limit = args.limit ?? TRACE_PAGE;
      const events: Array<Record<string, unknown>> = [];
      let i = args.from ?? 0;
      let chars = 0;
      for (; i < rec.events.length && events.length < limit; i++) {
        const e = rec.events[i]!;
        if (args.function !== undefined && e.function !== args.function) continue;
        if (args.line !== undefined && e.line !== args.line) continue;
        const event = { index: i, ...e };
        chars += JSON.stringify(event).length + 1;
        if (chars > TRACE_PAGE_CHARS && events.length > 0) break;
        events.push(event);
      }
      const exitState = live.real.fork();
      exitState.jump(rec.events.length);
      const exit = { ...(exitState.state as unknown as Record<string, unknown>) };
      delete exit.event;
      return { events, total: rec.events.length, ...(i < rec.events.length ? { next: i } : {}), exit, truncated: i < rec.events.length };
    },
  );
}
