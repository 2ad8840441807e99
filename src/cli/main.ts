// The `ndb` command line: the same core as the app, the real engine on Pyodide under Node.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../util/repoRoot';
import { ActionSyntaxError, formatMoveStep, parseMoveStepList } from '../core/actions';
import type { DebugState } from '../core/state';
import { jsonLine, oneLine } from '../core/terminalText';
import { toTraceLines } from '../core/traceJsonl';
import { eventFile } from '../core/location';
import { SetFileError } from '../eval/setFiles';
import { loadPythonHost } from '../realEngine/pythonHost';
import { checkKnown, parseArgs, parseBreakpointList, stringOption, UsageError, type ParsedArgs } from './args';
import { cliCutNotice, LIMITS_HELP, limitsFromArgs } from './limitOptions';
import type { RunLimits } from '../core/limits';
import type { Recording } from '../core/trace';
import { answerBatch, type BatchRun } from '../session/batch';
import { breakpointKeys } from '../session/breakpointSpecs';
import { EXCEPTION_MODES, type ExceptionMode } from '../session/exceptionStops';
import { listProblem, listStates } from '../session/actionList';
import { LiveSession } from '../session/liveSession';
import { ProgramError, recordOrThrow, type ProgramRun } from '../session/programSession';
import { projectOptions, readProject, type Project } from '../session/projectFiles';
import { eventText, stateText } from '../session/stateText';

const USAGE = `ndb — a neural debugger for Python

Usage:
  ndb trace FILE [--call EXPR] [--max-events N] [--timeout S] [--json] [-- ARGS]
                   (FILE's folder is its project: its other modules are recorded too)
  ndb debug FILE [--call EXPR] --actions a1,a2,… [--breakpoints L1,FILE:L2] [--exceptions raised|uncaught]
                 [--engine real] [--max-events N] [--timeout S] [--json] [-- ARGS]
  ndb debug FILE [--call EXPR] [--breakpoints L1,L2] [--engine real|neural|both] [--max-events N] [--timeout S] [-- ARGS]
                   (no --actions: an interactive prompt like pdb's, with reverse moves; h lists its commands;
                   ndb debug --help lists every option)
  ndb debug --batch REQUESTS.jsonl [--engine real] --json
  ndb debug FILE [--call EXPR] --actions … --engine neural|both [--model DIR] [--dtype D] --json
  ndb eval trajectories FILE.jsonl [FILE2.jsonl …] [--label NAME,…] [--decoder constrained|greedy|both] [--frame-names on|off|both] [--svg RELIABILITY.svg] [--model DIR] [--dtype D] [--limit N] --json
                   (one line per file, each set reported apart: "set" is its label or file name)
  ndb eval calibrate FILE.jsonl [FILE2.jsonl …] [--label NAME,…] [--write] [--model DIR] [--dtype D] [--limit N] --json
                   (fits the confidence's calibration on the sets; --write keeps it in the model's config.json)
  ndb eval jumps FILE.jsonl [--action step_return|step_over|continue|all] [--max-steps N] [--model DIR] [--dtype D] [--limit N] --json
  ndb eval early-stop FILE.jsonl [--model DIR] [--dtype D] [--limit N] --json
                   (ms per state with and without the early stop of unreadable states, interleaved)
  ndb eval cruxeval FILE.jsonl --task output|input [--action step_return|breakpoint]
                   [--verify K] [--limit N] [--model DIR] [--dtype D] --json
                   (--verify K, input only: up to K calls, the greedy one then samples, each run;
                   the first that returns the output counts, reported apart from pass@1)
  ndb eval variants FILE.jsonl [--model DIR] [--dtype fp32,int8,q4] [--limit N]
  ndb format --trace TRACE.jsonl --actions a1,a2,…
  ndb dap                                   (a Debug Adapter Protocol server on stdio)
  ndb mcp [--root DIR[,DIR…]] [--model DIR] [--dtype D]
                   (an MCP server on stdio: tools for agents; start_session's path reads only under the roots,
                   default the working directory)
  ndb bench [--model DIR] [--dtype D] [--programs N] [--max-new-tokens N] [--runs N] [--json]
  ndb --version

A program is its file's folder: every .py file below it is recorded too (stepping enters imported
modules, each stop names its file), its other files are read-only copies the program can open
(up to a size cap; what is left out is said on stderr), and ARGS after -- are its sys.argv[1:].

Engines: real (Pyodide), neural (the model goes on from its own predictions),
         both (one-step predictions beside the real state: {real, neural, match}).

Actions: step_into, step_over, step_return, continue, breakpoint:LINE,
         inv_step_into, inv_step_over, inv_step_call, inv_continue (back to the previous
         breakpoint stop, else the first event; engines real and both); also by the prompt's
         and MCP's names for them (next, c, step_out, back, rc, …),
         set:NAME=EXPR (what-if: assign a local at the current stop; the program is run
         again with the assignment made in the live frame, and goes on from there)
`;

