// `ndb eval` and `ndb bench`: the options read, the files read, the reports printed. The
// evaluations themselves are src/eval's.

import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Reliability } from '../core/confidence';
import { medianResult, runBench } from '../eval/bench';
import { calibrate, withCalibration, type EvalSet } from '../eval/calibrate';
import { evalCruxeval, type CruxQuestion } from '../eval/cruxeval';
import { evalEarlyStop } from '../eval/earlyStop';
import { evalJumpsClass, evalJumpsCrux, evalJumpsTrajectories, programsOf } from '../eval/jumps';
import { COMPOSED_KINDS } from '../neuralEngine/composeJump';
import type { CruxItem, EvalItem, OnProgress } from '../eval/items';
import { reliabilitySvg } from '../eval/reliabilitySvg';
import { examplePrograms, readJsonl, setLabels } from '../eval/setFiles';
import { evalTrajectories, type DecoderVariant } from '../eval/trajectories';
import { evalVariants } from '../eval/variants';
import type { HfConfig, ModelDtype } from '../neuralEngine/modelConfig';
import type { DecoderKind } from '../neuralEngine/neuralSession';
import { defaultModelDir, loadNodeModel, type LoadedModel } from '../neuralEngine/nodeModel';
import { loadPythonHost } from '../realEngine/pythonHost';
import { checkKnown, stringOption, UsageError, type ParsedArgs } from './args';
import { modelFromArgs } from './model';
import { Progress } from './progress';

type Out = (line: string) => void;

