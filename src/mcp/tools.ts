// The tools of `ndb mcp`: a debugging session an agent drives forwards and backwards, with the
// model's prediction of any step beside the truth. Every result is the same JSON twice: as
// structuredContent and as text, for clients that read only one of them.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ActionSyntaxError, parseAction, parseStep } from '../core/actions';
import { EditError } from '../core/whatIf';
import { ModelUnavailable } from '../cli/liveModel';
import { ENGINES, LiveSession, SessionError, type LiveModel } from '../cli/liveSession';
import { confidenceFields, predictedState } from '../cli/neuralFollower';
import { ProgramError } from '../cli/session';
import { logLine } from '../cli/stdio';
import type { PythonHost } from '../realEngine/pythonHost';
import { SessionRegistry, ToolError } from './sessions';

export const MAX_CODE_CHARS = 200_000;
export const MAX_TRACE_EVENTS = 5_000;
export const MAX_GUESSES = 8;

export interface ToolDeps {
  host: () => Promise<PythonHost>;
  model: () => Promise<LiveModel>;
  registry: SessionRegistry;
}

const ACTIONS_HELP =
  'step_into, step_over, step_return, continue, breakpoint:LINE (run to that line once), inv_step_into (step back), ' +
  'inv_step_over (step back over calls), inv_step_call (back to the call of this function: its arguments)';

const anyObject = z.record(z.string(), z.unknown());

/** Errors the client caused or can act on: their message is the answer. */
const EXPECTED = [ToolError, ProgramError, SessionError, EditError, ActionSyntaxError, ModelUnavailable];

function ok(result: Record<string, unknown>): CallToolResult {
  return { structuredContent: result, content: [{ type: 'text', text: JSON.stringify(result) }] };
}