/** `ndb debug --help`: every option, with its default and its range. */
export const DEBUG_HELP = `Usage: ndb debug FILE [options] [-- ARGS]    (no --actions: the (ndb) prompt)
       ndb debug --batch REQUESTS.jsonl [options] --json

Options:
  --call EXPR      the entry call, e.g. 'f([3, 1, 2])' (default: run the module)
  --actions LIST   a1,a2,…: the moves to make (see ndb --help), answered as states (no prompt)
  --breakpoints L  lines of FILE or FILE:LINE of another file of its folder, comma-separated
  --exceptions M   raised, uncaught or none (default none): continue stops where an exception is raised
  --engine E       real, neural or both (default real)
  --json           the states as JSON (with --actions or --batch)
  --batch FILE     one request a line: {"file", "call", "actions", "breakpoints"}
${LIMITS_HELP}  --model DIR      the model's folder (default the shipped one; engines neural and both)
  --dtype D        fp32, int8, q8, q4 or fp16 (default fp32)
  -- ARGS          the program's sys.argv[1:]

A recording cut by --max-events or --timeout is said, with how to raise the limit: by the prompt
before its first stop, on stderr with --actions.
`;

type Out = (line: string) => void;

/** `ndb --version`: this checkout's version, and the model the faces load by default. */
function versionText(): string {
  const read = (file: string): Record<string, unknown> => {
    try {
      const value: unknown = JSON.parse(readFileSync(join(REPO_ROOT, file), 'utf8'));
      return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };
  const version = read('package.json').version;
  const model = read('public/models/index.json').default;
  return `ndb ${typeof version === 'string' ? version : '?'} (model ${typeof model === 'string' ? model : 'none'}, Node ${process.version})`;
}

export async function main(argv: string[], out: Out = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'trace':
        return await traceCommand(parseArgs(rest, ['json']), out);
      case 'debug':
        // (after --, --help is the program's)
        if (rest.slice(0, rest.includes('--') ? rest.indexOf('--') : rest.length).some((a) => a === '--help' || a === '-h')) {
          process.stdout.write(DEBUG_HELP);
          return 0;
        }
        return await debugCommand(parseArgs(rest, ['json']), out);
      case 'eval': {
        const { evalCommand } = await import('./evaluate');
        return await evalCommand(parseArgs(rest, ['json', 'write']), out);
      }
      case 'bench': {
        const { benchCommand } = await import('./evaluate');
        return await benchCommand(parseArgs(rest, ['json']), out);
      }
      case 'dap': {
        checkKnown(parseArgs(rest, []), []);
        const { runDapServer } = await import('../dap/server');
        return await runDapServer();
      }
      case 'mcp': {
        const args = parseArgs(rest, []);
        checkKnown(args, ['model', 'dtype', 'root']);
        if (args.positionals.length > 0) throw new UsageError('mcp takes no FILE');
        const roots = (stringOption(args, 'root') ?? process.cwd()).split(',').filter((r) => r !== '');
        for (const root of roots) if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`--root ${root}: no such folder`);
        const dtype = stringOption(args, 'dtype') ?? 'fp32';
        if (!['fp32', 'int8', 'q8', 'q4', 'fp16'].includes(dtype)) throw new UsageError('--dtype must be one of fp32, int8, q8, q4, fp16');
        const { runMcpServer } = await import('../mcp/server');
        const model = stringOption(args, 'model');
        return await runMcpServer({ ...(model === undefined ? {} : { model }), dtype: dtype as 'fp32', roots });
      }
      case 'format': {
        const { formatCommand } = await import('./format');
        return await formatCommand(parseArgs(rest, []), out);
      }
      case '--version':
      case '-V':
      case 'version':
        out(versionText());
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ActionSyntaxError || err instanceof SetFileError) {
      process.stderr.write(`ndb: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    process.stderr.write(`ndb: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
}

export function readProgram(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ProgramError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

function fileArgument(args: ParsedArgs): string {
  if (args.positionals.length - args.rest.length !== 1) throw new UsageError('expected exactly one FILE (the program\'s own arguments go after --)');
  return args.positionals[0]!;
}

async function traceCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['call', 'json', 'max-events', 'timeout']);
  const limits = limitsFromArgs(args);
  const file = fileArgument(args);
  readProgram(file); // a missing file is said as such before its folder is read
  // the program's folder is its project, as for ndb debug, DAP and MCP: its other modules import
  const project = readProject(file);
  noteLeftOut(project);
  const engine = await loadPythonHost();
  const run: ProgramRun = { ...projectOptions(project), ...(args.rest.length ? { argv: args.rest } : {}), timeLimit: limits.timeLimit };
  const rec = await recordOrThrow(engine, project.source, stringOption(args, 'call') ?? '', limits.maxEvents, undefined, run);
  if (args.options.has('json')) {
    for (const line of toTraceLines(rec)) out(jsonLine(line));
  } else {
    // values and messages are the program's: escaped, so that they cannot forge a line or move the cursor
    for (const e of rec.events) out(oneLine(eventText(e, rec.files ? eventFile(rec, e) : undefined, project.main)));
    out(oneLine(`exit: ${rec.exit.status}${rec.exit.exit_code !== undefined ? ` (sys.exit() with exit status ${rec.exit.exit_code})` : ''}${rec.exit.message ? ` (${rec.exit.message})` : ''}`));
  }
  warnIfCut(rec, limits);
  return 0;
}

