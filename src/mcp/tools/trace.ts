// trace: the recording in pages, filtered by file, function or line; the program's output is not
// repeated on every page (the `output` tool pages through it).

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { eventFile } from '../../core/location';
import { qualnameOf } from '../../core/state';
import type { TraceEvent } from '../../core/trace';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export const TRACE_PAGE = 200;
export const MAX_TRACE_PAGE = 2_000;
/** A page also ends before its events' JSON passes this many characters (the answer's cap is
 * MAX_RESULT_CHARS; the rest is left for the exit state). */
export const TRACE_PAGE_CHARS = 60_000;

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export function registerTrace(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'trace',
    {
      title: 'Trace',
      description:
        "The run's events as `ndb trace --json` writes them (index: place in the run; the module's call is at line 0), " +
        `paged (${TRACE_PAGE_CHARS / 1000} KB at most), filtered if asked. total: events matched; run_events: all; next: the ` +
        "next page's start. exit: how it ended (stdout on the first page).",
      inputSchema: {
        session: sessionArg,
        from: z.number().int().min(0).max(10_000_000).optional().describe('First event index (default 0)'),
        limit: z.number().int().min(1).max(MAX_TRACE_PAGE).optional().describe(`Events per page (default ${TRACE_PAGE})`),
        file: z.string().max(4_096).optional().describe('Only this file\'s events, e.g. "pricing.py"'),
        function: z.string().max(200).optional().describe('Only this function\'s (rate or Frozen.rate)'),
        line: z.number().int().min(1).max(1_000_000).optional().describe('Only this line\'s'),
      },
      outputSchema: { events: z.array(anyObject), total: z.number(), run_events: z.number(), next: z.number().optional(), exit: anyObject, truncated: z.boolean() },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; from?: number; limit?: number; file?: string; function?: string; line?: number }) => {
      const live = deps.registry.get(args.session);
      const rec = live.recording;
      const limit = args.limit ?? TRACE_PAGE;
      const events: Array<Record<string, unknown>> = [];
      const wantedFile = args.file?.replace(/^\.\//, '');
      // a function by its name (`rate`) or its qualified name (`Frozen.rate`, as stack shows it)
      const matches = (e: TraceEvent): boolean =>
        (wantedFile === undefined || eventFile(rec, e) === wantedFile) &&
        (args.function === undefined || e.function === args.function || qualnameOf(rec, e) === args.function) &&
        (args.line === undefined || e.line === args.line);
      let i = args.from ?? 0;
      let chars = 0;
      for (; i < rec.events.length && events.length < limit; i++) {
        const e = rec.events[i]!;
        if (!matches(e)) continue;
        const event = { index: i, file: eventFile(rec, e), ...e };
        chars += JSON.stringify(event).length + 1;
        if (chars > TRACE_PAGE_CHARS && events.length > 0) break;
        events.push(event);
      }
      // past the page: is any event left that the filter takes? (next is absent when none is)
      let more = i;
      while (more < rec.events.length && !matches(rec.events[more]!)) more++;
      const filtered = wantedFile !== undefined || args.function !== undefined || args.line !== undefined;
      const total = filtered ? rec.events.reduce((n, e) => n + (matches(e) ? 1 : 0), 0) : rec.events.length;
      const exitState = live.real.fork();
      exitState.jump(rec.events.length);
      const exit = { ...(exitState.state as unknown as Record<string, unknown>) };
      delete exit.event;
      // The output once, on the first page; later pages say only how long it is.
      if ((args.from ?? 0) > 0) delete exit.stdout;
      exit.stdout_length = rec.stdout.length;
      const left = more < rec.events.length;
      return { events, total, run_events: rec.events.length, ...(left ? { next: more } : {}), exit, truncated: left };
    },
  );
}
