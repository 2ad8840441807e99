// The `ndb` command line: the same core as the app, the real engine on Pyodide under Node.

import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Reliability } from '../core/confidence';
import { ActionSyntaxError, formatStep, parseStep, parseStepList, type Step } from '../core/actions';
import type { DebugState } from '../core/state';
import { jsonLine, oneLine } from '../core/terminalText';
import { toTraceLines } from '../core/traceJsonl';
import type { DecoderKind } from '../neuralEngine/neuralSession';
import { loadPythonHost } from '../realEngine/pythonHost';
import { checkKnown, parseArgs, parseLineList, stringOption, UsageError, type ParsedArgs } from './args';
import { reliabilitySvg } from './reliabilitySvg';
import { debugStates, ProgramError, recordOrThrow, rerunWith } from '../session/programSession';

const USAGE = `ndb — a neural debugger for Python

Usage:
  ndb trace FILE [--call EXPR] [--max-events N] [--json]
  ndb debug FILE [--call EXPR] --actions a1,a2,… [--breakpoints L1,L2] [--engine real] [--json]
  ndb debug --batch REQUESTS.jsonl [--engine real] --json
  ndb debug FILE [--call EXPR] --actions … --engine neural|both [--model DIR] [--dtype D] --json
  ndb eval trajectories FILE.jsonl [FILE2.jsonl …] [--label NAME,…] [--decoder constrained|greedy|both] [--svg RELIABILITY.svg] [--model DIR] [--dtype D] [--limit N] --json
                   (one line per file, each set reported apart: "set" is its label or file name)
  ndb eval calibrate FILE.jsonl [FILE2.jsonl …] [--label NAME,…] [--write] [--model DIR] [--dtype D] [--limit N] --json
                   (fits the confidence's calibration on the sets; --write keeps it in the model's config.json)
  ndb eval early-stop FILE.jsonl [--model DIR] [--dtype D] [--limit N] --json
                   (ms per state with and without the early stop of unreadable states, interleaved)
  ndb eval cruxeval FILE.jsonl --task output|input [--action step_return|breakpoint]
                   [--limit N] [--model DIR] [--dtype D] --json
  ndb eval variants FILE.jsonl [--model DIR] [--dtype fp32,int8,q4] [--limit N]
  ndb format --trace TRACE.jsonl --actions a1,a2,…
  ndb dap                                   (a Debug Adapter Protocol server on stdio)
  ndb mcp [--root DIR[,DIR…]] [--model DIR] [--dtype D]
                   (an MCP server on stdio: tools for agents; start_session's path reads only under the roots,
                   default the working directory)
  ndb bench [--model DIR] [--dtype D] [--programs N] [--max-new-tokens N] [--runs N] [--json]

Engines: real (Pyodide), neural (the model goes on from its own predictions),
         both (one-step predictions beside the real state: {real, neural, match}).

Actions: step_into, step_over, step_return, continue, breakpoint:LINE,
         inv_step_into, inv_step_over, inv_step_call,
         set:NAME=EXPR (what-if: assign a local at the current stop; the program is run
         again with the assignment made in the live frame, and goes on from there)
`;

type Out = (line: string) => void;

export async function main(argv: string[], out: Out = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'trace':
        return await traceCommand(parseArgs(rest, ['json']), out);
      case 'debug':
        return await debugCommand(parseArgs(rest, ['json']), out);
      case 'eval':
        return await evalCommand(parseArgs(rest, ['json', 'write']), out);
      case 'bench':
        return await benchCommand(parseArgs(rest, ['json']), out);
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
    if (err instanceof UsageError || err instanceof ActionSyntaxError) {
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
  if (args.positionals.length !== 1) throw new UsageError('expected exactly one FILE');
  return args.positionals[0]!;
}

function maxEventsOption(args: ParsedArgs): number | undefined {
  const text = stringOption(args, 'max-events');
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError('--max-events must be a positive integer');
  return n;
}

async function traceCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['call', 'json', 'max-events']);
  const source = readProgram(fileArgument(args));
  const engine = await loadPythonHost();
  const rec = await recordOrThrow(engine, source, stringOption(args, 'call') ?? '', maxEventsOption(args));
  if (args.options.has('json')) {
    for (const line of toTraceLines(rec)) out(jsonLine(line));
  } else {
    // values and messages are the program's: escaped, so that they cannot forge a line or move the cursor
    for (const e of rec.events) out(oneLine(`${'  '.repeat(Math.max(0, e.depth))}${e.event.padEnd(9)} ${e.function}:${e.line}  ${localsText(e.locals)}${e.value !== undefined ? `  -> ${e.value}` : ''}`));
    out(oneLine(`exit: ${rec.exit.status}${rec.exit.message ? ` (${rec.exit.message})` : ''}`));
  }
  warnIfCut(rec.exit.status, rec.exit.message);
  return 0;
}

function warnIfCut(status: string, message: string | undefined): void {
  if (status === 'budget' || status === 'timeout') process.stderr.write(`ndb: ${oneLine(message ?? status)}\n`);
}

