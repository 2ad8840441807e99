// guess_inputs: calls that return the value at this return, sampled from the model and checked.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionArg, tool, type ToolDeps } from '../toolKit';

export const MAX_GUESSES = 8;

export function registerGuessInputs(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'guess_inputs',
    {
      title: 'Guess the arguments from a return value',
      description:
        'At a return, samples k calls of the returning function from the model (inverse execution: inv_step_call), builds each as the ' +
        'function takes its arguments (its parameters in order; a method through its predicted object) and runs it: verified is true ' +
        'when the call returns the value observed here, got is what it returned or the error. drawn, duplicates and unusable (the ' +
        'model wrote no call, left out an argument, or wrote a value that is not a Python expression) say why there may be fewer than k candidates.',
      inputSchema: {
        session: sessionArg,
        k: z.number().int().min(1).max(MAX_GUESSES).optional().describe(`How many calls to sample (default 4, at most ${MAX_GUESSES})`),
      },
      outputSchema: {
        candidates: z.array(z.object({ call: z.string(), verified: z.boolean(), got: z.string().optional() })),
        drawn: z.number(),
        duplicates: z.number(),
        unusable: z.number(),
      },
      annotations: { title: 'Guess inputs', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
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
