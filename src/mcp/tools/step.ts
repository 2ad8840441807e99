// step: one debugger action (or a what-if edit) and the new stop.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SessionError } from '../../session/liveSession';
import { parseMoveStep } from '../../core/actions';
import { checkTarget, presentState, sessionArg, stepArg, tool, type ToolDeps } from '../toolKit';

export function registerStep(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'step',
    {
      title: 'Step',
      description:
        'One move; returns the new state (stdout: output new since the last answer). The end: {event: "exit", status}, with a ' +
        'traceback if uncaught; sys.exit(N): normal, exit_code N; budget/timeout: cut (raise max_events or timeout_s). ' +
        'reason: "exception" at an exception stop; "breakpoint" or "entry" after inv_continue.',
      inputSchema: { session: sessionArg, action: stepArg },
      outputSchema: { state: z.unknown(), reason: z.enum(['breakpoint', 'entry', 'exception']).optional() },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      const step = parseMoveStep(args.action);
      if (step.kind === 'inv_continue' && live.engine === 'neural') throw new SessionError('inv_continue needs the recording: start the session with engine "real" or "both"');
      await checkTarget(live.host, live, step);
      // the session's one answer for every face: where the move stopped and why
      const stop = await live.step(step);
      const reason = stop && (step.kind === 'inv_continue' || stop.reason === 'exception') ? { reason: stop.reason } : {};
      return { state: presentState(deps, args.session, live), ...reason };
    },
  );
}
