// evaluate: a Python expression in the stopped frame (or a caller's), changing nothing.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { frameEvents } from '../../core/state';
import { sessionArg, tool, ToolError, type ToolDeps } from '../toolKit';

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export function registerEvaluate(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'evaluate',
    {
      title: 'Evaluate',
      description:
        "A Python expression's repr in a frame at this stop (e.g. \"items[mid] > target\"); an exception it raises is the error. " +
        'It runs once, in a re-run to this stop: what it changes is gone after.',
      inputSchema: {
        session: sessionArg,
        expression: z.string().min(1).max(2_000).describe('A Python expression'),
        frame: z.number().int().min(0).max(100_000).optional().describe('0 (default): the stopped frame; 1: its caller (as stack lists them)'),
      },
      outputSchema: { value: z.string(), frame: anyObject },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; expression: string; frame?: number }) => {
      const live = deps.registry.get(args.session);
      const frames = frameEvents(live.recording, live.position);
      if (frames.length === 0) {
        throw new ToolError(
          live.position < 0
            ? 'the program has not started: there is no frame to evaluate in (step_into starts it)'
            : 'the program has ended: there is no frame to evaluate in (inv_step_into steps back to its last event)',
        );
      }
      const f = frames[args.frame ?? 0];
      if (!f) throw new ToolError(`frame ${args.frame} does not exist here: ${frames.length} frame(s), 0 to ${frames.length - 1}`);
      const answer = await live.evaluate(args.expression, f.event);
      if ('error' in answer) throw new ToolError(answer.error);
      // the frame as stack names it: in a project, which file it is in
      return { value: answer.value, frame: { function: f.function, file: f.file, line: f.line } };
    },
  );
}