export async function evalCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['json', 'model', 'dtype', 'limit', 'task', 'action', 'verify', 'label', 'decoder', 'write', 'svg', 'max-steps', 'frame-names']);
  const [kind, file, ...extra] = args.positionals;
  if (!file || (extra.length > 0 && kind !== 'trajectories' && kind !== 'calibrate')) throw new UsageError('expected: ndb eval trajectories|calibrate|cruxeval|jumps|early-stop|variants FILE');
  const limitText = stringOption(args, 'limit');
  const limit = limitText === undefined ? undefined : Number(limitText);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new UsageError('--limit must be a positive integer');
  const files = [file, ...extra];
  switch (kind) {
    case 'trajectories':
      return trajectoriesCommand(args, files, limit, out);
    case 'calibrate': {
      const labels = setLabels(files, stringOption(args, 'label'));
      const model = await modelFromArgs(args);
      const engine = await loadPythonHost();
      // each file read when its turn comes, as `eval trajectories` reads them
      const sets = function* (): Generator<EvalSet> {
        for (const path of files) {
          const items = readJsonl<EvalItem>(path, limit);
          yield { items, onProgress: progressBar('eval', items.length) };
        }
      };
      const result = await calibrate(model, engine, sets(), labels);
      if (args.options.has('write')) {
        const path = join(model.dir, 'config.json');
        const config = JSON.parse(readFileSync(path, 'utf8')) as HfConfig;
        writeFileSync(path, `${JSON.stringify(withCalibration(config, model.dtype, result.calibration), null, 2)}\n`);
        result.written = path;
      }
      out(JSON.stringify(result));
      return 0;
    }
    case 'early-stop': {
      const [label] = setLabels([file], stringOption(args, 'label'));
      const model = await modelFromArgs(args);
      const items = readJsonl<EvalItem>(file, limit);
      const engine = await loadPythonHost();
      out(JSON.stringify(await evalEarlyStop(model, engine, items, label!, progressBar('early-stop', items.length))));
      return 0;
    }
    case 'cruxeval':
      return cruxevalCommand(args, file, limit, out);
    case 'jumps': {
      // a CruxEval file (its items have `code`) or trajectories
      const maxText = stringOption(args, 'max-steps') ?? '30';
      const maxSteps = Number(maxText);
      if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new UsageError('--max-steps must be a positive integer');
      // --action: step_return (the default, as before), step_over, continue or all (issue 45 item 5)
      const actionText = stringOption(args, 'action') ?? 'step_return';
      const actions = actionText === 'all' ? COMPOSED_KINDS : [actionText];
      if (!actions.every((a) => (COMPOSED_KINDS as readonly string[]).includes(a))) throw new UsageError('--action must be step_return, step_over, continue or all');
      const model = await modelFromArgs(args);
      const engine = await loadPythonHost();
      const items = readJsonl<CruxItem | EvalItem>(file, limit);
      const crux = items.length > 0 && items.every((i) => 'code' in i);
      if (crux) {
        if (actionText !== 'step_return') throw new UsageError('a CruxEval file asks step outs only (--action step_return)');
        const report = await evalJumpsCrux(model, engine, items as CruxItem[], maxSteps, progressBar('jumps', items.length));
        out(JSON.stringify({ file, kind: 'cruxeval output', action: 'step_return', ...report }));
        return 0;
      }
      const trajectories = items as EvalItem[];
      for (const action of actions) {
        if (action === 'step_return' || action === 'step_over') {
          const report = await evalJumpsTrajectories(model, engine, trajectories, maxSteps, progressBar(`jumps ${action}`, items.length), action);
          out(JSON.stringify({ file, kind: 'trajectories', action, source: 'trajectories', ...report }));
        }
        if (action === 'step_over' || action === 'continue') {
          const programs = programsOf(trajectories).length;
          const report = await evalJumpsClass(model, engine, trajectories, action, maxSteps, progressBar(`jumps ${action} (class)`, programs));
          out(JSON.stringify({ file, kind: 'trajectories', action, source: 'class', ...report }));
        }
      }
      return 0;
    }
    case 'variants': {
      const dtypes = (stringOption(args, 'dtype') ?? 'fp32,int8,q4').split(',') as ModelDtype[];
      const dir = stringOption(args, 'model') ?? defaultModelDir();
      // read as it always was: without readJsonl's usage errors, the limit taken before parsing
      const items = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).slice(0, limit ?? 30).map((l) => JSON.parse(l) as EvalItem);
      const engine = await loadPythonHost();
      const base = await loadNodeModel(dir, 'fp32');
      const variants: LoadedModel[] = [];
      for (const d of dtypes) variants.push(d === 'fp32' ? base : await loadNodeModel(dir, d));
      for (const r of await evalVariants(base, variants, engine, items, progressBar('variants', items.length))) out(JSON.stringify(r));
      return 0;
    }
    default:
      throw new UsageError(`unknown evaluation '${kind ?? ''}': trajectories, calibrate, cruxeval, jumps, early-stop or variants`);
  }
}

async function trajectoriesCommand(args: ParsedArgs, files: readonly string[], limit: number | undefined, out: Out): Promise<number> {
  const labels = setLabels(files, stringOption(args, 'label'));
  const model = await modelFromArgs(args);
  const decoderText = stringOption(args, 'decoder') ?? 'constrained';
  const decoders: string[] = decoderText === 'both' ? ['greedy', 'constrained'] : [decoderText];
  const known = (d: string): d is DecoderKind => d === 'greedy' || d === 'constrained';
  if (!decoders.every(known)) throw new UsageError('--decoder must be constrained, greedy or both');
  // --frame-names off|both: the constrained decoder without the frame's names too (issue 45 item 4)
  const frameText = stringOption(args, 'frame-names') ?? 'on';
  if (frameText !== 'on' && frameText !== 'off' && frameText !== 'both') throw new UsageError('--frame-names must be on, off or both');
  const frames = frameText === 'both' ? [true, false] : [frameText === 'on'];
  const variants: DecoderVariant[] = decoders.filter(known).flatMap((decoder): DecoderVariant[] => (decoder === 'constrained' ? frames.map((frameNames) => ({ decoder, frameNames })) : [{ decoder }]));
  const curves: { label: string; reliability: Reliability }[] = [];
  for (const [i, path] of files.entries()) {
    const items = readJsonl<EvalItem>(path, limit);
    const engine = await loadPythonHost();
    const { reports } = await evalTrajectories(model, engine, items, variants, progressBar('eval', items.length));
    for (const report of reports) {
      out(JSON.stringify({ set: labels[i], file: path, ...report }));
      if (report.confidence) curves.push({ label: labels[i]!, reliability: report.confidence.state });
    }
  }
  const svg = stringOption(args, 'svg');
  if (svg !== undefined) writeFileSync(svg, reliabilitySvg(curves, `${basename(model.dir)} (${model.dtype}): whole states`));
  return 0;
}

