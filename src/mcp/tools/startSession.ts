// start_session: records a program (pasted, or a file under the server's roots) and stops at its
// first event; the breakpoints it is given are verified, never accepted silently.

import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SERVER_LIMIT_CEILING } from '../../core/limits';
import { WAIT_NOTICE_MS, waitingText, withEngineWaits } from '../../realEngine/node/engineWait';
import { ENGINES, LIVE_LIMITS, LiveSession } from '../../session/liveSession';
import { withConditionErrors } from '../../session/breakpointSpecs';
import { EXCEPTION_MODES, type ExceptionMode } from '../../session/exceptionStops';
import { projectOptions, projectSummary, type Project } from '../../session/projectFiles';
import { presentState, sessionArg, tool, ToolError, type ToolDeps } from '../toolKit';
import { BREAKPOINTS_HELP, breakpointAnswer, breakpointArg, verifyBreakpoints, type BreakpointArg, type Verified } from './breakpointCheck';
import { readProgramFile } from './programFiles';
import { mcpCutNotice } from '../limitOptions';

export const MAX_CODE_CHARS = 200_000;
export const MAX_EVENTS_CEILING = SERVER_LIMIT_CEILING.maxEvents;
export const TIMEOUT_CEILING_S = SERVER_LIMIT_CEILING.timeLimit;

// an answer's parts are said in the description, not each field in the schema (the tool list is read at every listing)
const anyObject = z.unknown();

export function registerStartSession(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'start_session',
    {
      title: 'Start a session',
      description:
        'Records a Python program (CPython 3.14, sandboxed: no host files, commands or network) and stops at its start. `code`, ' +
        "or `path`: a .py file under the server's roots, whose folder is the project (its modules are recorded too, states name " +
        'their file; other files are readable copies, listed in project). Returns the session id, the first state (event, line, ' +
        'function, depth, locals as reprs), the breakpoints (verified, or why not); note: a limit cut the recording, or the start ' +
        'waited for an engine.',
      inputSchema: {
        code: z.string().max(MAX_CODE_CHARS).optional().describe('The Python source (or path)'),
        path: z.string().max(4_096).optional().describe("A .py file under the server's roots (ndb mcp --root DIR)"),
        argv: z.array(z.string().max(10_000)).max(100).optional().describe('sys.argv[1:]'),
        exceptions: z
          .enum(EXCEPTION_MODES as [ExceptionMode, ...ExceptionMode[]])
          .optional()
          .describe('Moves stop where an exception is raised: "raised" (any), "uncaught" (the one that ends the program), "none" (default)'),
        call: z.string().max(10_000).optional().describe('An entry call, e.g. "f([3, 1, 2])" (default: run the module)'),
        breakpoints: z.array(breakpointArg).max(100).optional().describe(BREAKPOINTS_HELP),
        engine: z.enum(ENGINES as [string, ...string[]]).optional().describe('real (default); neural: the model predicts each stop; both: {real, neural, match}'),
        max_events: z.number().int().min(100).max(MAX_EVENTS_CEILING).optional().describe(`Event budget (default ${LIVE_LIMITS.maxEvents})`),
        timeout_s: z.number().min(0.5).max(TIMEOUT_CEILING_S).optional().describe(`Time limit in s (default ${LIVE_LIMITS.timeLimit})`),
        stdin: z.string().max(MAX_CODE_CHARS).optional().describe('What input() reads, a line per call (default: input() is refused)'),
      },
      outputSchema: {
        session: z.string(),
        state: anyObject,
        breakpoints: z.array(breakpointAnswer),
        project: anyObject.optional(),
        note: z.string().optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args: {
      code?: string;
      path?: string;
      argv?: string[];
      exceptions?: ExceptionMode;
      call?: string;
      breakpoints?: BreakpointArg[];
      engine?: string;
      max_events?: number;
      timeout_s?: number;
      stdin?: string;
    }) => {
      // A start that waits for a Python engine (still loading, or every one busy) says so.
      const { result, waitedMs } = await withEngineWaits(
        () => undefined,
        async () => {
          if ((args.code === undefined) === (args.path === undefined)) throw new ToolError('give the program as code or as path (one of them)');
          deps.registry.reserve();
          const project: Project | undefined = args.path !== undefined ? readProgramFile(args.path, deps.roots) : undefined;
          const source = project ? project.source : args.code!;
          const run = project ? projectOptions(project) : { mainFile: 'main.py' };
          // Its own owner: nothing an earlier session's program left in an interpreter reaches it.
          const host = (await deps.host()).forOwner(`session-${randomUUID()}`);
          try {
            const program = { main: run.mainFile ?? 'main.py', source, ...(run.files ? { files: run.files } : {}), ...(project ? { folder: project.folder } : {}) };
            const verified: Verified = await verifyBreakpoints(host, program, args.breakpoints ?? []);
            const engine = (args.engine ?? 'real') as (typeof ENGINES)[number];
            const model = engine === 'real' ? undefined : await deps.model();
            const live = await LiveSession.start(host, source, args.call ?? '', {
              engine,
              breakpoints: verified.keys,
              conditions: verified.conditions,
              file: run.mainFile ?? 'main.py',
              exceptions: args.exceptions ?? 'none',
              ...(project ? { folder: project.folder } : {}),
              limits: {
                ...run,
                ...(args.argv?.length ? { argv: args.argv } : {}),
                ...(args.max_events !== undefined ? { maxEvents: args.max_events } : {}),
                ...(args.timeout_s !== undefined ? { timeLimit: args.timeout_s } : {}),
                ...(args.stdin !== undefined ? { stdin: args.stdin } : {}),
              },
              ...(model ? { model } : {}),
            });
            const id = deps.registry.add(live);
            // a recording a limit cut is said at the start, not only at its end
            const cut = mcpCutNotice(live);
            return {
              session: id,
              state: presentState(deps, id, live),
              breakpoints: withConditionErrors(verified.report, live.program, live.recording),
              ...(project ? { project: projectSummary(project) } : {}),
              ...(cut ? { note: cut } : {}),
            };
          } catch (err) {
            await host.release(); // a session that never started keeps no interpreter
            throw err;
          }
        },
      );
      if (waitedMs < WAIT_NOTICE_MS) return result;
      const waited = `ndb was ${waitingText(Math.round(waitedMs / 1000))} before this session started`;
      return { ...result, note: result.note ? `${result.note} (${waited}.)` : waited };
    },
  );
}

export { sessionArg };
