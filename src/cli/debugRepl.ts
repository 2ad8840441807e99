// `ndb debug FILE` with no --actions: pdb's prompt on the terminal, or on a pipe as pdb reads one.
// Only the terminal is here (lines in, colour out, Ctrl-C); the commands are src/session/promptSession.ts.

import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { oneLine } from '../core/terminalText';
import { loadPythonHost } from '../realEngine/pythonHost';
import { PromptSession, type OutLine } from '../session/promptSession';
import type { Style } from '../session/pdbOutput';
import type { ExceptionMode } from '../session/exceptionStops';
import type { ProgramRun } from '../session/programSession';
import type { Project } from '../session/projectFiles';
import { breakpointKeys } from '../session/breakpointSpecs';
import { parseBreakpointList, stringOption, UsageError, type ParsedArgs } from './args';
import { CLI_LIMIT_OPTIONS, limitsFromArgs } from './limitOptions';

/** `--breakpoints 12,pricing.py:7`: lines of FILE, or FILE:LINE of another file of the program,
 * as the session's breakpoint keys (core/location.ts). */
function breakpointKeysOf(specs: ReadonlyArray<{ file?: string; line: number }>, project: Project): number[] {
  try {
    return breakpointKeys(
      { main: project.main, source: project.source, files: project.files },
      specs.map(({ file, line }) => (file !== undefined && file === project.main ? { line } : { ...(file !== undefined ? { file } : {}), line })),
    );
  } catch (err) {
    throw new UsageError(`--breakpoints: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const SGR: Partial<Record<Style, string>> = { location: '1', source: '36', error: '31', note: '2', good: '32', bad: '31' };

export async function debugRepl(args: ParsedArgs, file: string, project: Project, run: ProgramRun, exceptions: ExceptionMode): Promise<number> {
  const source = project.source;
  const engine = (stringOption(args, 'engine') ?? 'real') as 'real' | 'neural' | 'both';
  const loadModel = async () => {
    const { modelFromArgs } = await import('./model');
    return { predictor: (await modelFromArgs(args)).predictor };
  };
  const host = await loadPythonHost();
  const { session, lines } = await PromptSession.open(host, source, {
    engine,
    file: basename(file),
    exceptions,
    call: stringOption(args, 'call') ?? '',
    breakpoints: breakpointKeysOf(parseBreakpointList(stringOption(args, 'breakpoints')), project),
    ...(engine === 'real' ? { loadModel } : { model: await loadModel() }),
    limits: { ...run, ...limitsFromArgs(args) },
    limitOptions: CLI_LIMIT_OPTIONS,
  });
  const out = process.stdout;
  // NO_COLOR (no-color.org): present and not empty turns colour off
  const colour = out.isTTY === true && !process.env.NO_COLOR;
  const print = (ls: readonly OutLine[]) => {
    for (const l of ls) out.write(`${colour && SGR[l.style] ? `\x1b[${SGR[l.style]}m${l.text}\x1b[0m` : l.text}\n`);
  };
  print(lines);
  const terminal = process.stdin.isTTY === true && out.isTTY === true;
  const rl = createInterface({ input: process.stdin, output: out, terminal, prompt: '(ndb) ', historySize: 1000, removeHistoryDuplicates: true });
  const input = rl[Symbol.asyncIterator]();
  // Commands run one after another; Ctrl-C gives the prompt back at once, and what was running
  // (a run of the program, bounded by its time limit, or the model) finishes before the next one.
  let queue: Promise<unknown> = Promise.resolve();
  let running: AbortController | null = null;
  const interrupt = () => {
    // while a command runs the cursor is already on a line of its own
    out.write(running ? '--KeyboardInterrupt--\n' : '\n--KeyboardInterrupt--\n');
    if (running) running.abort();
    else rl.prompt();
  };
  rl.on('SIGINT', interrupt);
  process.on('SIGINT', interrupt);
  try {
    for (;;) {
      rl.prompt();
      const next = await input.next();
      if (next.done) {
        await queue;
        out.write('\n');
        print(session.summary());
        return 0;
      }
      // a terminal echoes what is typed; a pipe's commands are echoed here, so that the transcript
      // reads as a session and a value stands alone on its line
      if (!terminal) out.write(`${oneLine(next.value)}\n`);
      const controller = (running = new AbortController());
      const work = queue.then(() => session.run(next.value, controller.signal));
      queue = work.catch(() => undefined);
      const stopped = new Promise<null>((resolve) => controller.signal.addEventListener('abort', () => resolve(null)));
      const reply = await Promise.race([work, stopped]);
      running = null;
      if (reply === null) continue;
      print(reply.lines);
      if (reply.quit) return 0;
    }
  } finally {
    process.off('SIGINT', interrupt);
    rl.close();
  }
}