async function cruxevalCommand(args: ParsedArgs, file: string, limit: number | undefined, out: Out): Promise<number> {
  const task = stringOption(args, 'task');
  if (task !== 'output' && task !== 'input') throw new UsageError('--task must be output or input');
  const action = stringOption(args, 'action') ?? (task === 'output' ? 'step_return' : 'inv_step_call');
  let question: CruxQuestion;
  if (task === 'output') {
    if (action !== 'step_return' && action !== 'breakpoint') throw new UsageError('--action must be step_return or breakpoint');
    if (stringOption(args, 'verify') !== undefined) throw new UsageError('--verify K checks input prediction (--task input): an output is compared, not run');
    question = { task, action };
  } else {
    if (action !== 'inv_step_call') throw new UsageError('input prediction uses inv_step_call');
    const verifyText = stringOption(args, 'verify');
    const verify = verifyText === undefined ? 0 : Number(verifyText);
    if (verifyText !== undefined && (!Number.isInteger(verify) || verify < 1 || verify > 64)) throw new UsageError('--verify K: K calls to check, 1 to 64');
    question = { task, ...(verify > 0 ? { verify } : {}) };
  }
  const model = await modelFromArgs(args);
  const json = args.options.has('json');
  const items = readJsonl<CruxItem>(file, limit);
  const engine = await loadPythonHost();
  const bar = new Progress(items.length, `cruxeval-${task[0]}`);
  const result = await evalCruxeval(model, engine, items, question, (item, sofar) => {
    if (json) out(JSON.stringify(item));
    bar.update(sofar.done, `pass@1 ${(sofar.passed / sofar.done).toFixed(3)}`);
  });
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const trivial = Object.entries(result.baselines)
    .map(([name, b]) => `${name.replace(/_/g, ' ')} ${pct((b as { pass_at_1: number }).pass_at_1)}`)
    .join(', ');
  const checked = result.verified ? `; with the checker (up to ${result.verified.k} calls run, ${result.verified.calls_run} in all): ${result.verified.passed}/${result.n} = ${pct(result.verified.pass_with_checker)}` : '';
  out(json ? JSON.stringify(result) : `CruxEval-${task === 'output' ? 'O' : 'I'} (${result.action}): ${result.passed}/${result.n} = ${pct(result.pass_at_1)}${checked} (baselines: ${trivial})`);
  return 0;
}

export async function benchCommand(args: ParsedArgs, out: Out): Promise<number> {
  checkKnown(args, ['json', 'model', 'dtype', 'programs', 'max-new-tokens', 'runs']);
  if (args.positionals.length > 0) throw new UsageError('bench takes no FILE');
  const count = (name: string): number | undefined => {
    const text = stringOption(args, name);
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
    return n;
  };
  const model = await modelFromArgs(args);
  const json = args.options.has('json');
  const runCount = count('runs') ?? 1;
  const programs = examplePrograms().slice(0, count('programs') ?? 6);
  const maxNewTokens = count('max-new-tokens');
  const engine = await loadPythonHost();
  const runs = [];
  for (let i = 0; i < runCount; i++) {
    runs.push(
      await runBench(model, engine, programs, {
        maxNewTokens,
        onState: (state) => {
          if (json) out(JSON.stringify(state));
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

/** A progress bar on stderr, started now. */
function progressBar(label: string, total: number): OnProgress {
  const bar = new Progress(total, label);
  return (done) => bar.update(done);
}