type EngineName = 'real' | 'neural' | 'both';

function engineOption(args: ParsedArgs): EngineName {
  const engine = stringOption(args, 'engine') ?? 'real';
  if (engine === 'real' || engine === 'neural' || engine === 'both') return engine;
  throw new UsageError(`--engine must be real, neural or both, not '${engine}'`);
}

async function evalCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['json', 'model', 'dtype', 'limit', 'task', 'action', 'label', 'decoder', 'write', 'svg']);
  const [kind, file, ...extra] = args.positionals;
  if (!file || (extra.length > 0 && kind !== 'trajectories' && kind !== 'calibrate')) throw new UsageError('expected: ndb eval trajectories|calibrate|cruxeval|early-stop|variants FILE');
  const limitText = stringOption(args, 'limit');
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError('--limit must be a positive integer');
  const neural = await import('./neural');
  if (kind === 'trajectories') {
    const files = [file, ...extra];
    const labels = setLabels(files, stringOption(args, 'label'));
    const model = await neural.modelFromArgs(args);
    const decoderText = stringOption(args, 'decoder') ?? 'constrained';
    const decoders: string[] = decoderText === 'both' ? ['greedy', 'constrained'] : [decoderText];
    const known = (d: string): d is DecoderKind => d === 'greedy' || d === 'constrained';
    if (!decoders.every(known)) throw new UsageError('--decoder must be constrained, greedy or both');
    const curves: { label: string; reliability: Reliability }[] = [];
    for (const [i, path] of files.entries()) {
      for (const report of await neural.evalTrajectories(path, model, limit, decoders.filter(known))) {
        out(JSON.stringify({ set: labels[i], file: path, ...report }));
        if (report.confidence) curves.push({ label: labels[i]!, reliability: report.confidence.state });
      }
    }
    const svg = stringOption(args, 'svg');
    if (svg !== undefined) writeFileSync(svg, reliabilitySvg(curves, `${basename(model.dir)} (${model.dtype}): whole states`));
    return 0;
  }
  if (kind === 'calibrate') {
    const files = [file, ...extra];
    const { calibrate } = await import('./calibrate');
    const result = await calibrate(files, setLabels(files, stringOption(args, 'label')), await neural.modelFromArgs(args), limit, args.options.has('write'));
    out(JSON.stringify(result));
    return 0;
  }
  if (kind === 'early-stop') {
    const [label] = setLabels([file], stringOption(args, 'label'));
    const { evalEarlyStop } = await import('./earlyStop');
    const report = await evalEarlyStop(file, await neural.modelFromArgs(args), limit, label!);
    out(JSON.stringify(report));
    return 0;
  }
  if (kind === 'cruxeval') {
    const task = stringOption(args, 'task');
    if (task !== 'output' && task !== 'input') throw new UsageError('--task must be output or input');
    const action = stringOption(args, 'action') ?? (task === 'output' ? 'step_return' : 'inv_step_call');
    if (task === 'output' && action !== 'step_return' && action !== 'breakpoint') throw new UsageError('--action must be step_return or breakpoint');
    if (task === 'input' && action !== 'inv_step_call') throw new UsageError('input prediction uses inv_step_call');
    const model = await neural.modelFromArgs(args);
    const json = args.options.has('json');
    const result = await neural.evalCruxeval(file, task, action, model, limit, (line) => {
      if (json) out(line);
    });
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    const trivial = Object.entries(result.baselines)
      .map(([name, b]) => `${name.replace(/_/g, ' ')} ${pct((b as { pass_at_1: number }).pass_at_1)}`)
      .join(', ');
    out(json ? JSON.stringify(result) : `CruxEval-${task === 'output' ? 'O' : 'I'} (${result.action}): ${result.passed}/${result.n} = ${pct(result.pass_at_1)} (baselines: ${trivial})`);
    return 0;
  }
  if (kind === 'variants') {
    const { evalVariants } = await import('./variants');
    const dtypes = (stringOption(args, 'dtype') ?? 'fp32,int8,q4').split(',') as Array<'fp32' | 'int8' | 'q4'>;
    const reports = await evalVariants(stringOption(args, 'model') ?? neural.defaultModelDir(), file, dtypes, limit ?? 30);
    for (const r of reports) out(JSON.stringify(r));
    return 0;
  }
  throw new UsageError(`unknown evaluation '${kind ?? ''}': trajectories, cruxeval or variants`);
}

