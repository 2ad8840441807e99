// pdb's breakpoint commands (b, tbreak, cl, condition, disable, enable) over a live session: the
// numbered table (pdbBreakpoints.ts) checked against the program and handed to the session as
// lines with conditions; a condition change records the run again (the tracer evaluates it).

import type { Recording } from '../core/trace';
import type { LiveSession } from './liveSession';
import { BreakpointTable, type PdbBreakpoint } from './pdbBreakpoints';
import { PdbError, type BreakLocation } from './pdbCommands';
import { functionFirstLine } from './pdbMoves';
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
  ) {}

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
      out.push(...breakpointTable(this.file, this.table.all));
      return;
    }
    const n = this.lineOf(at);
    await this.checkCondition(condition);
    const bp = this.table.add(n, temporary, condition);
    try {
      await this.sync();
    } catch (err) {
      this.table.remove([bp]);
      throw err;
    }
    out.push(line(`Breakpoint ${bp.number} at ${this.placeOf(bp)}`));
    const lines = this.live.recording.program?.lines;
    if (lines && !lines.includes(n)) out.push(line(`(line ${n} holds no code that runs: it will not stop)`, 'note'));
  }

  /** `cl` by numbers or places; alone, all of them (pdb asks first; a pipe could not answer). */
  async clear(targets: readonly string[], out: OutLine[]): Promise<void> {
    const chosen = new Set<PdbBreakpoint>(targets.length === 0 ? this.table.all : []);
    for (const t of targets) {
      const place = /^(.+):(\d+)$/.exec(t);
      if (place) {
        this.checkFile(place[1]!);
        const at = this.table.at(Number(place[2]));
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

  /** After a breakpoint stop at `line`: the temporary breakpoints there are done (tbreak). */
  async hit(lineNumber: number): Promise<PdbBreakpoint[]> {
    const done = this.table.at(lineNumber).filter((b) => b.enabled && b.temporary);
    if (done.length === 0) return [];
    this.table.remove(done);
    await this.sync();
    return done;
  }

  placeOf(b: PdbBreakpoint): string {
    return `${oneLine(this.file)}:${b.line}`;
  }

  private numbered(n: number): PdbBreakpoint {
    const b = this.table.byNumber(n);
    if (!b) throw new PdbError(`No breakpoint numbered ${n}`);
    return b;
  }

  private checkFile(written: string): void {
    // one program, one file: a path names it when its last part does
    if (written !== this.file && baseName(written) !== baseName(this.file)) throw new PdbError(`ndb debugs one file, ${this.file}: ${written} is not it`);
  }

  /** As pdb's checkline: a line with code (a blank line, a comment or a docstring is refused). */
  private lineOf(at: BreakLocation): number {
    if (at.file !== undefined) this.checkFile(at.file);
    if (at.name !== undefined) {
      const l = functionFirstLine(this.live.recording, this.source, at.name);
      if (l === null) throw new PdbError(`no function named ${at.name} in ${this.file}`);
      return l;
    }
    const n = at.line!;
    const text = this.source[n - 1];
    if (text === undefined) throw new PdbError(`End of file: ${this.file} has ${this.source.length} lines`);
    const t = text.trim();
    if (t === '' || t.startsWith('#') || t.startsWith('"""') || t.startsWith("'''")) throw new PdbError('Blank or comment');
    return n;
  }

  private async checkCondition(condition: string | undefined): Promise<void> {
    if (condition === undefined) return;
    const bad = await this.live.host.expressionError(condition);
    if (bad) throw new PdbError(`the condition is not a Python expression: ${bad}`);
  }
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
