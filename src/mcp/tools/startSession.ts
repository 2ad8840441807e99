// start_session: records a program (pasted, or a file under the server's roots) and stops at its
// first event; the breakpoints it is given are verified, never accepted silently.

import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { SERVER_LIMIT_CEILING } from '../../core/limits';
import { WAIT_NOTICE_MS, waitingText, withEngineWaits } from '../../realEngine/engineWait';
import { ENGINES, LIVE_LIMITS, LiveSession } from '../../session/liveSession';
import { withConditionErrors } from '../../session/breakpointSpecs';
import { EXCEPTION_MODES, type ExceptionMode } from '../../session/exceptionStops';
import { projectOptions, projectSummary, type Project } from '../../session/projectFiles';
import { presentState, sessionArg, tool, ToolError, type ToolDeps } from '../toolKit';
import { breakpointAnswer, breakpointArg, verifyBreakpoints, type BreakpointArg, type Verified } from './breakpointCheck';
import { readProgramFile } from './programFiles';

export const MAX_CODE_CHARS = 200_000;
export const MAX_EVENTS_CEILING = SERVER_LIMIT_CEILING.maxEvents;
export const TIMEOUT_CEILING_S = SERVER_LIMIT_CEILING.timeLimit;

const anyObject = z.record(z.string(), z.unknown());

export function registerStartSession(server: McpServer, deps: ToolDeps): void {
  tool(
    server,
    deps,
    'start_session',
    {
      title: 'Start a debugging session',
      description:
        "Runs a Python program (CPython 3.14 in Pyodide, inside ndb's sandbox: no host files, commands or network) under ndb's recorder " +
        'and stops at its first event (the call of the entry function, or the module). Give the program as `code`, or as `path` to a .py ' +
        "file under the server's roots: its folder is the program's project (every .py file below it is recorded too, so stepping " +
        'enters imported modules and every state names its `file`; its other files are read-only copies the program can open, up to a ' +
        'size cap: `project` says what was handed in and what was left out). `argv`: the program\'s arguments (sys.argv[1:]). ' +
        '`exceptions`: "raised" stops continue (and step_over, step_return) where any exception is raised, "uncaught" where the ' +
        'one that ends the program is raised (the stop is its exception event, at the line that raised it). ' +
        '`call` is the entry call, e.g. "f([3, 1, 2])" ' +
        '(absent: the module runs top to bottom). `breakpoints`: lines of the main file, or {file?, line, condition?, hit_count?}; each is checked and reported ' +
        '(verified, or why not). `engine`: "real" (default; every stop is where pdb stops), "neural" (the model predicts each stop from ' +
        'its own previous ones; each state says predicted true/false) or "both" ({real, neural, match}). `max_events` and `timeout_s` ' +
        `bound the run (defaults ${LIVE_LIMITS.maxEvents} events and ${LIVE_LIMITS.timeLimit} s; at most ${MAX_EVENTS_CEILING} and ${TIMEOUT_CEILING_S}). ` +
        'Returns the session id, the first state (event, line, function, depth, locals as reprs, value at returns, stdout new since the ' +
        'last answer) and the breakpoints as verified; `note` says when the start waited for a Python engine.',
      inputSchema: {
        code: z.string().max(MAX_CODE_CHARS).optional().describe('The Python source (or give path)'),
        path: z.string().max(4_096).optional().describe("A .py file under the server's roots (ndb mcp --root DIR; default its working directory)"),
        argv: z.array(z.string().max(10_000)).max(100).optional().describe("The program's arguments: sys.argv[1:]"),
        exceptions: z
          .enum(EXCEPTION_MODES as [ExceptionMode, ...ExceptionMode[]])
          .optional()
          .describe('Stop where exceptions are raised: "raised" (every one, where it is raised), "uncaught" (the one that ends the program), "none" (default)'),
        call: z.string().max(10_000).optional().describe('The entry call, e.g. "f([3, 1, 2])"; absent: run the module'),
        breakpoints: z.array(breakpointArg).max(100).optional().describe('Breakpoint lines of the main file, or {file?, line, condition?, hit_count?}'),
        engine: z.enum(ENGINES as [string, ...string[]]).optional().describe('real (default), neural or both'),
        max_events: z.number().int().min(100).max(MAX_EVENTS_CEILING).optional().describe(`Event budget (default ${LIVE_LIMITS.maxEvents})`),
        timeout_s: z.number().min(0.5).max(TIMEOUT_CEILING_S).optional().describe(`Time limit in seconds (default ${LIVE_LIMITS.timeLimit}); a call Python cannot interrupt (time.sleep stops at the limit) is ended from outside 1 s after it`),
        stdin: z.string().max(MAX_CODE_CHARS).optional().describe('What input() reads, one line per call (absent: input() is refused)'),
      },
      outputSchema: {
        session: z.string(),
        state: anyObject,
        breakpoints: z.array(breakpointAnswer),
        project: z.object({ files: z.array(z.string()), data: z.array(z.string()), left_out: z.array(z.object({ file: z.string(), reason: z.string() })).optional() }).optional(),
        note: z.string().optional(),
      },
      annotations: { title: 'Start a debugging session', readOnlyHint: false, destructiveHint: false, openWorldHint: false },
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
            return {
              session: id,
              state: presentState(deps, id, live),
              breakpoints: withConditionErrors(verified.report, live.program, live.recording),
              ...(project ? { project: projectSummary(project) } : {}),
            };
          } catch (err) {
            await host.release(); // a session that never started keeps no interpreter
            throw err;
          }
        },
      );
      return waitedMs >= WAIT_NOTICE_MS ? { ...result, note: `ndb was ${waitingText(Math.round(waitedMs / 1000))} before this session started` } : result;
    },
  );
}

export { sessionArg };