/** A recording a limit cut is said on stderr: where, and why or how to raise the limit. */
function warnIfCut(rec: Recording, limits: RunLimits): void {
  const notice = cliCutNotice(rec, limits);
  if (notice) process.stderr.write(`ndb: ${oneLine(notice)}\n`);
}

type EngineName = 'real' | 'neural' | 'both';

function engineOption(args: ParsedArgs): EngineName {
  const engine = stringOption(args, 'engine') ?? 'real';
  if (engine === 'real' || engine === 'neural' || engine === 'both') return engine;
  throw new UsageError(`--engine must be real, neural or both, not '${engine}'`);
}

async function debugCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['call', 'json', 'actions', 'breakpoints', 'engine', 'batch', 'max-events', 'timeout', 'model', 'dtype', 'exceptions']);
  const engineName = engineOption(args);
  const batch = stringOption(args, 'batch');
  const limits = limitsFromArgs(args);
  const maxEvents = limits.maxEvents;
  if (batch !== undefined) {
    if (args.positionals.length > 0) throw new UsageError('--batch takes no FILE');
    return batchCommand(batch, limits, engineName, args, out);
  }
  const file = fileArgument(args);
  readProgram(file); // a missing file is said as such before its folder is read
  const project = readProject(file);
  const run: ProgramRun = { ...projectOptions(project), ...(args.rest.length ? { argv: args.rest } : {}), timeLimit: limits.timeLimit };
  noteLeftOut(project);
  if (!args.options.has('actions') && !args.options.has('json')) return (await import('./debugRepl')).debugRepl(args, file, project, run, exceptionsOption(args));
  const actions = parseMoveStepList(stringOption(args, 'actions') ?? '');
  const problem = listProblem(engineName, actions);
  if (problem) throw new UsageError(problem);
  const breakpoints = cliBreakpoints(args, project);
  const engine = await loadPythonHost();
  // the road every face moves on: a LiveSession, the model beside it for engines neural and both
  const model = engineName === 'real' ? {} : { model: { predictor: (await (await import('./model')).modelFromArgs(args)).predictor } };
  const live = await LiveSession.start(engine, project.source, stringOption(args, 'call') ?? '', {
    engine: engineName,
    breakpoints,
    exceptions: exceptionsOption(args),
    file: project.main,
    folder: project.folder,
    limits: { ...run, maxEvents },
    ...model,
  });
  const first = live.recording;
  const states = await listStates(live, actions);
  if (engineName !== 'real') out(args.options.has('json') ? jsonLine({ states }) : states.map((s) => jsonLine(s)).join('\n'));
  else if (args.options.has('json')) out(jsonLine({ states }));
  else states.forEach((s, i) => out(oneLine(`${i === 0 ? 'start' : formatMoveStep(actions[i - 1]!)}: ${stateText(s as DebugState)}`)));
  warnIfCut(first, limits);
  return 0;
}

function exceptionsOption(args: ParsedArgs): ExceptionMode {
  const mode = stringOption(args, 'exceptions') ?? 'none';
  if ((EXCEPTION_MODES as readonly string[]).includes(mode)) return mode as ExceptionMode;
  throw new UsageError(`--exceptions must be raised, uncaught or none, not '${mode}'`);
}

/** `--breakpoints` as the session's keys: LINE of the main file, or FILE:LINE. */
function cliBreakpoints(args: ParsedArgs, project: Project): number[] {
  try {
    return breakpointKeys({ main: project.main, source: project.source, files: project.files, folder: project.folder }, parseBreakpointList(stringOption(args, 'breakpoints')));
  } catch (err) {
    if (err instanceof RangeError) throw new UsageError(`--breakpoints: ${err.message}`);
    throw err;
  }
}

/** Files of the project that were not handed to the program are said, never dropped silently. */
function noteLeftOut(project: Project): void {
  for (const { file, reason } of project.leftOut) process.stderr.write(`ndb: ${oneLine(file)} is not readable by the program: ${reason}\n`);
}

async function batchCommand(path: string, limits: RunLimits, engineName: EngineName, args: ParsedArgs, out: Out): Promise<number> {
  const text = readProgram(path);
  const engine = await loadPythonHost();
  // the model and its code load only for a neural engine, once for the whole batch
  const model = engineName === 'real' ? {} : { model: { predictor: (await (await import('./model')).modelFromArgs(args)).predictor } };
  const session: BatchRun['session'] = { engine: engineName, exceptions: exceptionsOption(args), ...model };
  let failures = 0;
  for await (const answer of answerBatch(text, engine, { readProgram, session, ...limits })) {
    if ('error' in answer) {
      failures++;
      process.stderr.write(`ndb: request ${answer.line}${answer.id !== null ? ` (id ${JSON.stringify(answer.id)})` : ''}: ${oneLine(answer.error)}\n`);
      out(jsonLine({ id: answer.id, error: answer.error }));
    } else out(jsonLine(answer));
  }
  return failures > 0 ? 1 : 0;
}
