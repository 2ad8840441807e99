// step: one debugger action (or a what-if edit) and the new stop.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkTarget, presentState, sessionArg, stepArg, toStep, tool, type ToolDeps } from '../toolKit';

export function registerStep(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'step',
    {
      title: 'Step the debugger',
      description:
        'Moves the session by one debugger action and returns the new state (stdout: only the output written since the last answer; ' +
        'stdout_length: all of it). At the end the state is {"event": "exit", "status": …} (an uncaught exception adds traceback, ' +
        'outermost frame first; status budget or timeout for a run cut off: raise max_events or timeout_s in start_session); ' +
        'stepping back from there works. A breakpoint:LINE on a line without code is refused.',
      inputSchema: { session: sessionArg, action: stepArg },
      outputSchema: { state: z.record(z.string(), z.unknown()) },
      annotations: { title: 'Step the debugger', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      const step = toStep(args.action);
      await checkTarget(live.host, live, step);
      await live.step(step);
      return { state: presentState(deps, args.session, live) };
    },
  );
}
