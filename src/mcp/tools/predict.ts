// predict: the model's answer for an action from here, beside the truth, with how sure it is.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confidenceFields, predictedState } from '../../session/neuralFollower';
import { actionArg, sessionArg, toAction, tool, type ToolDeps } from '../toolKit';

const anyObject = z.record(z.string(), z.unknown());

export function registerPredict(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'predict',
    {
      title: 'Ask the model where an action goes',
      description:
        "The model's prediction of the state after an action from the current stop, the real state it would reach, and whether they " +
        'agree (match; fields: per field), and how sure the model is: confidence, the probability that the whole predicted state is right ' +
        '(calibrated on held-out programs; 0 when it could not write a state), with confidence_fields per field (position: event and ' +
        'line, locals: each variable, value). The session does not move.',
      inputSchema: { session: sessionArg, action: actionArg },
      outputSchema: { predicted: anyObject, real: anyObject, match: z.boolean(), fields: anyObject, confidence: z.number().min(0).max(1), confidence_fields: anyObject },
      annotations: { title: 'Ask the model', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      const action = toAction(args.action);
      const model = live.follower ? undefined : await deps.model();
      const p = await live.predict(action, model);
      const { confidence, confidence_fields } = confidenceFields(p.confidence);
      const real = { ...(p.real as unknown as Record<string, unknown>) };
      delete real.stdout;
      return { predicted: predictedState(p.predicted, p.confidence), real, match: p.comparison.match, fields: p.comparison.fields, confidence, confidence_fields };
    },
  );
}
