// evaluate: a Python expression in the stopped frame (or a caller's), changing nothing.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { frameEvents } from '../../core/state';
import { sessionArg, tool, ToolError, type ToolDeps } from '../toolKit';

export function registerEvaluate(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'evaluate',
    {
      title: 'Evaluate an expression at the stop',
      description:
        "Evaluates a Python expression in the stopped frame (frame 0, the innermost) or a caller's (frame 1, 2, … as stack lists " +
        "them), as it was at this stop: e.g. \"lo + hi\", \"len(items)\", \"items[mid] > target\". Returns the value's repr; an " +
        'exception it raises is the tool error. Nothing changes: the program is run again to the same stop and the expression is ' +
        'evaluated once there (what it changes, e.g. a list it appends to, is gone after; a caller\'s frame as it is at this stop).',
      inputSchema: {
        session: sessionArg,
        expression: z.string().min(1).max(2_000).describe('A Python expression'),
        frame: z.number().int().min(0).optional().describe('0 (default): the stopped frame; 1: its caller; …'),
      },
      outputSchema: { value: z.string(), frame: z.object({ function: z.string(), line: z.number() }) },
      annotations: { title: 'Evaluate', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; expression: string; frame?: number }) => {
      const live = deps.registry.get(args.session);
      const frames = frameEvents(live.recording, live.position);
      if (frames.length === 0) throw new ToolError('there is no frame here: the program has not started or has ended (step back into it)');
      const f = frames[args.frame ?? 0];
      if (!f) throw new ToolError(`frame ${args.frame} does not exist here: ${frames.length} frame(s), 0 to ${frames.length - 1}`);
      const answer = await live.evaluate(args.expression, f.event);
      if ('error' in answer) throw new ToolError(answer.error);
      return { value: answer.value, frame: { function: f.function, line: f.line } };
    },
  );
}
