// The program as the user edits it: the code, the call, the input its input() calls read, the
// example it came from, the breakpoints (with their conditions) and the watch expressions. No engine here: the debugger reads it when it
// records, the share link reads and writes it.

import type { BreakCondition } from '../core/navigator';
import type { Example } from './examples';
import type { SharedState } from './shareLink';

/** A watch expression; `error` when it is not a Python expression (it is then left out of runs). */
export interface WatchItem {
  expr: string;
  error?: string;
}

export class Program {
  source = $state('');
  call = $state('');
  /** What input() reads: one line per call (the Input field). */
  input = $state('');
  exampleId = $state('');
  breakpoints = $state<number[]>([]);
  /** Conditions and hit counts of breakpoints, by line. */
  conditions = $state<Record<number, BreakCondition>>({});
  /** Watch expressions, in the order they were added. */
  watches = $state<WatchItem[]>([]);

  readonly examples: readonly Example[];

  constructor(examples: readonly Example[]) {
    this.examples = examples;
  }

  /** Shows a gallery example (its breakpoints and conditions cleared); false when there is none
   * with that id. */
  selectExample(id: string): boolean {
    const ex = this.examples.find((e) => e.id === id);
    if (!ex) return false;
    this.exampleId = ex.id;
    this.source = ex.source;
    this.call = ex.call;
    this.input = '';
    this.forgetLines();
    return true;
  }

  /** A new program: breakpoints, conditions and watches belonged to the old one. */
  forgetLines(): void {
    this.breakpoints = [];
    this.conditions = {};
    this.watches = [];
  }

  /** Whether a breakpoint can go on `line`: it holds code (not blank, not only a comment), as pdb
   * refuses a breakpoint on a blank or comment line. */
  isCodeLine(line: number): boolean {
    const text = this.source.split('\n')[line - 1];
    if (text === undefined) return false;
    const t = text.trim();
    return t !== '' && !t.startsWith('#');
  }

  /** False when the text is the same (the editor reports its own echo). */
  setSource(text: string): boolean {
    if (text === this.source) return false;
    this.source = text;
    this.exampleId = '';
    return true;
  }

  setCall(text: string): void {
    this.call = text;
  }

  setInput(text: string): void {
    this.input = text;
  }

  /** Returns the lines whose conditions went with their breakpoint, or null when `line` holds no
   * code (nothing changes then). */
  toggleBreakpoint(line: number): number[] | null {
    if (!this.breakpoints.includes(line) && !this.isCodeLine(line)) return null;
    this.breakpoints = this.breakpoints.includes(line)
      ? this.breakpoints.filter((l) => l !== line)
      : [...this.breakpoints, line].sort((a, b) => a - b);
    return this.dropStaleConditions();
  }

  /** The editor moved breakpoints along with edited lines. Null when nothing changed, else the
   * lines whose conditions went with their breakpoint. */
  setBreakpoints(lines: number[]): number[] | null {
    const next = [...new Set(lines)].sort((a, b) => a - b);
    if (next.join(',') === this.breakpoints.join(',')) return null;
    this.breakpoints = next;
    return this.dropStaleConditions();
  }

  addBreakpoint(line: number): void {
    if (!this.breakpoints.includes(line)) this.breakpoints = [...this.breakpoints, line].sort((a, b) => a - b);
  }

  /** A removed breakpoint takes its condition with it. */
  private dropStaleConditions(): number[] {
    const lines = Object.keys(this.conditions).map(Number);
    const stale = lines.filter((l) => !this.breakpoints.includes(l));
    if (stale.length === 0) return [];
    const next: Record<number, BreakCondition> = {};
    for (const l of lines) if (this.breakpoints.includes(l)) next[l] = this.conditions[l]!;
    this.conditions = next;
    return stale;
  }

  /** The watch expressions a run evaluates (those that parse, in order). */
  get runnableWatches(): string[] {
    return this.watches.filter((w) => !w.error).map((w) => w.expr);
  }

  /** The conditions a run evaluates: line → Python expression. */
  get runnableConditions(): Record<number, string> {
    const out: Record<number, string> = {};
    for (const [line, c] of Object.entries(this.conditions)) if (c.condition) out[Number(line)] = c.condition;
    return out;
  }

  /** Shows what a link carries. True when it is a gallery example, call included: the app's own
   * code. */
  load(shared: SharedState): boolean {
    this.source = shared.source;
    this.call = shared.call;
    this.input = shared.input;
    this.breakpoints = shared.breakpoints;
    this.conditions = shared.conditions;
    this.watches = shared.watches.map((expr) => ({ expr }));
    this.exampleId = this.examples.find((e) => e.source === shared.source && e.call === shared.call)?.id ?? '';
    return this.exampleId !== '';
  }
}
