// step: one debugger action (or a what-if edit) and the new stop.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SessionError } from '../../session/liveSession';
import { checkTarget, isReverseContinue, presentState, sessionArg, stepArg, toStep, tool, type ToolDeps } from '../toolKit';

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
        'outermost frame first; sys.exit(N) is status normal with exit_code N; status budget or timeout for a run cut off: raise max_events or timeout_s in start_session); ' +
        'stepping back from there works. inv_continue goes back to the previous stop on a breakpoint (else the first event; ' +
        'reason says which). With exception stops on (start_session\'s exceptions), a move that stops where an exception is ' +
        'raised says reason "exception". A breakpoint:LINE on a line without code is refused.',
      inputSchema: { session: sessionArg, action: stepArg },
      outputSchema: { state: z.record(z.string(), z.unknown()), reason: z.enum(['breakpoint', 'entry', 'exception']).optional() },
      annotations: { title: 'Step the debugger', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      if (isReverseContinue(args.action)) {
        if (live.engine === 'neural') throw new SessionError('inv_continue needs the recording: start the session with engine "real" or "both"');
        const hit = await live.reverseContinue();
        return { state: presentState(deps, args.session, live), reason: hit ? 'breakpoint' : 'entry' };
      }
      const step = toStep(args.action);
      await checkTarget(live.host, live, step);
      await live.step(step);
      return { state: presentState(deps, args.session, live), ...(live.atExceptionStop ? { reason: 'exception' } : {}) };
    },
  );
}
