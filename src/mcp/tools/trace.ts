// trace: the recording in pages, filtered by file, function or line; the program's output is not
// repeated on every page (the `output` tool pages through it).

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { eventFile } from '../../core/location';
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
        "Recorded events of the session's current run (what-if edits included), as `ndb trace --json` writes them (event, file, line, " +
        'function, depth, frame, locals, value; index: the event\'s place in the run), from `from` (default 0), at most `limit` ' +
        `(default ${TRACE_PAGE}, at most ${MAX_TRACE_PAGE}, and no more than about ${TRACE_PAGE_CHARS / 1000} KB of events), only those of a file, a function or at a line if asked; next is where the next ` +
        'page starts (absent at the end); then how the run ended (status, message, value, traceback, stdout_length; the output ' +
        'itself on the first page only: the output tool pages through it).',
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).optional().describe('The first event index to consider (default 0)'),
        limit: z.number().int().min(1).max(MAX_TRACE_PAGE).optional().describe(`Events per page (default ${TRACE_PAGE})`),
        file: z.string().max(4_096).optional().describe('Only events in this file (relative to the program\'s folder, e.g. "pricing.py")'),
        function: z.string().max(200).optional().describe('Only events of this function'),
        line: z.number().int().positive().optional().describe('Only events at this line'),
      },
      outputSchema: { events: z.array(anyObject), total: z.number(), next: z.number().optional(), exit: anyObject, truncated: z.boolean() },
      annotations: { title: 'Trace', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; from?: number; limit?: number; file?: string; function?: string; line?: number }) => {
      const live = deps.registry.get(args.session);
      const rec = live.recording;
      const limit = args.limit ?? TRACE_PAGE;
      const events: Array<Record<string, unknown>> = [];
      let i = args.from ?? 0;
      let chars = 0;
      for (; i < rec.events.length && events.length < limit; i++) {
        const e = rec.events[i]!;
        const file = eventFile(rec, e);
        if (args.file !== undefined && file !== args.file.replace(/^\.\//, '')) continue;
        if (args.function !== undefined && e.function !== args.function) continue;
        if (args.line !== undefined && e.line !== args.line) continue;
        const event = { index: i, file, ...e };
        chars += JSON.stringify(event).length + 1;
        if (chars > TRACE_PAGE_CHARS && events.length > 0) break;
        events.push(event);
      }
      const exitState = live.real.fork();
      exitState.jump(rec.events.length);
      const exit = { ...(exitState.state as unknown as Record<string, unknown>) };
      delete exit.event;
      // The output once, on the first page; later pages say only how long it is.
      if ((args.from ?? 0) > 0) delete exit.stdout;
      exit.stdout_length = rec.stdout.length;
      return { events, total: rec.events.length, ...(i < rec.events.length ? { next: i } : {}), exit, truncated: i < rec.events.length };
    },
  );
}
