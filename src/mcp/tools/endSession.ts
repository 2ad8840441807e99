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
      description: `Ends the session (at most ${MAX_SESSIONS} are open; an hour unused ends one).`,
      inputSchema: { session: sessionArg },
      outputSchema: {},
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async (args: { session: string }) => {
      deps.registry.end(args.session);
      return {};
    },
  );
}
