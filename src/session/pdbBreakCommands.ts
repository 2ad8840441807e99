// pdb's breakpoint commands (b, tbreak, cl, condition, disable, enable) over a live session: the
// numbered table (pdbBreakpoints.ts) checked against the program's files and handed to the
// session as breakpoint keys (core/location.ts) with conditions; a condition change records the
// run again (the tracer evaluates it). `b LINE` is a line of the file of the current stop, as in
// pdb; `b FILE:LINE` any file of the program; `b FUNCTION` (or `b module.FUNCTION`) finds the
// function in any of its modules.

import { lineKey, projectFileNames } from '../core/location';
import { sourceLines } from '../core/sourceLines';
import type { CodeInfo, Recording } from '../core/trace';
import { fileIndex, sourceOf } from './breakpointSpecs';
import type { LiveSession } from './liveSession';
import { BreakpointTable, type PdbBreakpoint } from './pdbBreakpoints';
import { PdbError, type BreakLocation } from './pdbCommands';
import { breakpointTable, line, type OutLine } from './pdbOutput';
import { oneLine } from '../core/terminalText';

export class BreakCommands {
  readonly table = new BreakpointTable();

  constructor(
    private readonly live: LiveSession,
    private readonly file: string,
    private readonly source: readonly string[],
    /** Heard after the session's breakpoints changed, with the recording before the change. */
    private readonly synced: (before: Recording) => void,
    /** The file of the current stop (its index among the program's files): a bare line is in it. */
    private readonly here: () => number = () => 0,
  ) {}

  /** The program's files, the main one first, by their names in the project. */
  private get names(): string[] {
    const p = this.live.program;
    return projectFileNames(p.main, p.files);
  }

  /** A file of the program as stops name it: the main file by the name it was started with. */
  fileName(index: number): string {
    return index === 0 ? this.file : (this.names[index] ?? this.file);
  }

  /** The source lines of a file of the program. */
  sourceOf(index: number): readonly string[] {
    return index === 0 ? this.source : sourceLines(sourceOf(this.live.program, index));
  }

  /** Hands the enabled breakpoints to the session. */
  async sync(): Promise<void> {
    const { lines, conditions } = this.table.effective();
    const before = this.live.recording;
    await this.live.setBreakpoints(lines, conditions);
    this.synced(before);
  }

  /** `b` alone lists them; else a breakpoint at a line or a function, with a condition. */
  async add(at: BreakLocation | undefined, temporary: boolean, condition: string | undefined, out: OutLine[]): Promise<void> {
    if (at === undefined) {
      out.push(...breakpointTable((b) => this.placeOf(b), this.table.all));
      return;
    }
    const { file, line: n } = this.lineOf(at);
    await this.checkCondition(condition);
    const bp = this.table.add(n, temporary, condition, file);
    try {
      await this.sync();
    } catch (err) {
      this.table.remove([bp]);
      throw err;
    }
    out.push(line(`Breakpoint ${bp.number} at ${this.placeOf(bp)}`));
    const lines = this.live.recording.program?.lines;
    if (file === 0 && lines && !lines.includes(n)) out.push(line(`(line ${n} holds no code that runs: it will not stop)`, 'note'));
  }

  /** `cl` by numbers or places; alone, all of them (pdb asks first; a pipe could not answer). */
  async clear(targets: readonly string[], out: OutLine[]): Promise<void> {
    const chosen = new Set<PdbBreakpoint>(targets.length === 0 ? this.table.all : []);
    for (const t of targets) {
      const place = /^(.+):(\d+)$/.exec(t);
      if (place) {
        const at = this.table.at(lineKey(this.checkFile(place[1]!), Number(place[2])));
        if (at.length === 0) throw new PdbError(`There is no breakpoint at ${t}`);
        at.forEach((b) => chosen.add(b));
      } else if (/^\d+$/.test(t)) chosen.add(this.numbered(Number(t)));
      else throw new PdbError(`Non-numeric breakpoint number ${t}`);
    }
    const gone = this.table.remove([...chosen]);
    await this.sync();
    for (const b of gone) out.push(line(`Deleted breakpoint ${b.number} at ${this.placeOf(b)}`));
  }

  async condition(number: number, condition: string | undefined, out: OutLine[]): Promise<void> {
    const b = this.numbered(number);
    await this.checkCondition(condition);
    const before = b.condition;
    if (condition === undefined) delete b.condition;
    else b.condition = condition;
    try {
      await this.sync();
    } catch (err) {
      if (before === undefined) delete b.condition;
      else b.condition = before;
      throw err;
    }
    out.push(line(condition === undefined ? `Breakpoint ${number} is now unconditional.` : `New condition set for breakpoint ${number}.`));
  }

