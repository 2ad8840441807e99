// guess_inputs: calls that return the value at this return, sampled from the model and checked.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export const MAX_GUESSES = 8;

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export function registerGuessInputs(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'guess_inputs',
    {
      title: 'Guess the arguments',
      description:
        'At a return: k calls of this function sampled from the model (inv_step_call), each run; verified: it returns the value seen ' +
        'here (got: what it returned, or its error). drawn, duplicates, unusable: why there may be fewer than k.',
      inputSchema: {
        session: sessionArg,
        k: z.number().int().min(1).max(MAX_GUESSES).optional().describe('Calls to sample (default 4)'),
      },
      outputSchema: { candidates: z.array(anyObject), drawn: z.number(), duplicates: z.number(), unusable: z.number() },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; k?: number }) => {
      const live = deps.registry.get(args.session);
      const report = await live.guessInputs(await deps.model(), args.k ?? 4);
      // verified: the call, run, returns the value observed at the return
      const candidates = report.candidates.map((c) => ({ call: c.call, verified: c.verdict === 'yes', ...(c.got !== undefined ? { got: c.got } : {}) }));
      return { ...report, candidates };
    },
  );
}
