// predict: the model's answer for an action from here, beside the truth, with how sure it is.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confidenceFields, predictedState } from '../../session/neuralFollower';
import { parseActionName } from '../../core/actions';
import { actionArg, MAX_STATE_OUTPUT, sessionArg, tool, type ToolDeps } from '../toolKit';

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export function registerPredict(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'predict',
    {
      title: 'Predict a move',
      description:
        "The model's predicted state after an action, the real one, match (fields: per field), and confidence: the calibrated " +
        'probability that the prediction is right (confidence_fields per field). The session does not move.',
      inputSchema: { session: sessionArg, action: actionArg },
      outputSchema: { predicted: anyObject, real: anyObject, match: z.boolean(), fields: anyObject, confidence: z.number().min(0).max(1), confidence_fields: anyObject },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      const action = parseActionName(args.action);
      const model = live.followed ? undefined : await deps.model();
      const p = await live.predict(action, model);
      const { confidence, confidence_fields } = confidenceFields(p.confidence);
      // the output the action would write, not all of it again (the session does not move, so the
      // step tool still reports it as new when the agent takes the step)
      const real = { ...(p.real as unknown as Record<string, unknown>) };
      const before = 'stdout' in live.state ? live.state.stdout : '';
      if (typeof real.stdout === 'string') {
        // a step back writes nothing: its state's output is a prefix of what is shown now
        const written = real.stdout.startsWith(before) ? real.stdout.slice(before.length) : '';
        real.stdout_length = real.stdout.length;
        real.stdout = written.length > MAX_STATE_OUTPUT ? `${written.slice(0, MAX_STATE_OUTPUT)}… (cut)` : written;
      }
      return { predicted: predictedState(p.predicted, p.confidence), real, match: p.comparison.match, fields: p.comparison.fields, confidence, confidence_fields };
    },
  );
}
