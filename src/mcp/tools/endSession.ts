// end_session: forgets a session.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MAX_SESSIONS } from '../sessions';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export function registerEndSession(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'end_session',
    {
      title: 'End a session',
      description: `Forgets the session and its recording (at most ${MAX_SESSIONS} are open at a time; an hour unused also ends one).`,
      inputSchema: { session: sessionArg },
      outputSchema: {},
      annotations: { title: 'End a session', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args: { session: string }) => {
      deps.registry.end(args.session);
      return {};
    },
  );
}
