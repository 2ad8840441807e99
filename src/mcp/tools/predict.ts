// predict: the model's answer for an action from here, beside the truth, with how sure it is.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { confidenceFields, predictedState } from '../../session/neuralFollower';
import { actionArg, MAX_STATE_OUTPUT, sessionArg, toAction, tool, type ToolDeps } from '../toolKit';

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
        'line, locals: each variable, value). real.stdout is what the action would print (real.stdout_length: all output by then). The session does not move.',
      inputSchema: { session: sessionArg, action: actionArg },
      outputSchema: { predicted: anyObject, real: anyObject, match: z.boolean(), fields: anyObject, confidence: z.number().min(0).max(1), confidence_fields: anyObject },
      annotations: { title: 'Ask the model', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async (args: { session: string; action: string }) => {
      const live = deps.registry.get(args.session);
      const action = toAction(args.action);
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