  async enable(numbers: readonly number[], on: boolean, out: OutLine[]): Promise<void> {
    const bps = numbers.map((n) => this.numbered(n));
    for (const b of bps) b.enabled = on;
    await this.sync();
    for (const b of bps) out.push(line(`${on ? 'Enabled' : 'Disabled'} breakpoint ${b.number} at ${this.placeOf(b)}`));
  }

  /** After a breakpoint stop at `line`: the temporary breakpoints there are done (tbreak), unless
   * their condition raised there: bdb stops then without deleting one ("another hint to user"),
   * and it stops again the next time. */
  async hit(key: number): Promise<PdbBreakpoint[]> {
    if (this.live.recording.events[this.live.position]?.hit_error !== undefined) return [];
    const done = this.table.at(key).filter((b) => b.enabled && b.temporary);
    if (done.length === 0) return [];
    this.table.remove(done);
    await this.sync();
    return done;
  }

  placeOf(b: PdbBreakpoint): string {
    return `${oneLine(this.fileName(b.file))}:${b.line}`;
  }

  private numbered(n: number): PdbBreakpoint {
    const b = this.table.byNumber(n);
    if (!b) throw new PdbError(`No breakpoint numbered ${n}`);
    return b;
  }

  /** The index of a file of the program as written (`pricing.py`, `pkg/util.py`; the main file
   * also by the name it was started with or its last part). */
  private checkFile(written: string): number {
    const name = written.trim();
    if (name === this.file || baseName(name) === baseName(this.file) && !this.names.slice(1).includes(name)) return 0;
    const index = fileIndex(this.live.program, name);
    if (typeof index === 'string') {
      const names = [this.file, ...this.names.slice(1)];
      throw new PdbError(`${name} is not a Python file of this program (its files: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''})`);
    }
    return index;
  }

  /** As pdb's checkline: a line with code (a blank line, a comment or a docstring is refused),
   * in the file given, else in the current stop's file. */
  private lineOf(at: BreakLocation): { file: number; line: number } {
    if (at.name !== undefined) return this.functionLine(at.name);
    const file = at.file !== undefined ? this.checkFile(at.file) : this.here();
    const source = this.sourceOf(file);
    const n = at.line!;
    const text = source[n - 1];
    if (text === undefined) throw new PdbError(`End of file: ${this.fileName(file)} has ${source.length} lines`);
    const t = text.trim();
    if (t === '' || t.startsWith('#') || t.startsWith('"""') || t.startsWith("'''")) throw new PdbError('Blank or comment');
    return { file, line: n };
  }

  /** `b NAME` (or `b module.NAME`): the first line of the function's body that runs, in the
   * current stop's file first, then the main file, then the program's other modules. */
  private functionLine(written: string): { file: number; line: number } {
    // a method by its qualified name, as the stack shows it (`b Frozen.rate`), in any file
    const qualified = this.firstBodyLine((code) => code.qualname === written, [...new Set([this.here(), 0, ...this.names.map((_, i) => i)])]);
    if (qualified) return qualified;
    const dot = written.lastIndexOf('.');
    const name = dot >= 0 ? written.slice(dot + 1) : written;
    let files: number[];
    if (dot >= 0) {
      const module = written.slice(0, dot);
      const index = this.names.findIndex((f, i) => f.replace(/\.py$/, '').split('/').join('.') === module || (i === 0 && baseName(this.file).replace(/\.py$/, '') === module));
      if (index < 0) throw new PdbError(`no module ${module} in this program (its files: ${this.names.join(', ')})`);
      files = [index];
    } else files = [...new Set([this.here(), 0, ...this.names.map((_, i) => i)])];
    const found = this.firstBodyLine((code) => code.name === name, files);
    if (found) return found;
    throw new PdbError(`no function named ${name} ${dot >= 0 ? `in ${this.fileName(files[0]!)}` : 'in the program'} that ran (b FILE:LINE sets one at a line)`);
  }

  /** The first line of the body that runs of the first code `wanted` takes, in `files` in order. */
  private firstBodyLine(wanted: (code: CodeInfo) => boolean, files: readonly number[]): { file: number; line: number } | null {
    const rec = this.live.recording;
    for (const file of files) {
      const source = this.sourceOf(file);
      for (const code of rec.codes) {
        if (!wanted(code) || (code.file ?? 0) !== file) continue;
        const body = [...code.lines].sort((a, b) => a - b).find((l) => l > code.firstline && !HEADER.test(source[l - 1] ?? ''));
        if (body !== undefined) return { file, line: body };
      }
    }
    return null;
  }

  private async checkCondition(condition: string | undefined): Promise<void> {
    if (condition === undefined) return;
    const bad = await this.live.host.expressionError(condition);
    if (bad) throw new PdbError(`the condition is not a Python expression: ${bad}`);
  }
}

const HEADER = /^\s*(?:@|(?:async\s+)?def\s|class\s)/;

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