function failure(err: unknown, tool: string): CallToolResult {
  const message = err instanceof Error ? err.message : String(err);
  if (!EXPECTED.some((kind) => err instanceof kind)) logLine(`${tool} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
  return { isError: true, content: [{ type: 'text', text: message }] };
}

export function registerTools(server: McpServer, deps: ToolDeps): void {
  const { registry } = deps;
  const handle =
    <A>(tool: string, run: (args: A) => Promise<Record<string, unknown>>) =>
    (args: A): Promise<CallToolResult> =>
      registry.serial(async () => {
        try {
          return ok(await run(args));
        } catch (err) {
          return failure(err, tool);
        }
      });

  server.registerTool(
    'start_session',
    {
      title: 'Start a debugging session',
      description:
        'Runs a Python program (CPython 3.14 in Pyodide) under ndb\'s recorder and stops at the call of the entry function. ' +
        '`call` is the entry call, e.g. "f([3, 1, 2])" (absent: run the module top to bottom); `breakpoints` are line numbers; ' +
        '`engine`: "real" (default; every stop is where pdb stops), "neural" (the model predicts each stop from its own previous ones) ' +
        'or "both" (each stop is {real, neural, match}). Returns the session id and the first state ' +
        '(event, line, function, depth, locals as reprs, value at returns). Runs end after 10,000 events or 8 s.',
      inputSchema: {
        code: z.string().max(MAX_CODE_CHARS).describe('The Python source'),
        call: z.string().max(10_000).optional().describe('The entry call, e.g. "f([3, 1, 2])"'),
        breakpoints: z.array(z.number().int().positive()).max(100).optional().describe('Breakpoint lines'),
        engine: z.enum(ENGINES as [string, ...string[]]).optional().describe('real (default), neural or both'),
      },
      outputSchema: { session: z.string(), state: anyObject },
    },
    handle('start_session', async (args: { code: string; call?: string; breakpoints?: number[]; engine?: string }) => {
      registry.reserve();
      const engine = (args.engine ?? 'real') as (typeof ENGINES)[number];
      const model = engine === 'real' ? undefined : await deps.model();
      const live = await LiveSession.start(await deps.host(), args.code, args.call ?? '', {
        engine,
        breakpoints: args.breakpoints ?? [],
        ...(model ? { model } : {}),
      });
      return { session: registry.add(live), state: live.cliState() as Record<string, unknown> };
    }),
  );

  server.registerTool(
    'step',
    {
      title: 'Step the debugger',
      description:
        `Moves the session by one debugger action and returns the new state. Actions: ${ACTIONS_HELP}; ` +
        'and set:NAME=EXPR (what-if: assign a local at this stop; the program runs again with the assignment made there). ' +
        'At the end the state is {"event": "exit", "status": …} (status budget or timeout for a program that does not end); ' +
        'stepping back from there works.',
      inputSchema: {
        session: z.string().describe('The id start_session returned'),
        action: z.string().max(10_000).describe(ACTIONS_HELP),
      },
      outputSchema: { state: anyObject },
    },
    handle('step', async (args: { session: string; action: string }) => {
      const live = registry.get(args.session);
      await live.step(parseStep(args.action));
      return { state: live.cliState() as Record<string, unknown> };
    }),
  );

  server.registerTool(
    'predict',
    {
      title: "Ask the model where an action goes",
      description:
        `The model's prediction of the state after an action from the current stop, the real state it would reach, and whether they agree ` +
        `(match; fields: per field), and how sure the model is: confidence, the probability that the whole predicted state is right ` +
        `(calibrated on held-out programs; 0 when it could not write a state), with confidence_fields per field (event and line, ` +
        `each local, the value). The session does not move. Actions: ${ACTIONS_HELP}.`,
      inputSchema: {
        session: z.string(),
        action: z.string().max(100),
      },
      outputSchema: { predicted: anyObject, real: anyObject, match: z.boolean(), fields: anyObject, confidence: z.number().min(0).max(1), confidence_fields: anyObject },
    },
    handle('predict', async (args: { session: string; action: string }) => {
      const live = registry.get(args.session);
      if (args.action.trim().startsWith('set:')) throw new ToolError('predict takes a debugger action; an edit (set:) is made with step');
      const action = parseAction(args.action);
      const model = live.follower ? undefined : await deps.model();
      const p = await live.predict(action, model);
      const { confidence, confidence_fields } = confidenceFields(p.confidence);
      return { predicted: predictedState(p.predicted, p.confidence), real: p.real as unknown as Record<string, unknown>, match: p.comparison.match, fields: p.comparison.fields, confidence, confidence_fields };
    }),
  );

  server.registerTool(
    'guess_inputs',
    {
      title: 'Guess the arguments from a return value',
      description:
        'At a return, samples k calls of the returning function from the model (inverse execution: inv_step_call) and runs each: ' +
        'verified is true when the call returns the value observed here.',
      inputSchema: {
        session: z.string(),
        k: z.number().int().min(1).max(MAX_GUESSES).optional().describe(`How many calls to sample (default 4, at most ${MAX_GUESSES})`),
      },
      outputSchema: { candidates: z.array(z.object({ call: z.string(), verified: z.boolean(), got: z.string().optional() })) },
    },
    handle('guess_inputs', async (args: { session: string; k?: number }) => {
      const live = registry.get(args.session);
      const candidates = await live.guessInputs(await deps.model(), args.k ?? 4);
      return { candidates };
    }),
  );

  server.registerTool(
    'trace',
    {
      title: 'The whole recording',
      description:
        `Every recorded event of the session's current run (what-if edits included), as \`ndb trace --json\` writes them ` +
        `(event, line, function, depth, frame, locals, value), without the stdout of each; then how the run ended. ` +
        `At most ${MAX_TRACE_EVENTS} events (truncated says when there were more).`,
      inputSchema: { session: z.string() },
      outputSchema: { events: z.array(anyObject), exit: anyObject, truncated: z.boolean() },
    },
    handle('trace', async (args: { session: string }) => {
      const rec = registry.get(args.session).recording;
      // `ndb trace --json` adds each event's stdout so far: left out here, it grows with the square of the run.
      const events = rec.events.slice(0, MAX_TRACE_EVENTS) as unknown as Array<Record<string, unknown>>;
      const exit: Record<string, unknown> = { status: rec.exit.status, stdout: rec.stdout };
      if (rec.exit.message !== undefined) exit.message = rec.exit.message;
      if (rec.exit.value !== undefined) exit.value = rec.exit.value;
      return { events, exit, truncated: rec.events.length > MAX_TRACE_EVENTS };
    }),
  );

  server.registerTool(
    'end_session',
    {
      title: 'End a session',
      description: 'Forgets the session (at most 8 are open at a time).',
      inputSchema: { session: z.string() },
      outputSchema: {},
    },
    handle('end_session', async (args: { session: string }) => {
      registry.end(args.session);
      return {};
    }),
  );
}
