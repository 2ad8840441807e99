// Breakpoints as the faces take them — a file (default the main one), a line, a condition and a
// hit count — checked against the program's files and turned into the session's breakpoint keys
// (core/location.ts). A file that is not the program's, a line without code or a condition that
// does not parse is reported (verified: false, with why) and not set, never accepted silently.

import { isAbsolute, relative, sep } from 'node:path';
import { eventKey, keyLocation, lineKey, projectFileNames } from '../core/location';
import type { BreakCondition } from '../core/navigator';
import type { Recording } from '../core/trace';
import type { PythonHost } from '../realEngine/engineProtocol';
import { own } from '../core/names';

export interface BreakpointSpec {
  /** Relative to the program's folder, or an absolute path inside it; absent: the main file. */
  file?: string;
  line: number;
  condition?: string;
  hitCount?: number;
}

export interface BreakpointAnswer {
  file: string;
  line: number;
  verified: boolean;
  message?: string;
  /** The error its condition raised in the run (it then stops, as bdb does). */
  condition_error?: string;
}

export interface ResolvedBreakpoints {
  keys: number[];
  conditions: Map<number, BreakCondition>;
  report: BreakpointAnswer[];
}

/** The program's files as the breakpoints see them: the main file first (its name and source),
 * the other modules by their names relative to `folder`. */
export interface ProgramFiles {
  main: string;
  source: string;
  files?: Readonly<Record<string, string>>;
  folder?: string;
}

function programFileNames(program: ProgramFiles): string[] {
  return projectFileNames(program.main, program.files);
}

/** The index of `file` among the program's files, or an error message. */
export function fileIndex(program: ProgramFiles, file: string | undefined): number | string {
  const names = programFileNames(program);
  if (file === undefined || file === '') return 0;
  let name = file.split(sep).join('/');
  if (isAbsolute(file) && program.folder) name = relative(program.folder, file).split(sep).join('/');
  name = name.replace(/^\.\//, '');
  const index = names.indexOf(name);
  if (index >= 0) return index;
  return `${file} is not a Python file of this program (its files: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})`;
}

/** The source of the program's file `index` (0: the main file). */
export function sourceOf(program: ProgramFiles, index: number): string {
  return index === 0 ? program.source : (own(program.files, programFileNames(program)[index]!) ?? '');
}

export function summarizeLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 40).join(', ');
  return lines.length > 40 ? `${shown}, …` : shown;
}

export async function resolveBreakpoints(host: PythonHost, program: ProgramFiles, given: readonly BreakpointSpec[]): Promise<ResolvedBreakpoints> {
  const names = programFileNames(program);
  const out: ResolvedBreakpoints = { keys: [], conditions: new Map(), report: [] };
  const codeLines = new Map<number, Awaited<ReturnType<PythonHost['codeLines']>>>();
  for (const { file, line, condition, hitCount } of given) {
    const index = fileIndex(program, file);
    const shownFile = typeof index === 'number' ? names[index]! : (file ?? program.main);
    let message: string | undefined;
    if (typeof index === 'string') message = index;
    else {
      if (!codeLines.has(index)) codeLines.set(index, await host.codeLines(sourceOf(program, index)));
      const info = codeLines.get(index)!;
      const total = sourceOf(program, index).split('\n').length;
      if ('error' in info) message = `${shownFile} does not compile: ${info.error} (line ${info.line})`;
      else if (line > total) message = `line ${line} is past the end of ${shownFile} (${total} lines)`;
      else if (!info.lines.includes(line)) message = `line ${line} of ${shownFile} has no code (lines with code: ${summarizeLines(info.lines)})`;
      else if (condition !== undefined && condition.trim() !== '') {
        const error = await host.expressionError(condition);
        if (error) message = `the condition is not a Python expression: ${error}`;
      }
    }
    if (message || typeof index === 'string') {
      out.report.push({ file: shownFile, line, verified: false, message: message ?? 'not set' });
      continue;
    }
    out.report.push({ file: shownFile, line, verified: true });
    const key = lineKey(index, line);
    if (!out.keys.includes(key)) out.keys.push(key);
    const c: BreakCondition = {};
    if (condition !== undefined && condition.trim() !== '') c.condition = condition;
    if (hitCount !== undefined) c.hitCount = hitCount;
    if (c.condition !== undefined || c.hitCount !== undefined) out.conditions.set(key, c);
  }
  return out;
}

/** The first error each breakpoint's condition raised in a run, by key. */
export function conditionErrors(rec: Recording): Map<number, string> {
  const errors = new Map<number, string>();
  for (const e of rec.events) {
    if (e.hit_error === undefined) continue;
    const key = eventKey(rec, e);
    if (!errors.has(key)) errors.set(key, e.hit_error);
  }
  return errors;
}

/** The report with each verified breakpoint's condition error in `rec`, if its condition raised. */
export function withConditionErrors(report: readonly BreakpointAnswer[], program: ProgramFiles, rec: Recording): BreakpointAnswer[] {
  const errors = conditionErrors(rec);
  if (errors.size === 0) return [...report];
  return report.map((b) => {
    const index = fileIndex(program, b.file);
    const error = b.verified && typeof index === 'number' ? errors.get(lineKey(index, b.line)) : undefined;
    return error ? { ...b, condition_error: error } : b;
  });
}

/** A breakpoint key as the faces show it. */
export function breakpointLocation(program: ProgramFiles, key: number): { file: string; line: number } {
  return keyLocation(programFileNames(program), key);
}

/** Breakpoint keys without checking lines (the CLI's `--actions` runs, as pdb's `break` would
 * take them); a file that is not the program's throws. */
export function breakpointKeys(program: ProgramFiles, specs: ReadonlyArray<{ file?: string; line: number }>): number[] {
  return specs.map(({ file, line }) => {
    const index = fileIndex(program, file);
    if (typeof index === 'string') throw new RangeError(index);
    return lineKey(index, line);
  });
}