/** A name for each evaluation set: `--label a,b` in file order, else the file name without .jsonl. */
function setLabels(files: readonly string[], option: string | undefined): string[] {
  const given = option === undefined ? [] : option.split(',');
  if (option !== undefined && given.length !== files.length) throw new UsageError('--label needs one name per FILE');
  return files.map((f, i) => given[i] ?? f.replace(/^.*\//, '').replace(/\.jsonl$/, ''));
}

interface BatchRequest {
  id: unknown;
  file: string;
  call?: string;
  actions?: string[];
  breakpoints?: number[];
}

async function debugCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['call', 'json', 'actions', 'breakpoints', 'engine', 'batch', 'max-events', 'model', 'dtype']);
  const engineName = engineOption(args);
  const batch = stringOption(args, 'batch');
  const maxEvents = maxEventsOption(args);
  if (batch !== undefined) {
    if (args.positionals.length > 0) throw new UsageError('--batch takes no FILE');
    return batchCommand(batch, maxEvents, engineName, args, out);
  }
  const source = readProgram(fileArgument(args));
  const actions = parseStepList(stringOption(args, 'actions') ?? '');
  const breakpoints = parseLineList(stringOption(args, 'breakpoints'), '--breakpoints');
  const engine = await loadPythonHost();
  const rec = await recordOrThrow(engine, source, stringOption(args, 'call') ?? '', maxEvents);
  const rerun = rerunWith(engine, rec, maxEvents);
  if (engineName !== 'real') {
    const neural = await import('./neural');
    const model = await neural.modelFromArgs(args);
    const states = await neural.neuralDebugStates(model, rec, actions, breakpoints, engineName, rerun);
    out(args.options.has('json') ? jsonLine({ states }) : states.map((s) => jsonLine(s)).join('\n'));
    return 0;
  }
  const states = await debugStates(rec, actions, breakpoints, rerun);
  if (args.options.has('json')) out(jsonLine({ states }));
  else states.forEach((s, i) => out(oneLine(`${i === 0 ? 'start' : formatStep(actions[i - 1]!)}: ${stateText(s)}`)));
  warnIfCut(rec.exit.status, rec.exit.message);
  return 0;
}

async function batchCommand(path: string, maxEvents: number | undefined, engineName: EngineName, args: ParsedArgs, out: Out): Promise<number> {
  const text = readProgram(path);
  const engine = await loadPythonHost();
  const neural = engineName === 'real' ? undefined : await import('./neural');
  const model = neural ? await neural.modelFromArgs(args) : undefined;
  let failures = 0;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  for (const [i, line] of lines.entries()) {
    let id: unknown = null;
    try {
      const req = JSON.parse(line) as BatchRequest;
      id = req.id ?? null;
      if (typeof req.file !== 'string') throw new ProgramError('a request needs "file"');
      const actions: Step[] = (req.actions ?? []).map((a) => parseStep(String(a)));
      const breakpoints = (req.breakpoints ?? []).map(Number);
      // One program, one interpreter: a request's states never depend on what another's program did.
      const own = engine.forOwner(`batch request ${i}`);
      const rec = await recordOrThrow(own, readProgram(req.file), req.call ?? '', maxEvents);
      const rerun = rerunWith(own, rec, maxEvents);
      const states = neural && model && engineName !== 'real'
        ? await neural.neuralDebugStates(model, rec, actions, breakpoints, engineName, rerun)
        : await debugStates(rec, actions, breakpoints, rerun);
      out(jsonLine({ id, states }));
    } catch (err) {
      failures++;
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(`ndb: request ${i + 1}${id !== null ? ` (id ${JSON.stringify(id)})` : ''}: ${oneLine(message)}\n`);
      out(jsonLine({ id, error: message }));
    }
  }
  return failures > 0 ? 1 : 0;
}

function localsText(locals: Record<string, string>): string {
  return Object.entries(locals)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

function stateText(s: DebugState): string {
  if (s.event === 'entry') return 'entry';
  if (s.event === 'exit') return `exit (${s.status}${s.message ? `: ${s.message}` : ''})`;
  const edits = s.edits?.length ? `  [edited: ${s.edits.map((e) => `${e.name} = ${e.expr}`).join('; ')}]` : '';
  return `${s.event} ${s.function}:${s.line} ${localsText(s.locals)}${s.value !== undefined ? ` -> ${s.value}` : ''}${edits}`;
}

async function benchCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['json', 'model', 'dtype', 'programs', 'max-new-tokens', 'runs']);
  if (args.positionals.length > 0) throw new UsageError('bench takes no FILE');
  const count = (name: string): number | undefined => {
    const text = stringOption(args, name);
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
    return n;
  };
  const neural = await import('./neural');
  const { medianResult, runBench } = await import('./bench');
  const model = await neural.modelFromArgs(args);
  const json = args.options.has('json');
  const runs = [];
  for (let i = 0; i < (count('runs') ?? 1); i++) {
    runs.push(
      await runBench(model, {
        programs: count('programs'),
        maxNewTokens: count('max-new-tokens'),
        onState: (line) => {
          if (json) out(JSON.stringify(line));
        },
      }),
    );
  }
  if (json && runs.length > 1) for (const r of runs) out(JSON.stringify({ run: r }));
  const result = runs.length > 1 ? medianResult(runs) : runs[0]!;
  out(
    json
      ? JSON.stringify(result)
      : `${result.states} states: engine ${result.tokens_per_s} tok/s, bare session ${result.raw_tokens_per_s} tok/s (ratio ${result.ratio}), ` +
          `${result.ms_per_state} ms/state, prefill ${result.prefill_tokens_per_state} of ${result.prompt_tokens_per_state} prompt tokens per state`,
  );
  return 0;
}
