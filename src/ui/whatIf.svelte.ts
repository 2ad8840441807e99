// What-if debugging in the app: a local edited at a stop, breakpoint conditions and watch
// expressions. Each one runs the program again (through the debugger) and is refused with a
// message, the session unchanged, when it cannot be made.

import type { BreakCondition } from '../core/navigator';
import type { Edit } from '../core/whatIf';
import type { LiveSession } from '../session/liveSession';
import type { Debugger } from './debugger.svelte';
import type { Program, WatchItem } from './program.svelte';

export class WhatIf {
  /** A what-if message (a bad edit, condition or watch), shown as an alert until the next action. */
  error = $state<string | null>(null);

  private readonly program: Program;
  private readonly debug: Debugger;

  constructor(program: Program, debug: Debugger) {
    this.program = program;
    this.debug = debug;
  }

  /** `name = expr` at the current stop. The program runs again with the assignment made in the
   * live frame; a bad edit leaves the session as it was, with a message. */
  async edit(name: string, expr: string): Promise<boolean> {
    this.error = null;
    if (this.debug.dirty) {
      this.error = 'The code or the call changed since the program ran: press Restart before editing a value.';
      return false;
    }
    return this.debug.whileBusy(async () => {
      try {
        await this.debug.edit(name, expr);
        return true;
      } catch (err) {
        this.fail('The edit could not be made', err);
        return false;
      }
    });
  }

  /** An attempt to edit where nothing can be edited (the entry, the exit, a return value). */
  cannotEdit(reason: string): void {
    this.error = `The edit could not be made: ${reason}`;
  }

  /** Sets (or with an empty condition and a hit count ≤ 1, clears) a breakpoint's condition; the
   * program runs again so that the recording knows where it holds. False (with a message) when
   * the condition is not a Python expression. */
  setCondition(line: number, condition: BreakCondition | undefined): Promise<boolean> {
    return this.debug.whileBusy(() => this.applyCondition(line, condition));
  }

  private async applyCondition(line: number, condition: BreakCondition | undefined): Promise<boolean> {
    this.error = null;
    const text = condition?.condition?.trim() ?? '';
    const hitCount = condition?.hitCount !== undefined && Number.isFinite(condition.hitCount) ? Math.max(1, Math.floor(condition.hitCount)) : 1;
    const next: BreakCondition | undefined = text || hitCount > 1 ? { ...(text ? { condition: text } : {}), ...(hitCount > 1 ? { hitCount } : {}) } : undefined;
    if (text) {
      const bad = await this.debug.connection.syntaxError(text);
      if (bad) {
        this.error = `The condition \`${text}\` is not a Python expression: ${bad}`;
        return false;
      }
    }
    const conditions = { ...this.program.conditions };
    if (next) conditions[line] = next;
    else delete conditions[line];
    if (next) this.program.addBreakpoint(line);
    const before = this.program.conditions;
    this.program.conditions = conditions;
    if (!this.debug.canRerecord) return true;
    // the session takes the conditions back itself when the run fails
    const ok = await this.rerecord('The condition could not be set', () => this.debug.applyConditions());
    if (!ok) this.program.conditions = before;
    return ok;
  }

  /** Adds a watch expression (trimmed, not empty); the program runs again to evaluate it at every stop. */
  addWatch(text: string): Promise<boolean> {
    return this.debug.whileBusy(() => this.addWatchNow(text));
  }

  private async addWatchNow(text: string): Promise<boolean> {
    this.error = null;
    if (this.program.watches.some((w) => w.expr === text)) {
      this.error = `\`${text}\` is watched already.`;
      return false;
    }
    const bad = await this.debug.connection.syntaxError(text);
    if (bad) {
      // Kept in the list with its error, left out of the runs.
      this.program.watches = [...this.program.watches, { expr: text, error: `SyntaxError: ${bad}` }];
      return true;
    }
    const before = this.program.watches;
    this.program.watches = [...this.program.watches, { expr: text }];
    if (!this.debug.canRerecord) return true;
    const ok = await this.rerecord('The watch expression could not be added', () => this.debug.applyWatches());
    if (!ok) this.program.watches = before;
    return ok;
  }

  removeWatch(expr: string): Promise<void> {
    return this.debug.whileBusy(() => this.removeWatchNow(expr));
  }

  private async removeWatchNow(expr: string): Promise<void> {
    const item = this.program.watches.find((w) => w.expr === expr);
    if (!item) return;
    this.error = null;
    this.program.watches = this.program.watches.filter((w) => w !== item);
    if (item.error || !this.debug.canRerecord) return;
    await this.rerecord('The watch expression could not be removed', () => this.debug.applyWatches());
  }

  /** Conditions and watches that came by link are checked before they run: a condition that is
   * not a Python expression is dropped (with a message), such a watch keeps its error. */
  async checkLinkedExpressions(): Promise<void> {
    const dropped: string[] = [];
    const conditions = { ...this.program.conditions };
    for (const [line, c] of Object.entries(conditions)) {
      const bad = c.condition ? await this.debug.connection.syntaxError(c.condition) : null;
      if (bad) {
        delete conditions[Number(line)];
        dropped.push(`line ${line} (${bad})`);
      }
    }
    this.program.conditions = conditions;
    const watches: WatchItem[] = [];
    for (const w of this.program.watches) {
      const bad = w.error ? null : await this.debug.connection.syntaxError(w.expr);
      watches.push(bad ? { expr: w.expr, error: `SyntaxError: ${bad}` } : w);
    }
    this.program.watches = watches;
    if (dropped.length > 0) this.error = `Breakpoint conditions that are not Python expressions were dropped: ${dropped.join(', ')}`;
  }

  /** A link's edits, made again one by one where its sender made them, in the session `live`
   * that the link's restore recorded; the first that fails stops the replay with a message, and
   * the ones before it stay in force. Stops too when `wanted` turns false (a newer link). */
  async replayEdits(live: LiveSession, edits: readonly Edit[], wanted: () => boolean): Promise<void> {
    await this.debug.whileBusy(async () => {
      try {
        for (const e of edits) {
          if (!wanted() || this.debug.session !== live) return;
          try {
            await live.replayEdit(e);
          } catch (err) {
            this.fail(`The link's edit \`${e.name} = ${e.expr}\` could not be made`, err);
            return;
          }
        }
      } finally {
        this.debug.adoptIfCurrent(live);
      }
    });
  }

  /** Records again at the same stop (`run`); false (with a message) when that failed. */
  private async rerecord(what: string, run: () => Promise<void>): Promise<boolean> {
    try {
      await run();
      return true;
    } catch (err) {
      this.fail(what, err);
      return false;
    }
  }

  private fail(what: string, err: unknown): void {
    const message = err instanceof Error ? err.message : String(err);
    this.error = `${what}: ${message}`;
    this.debug.connection.noteStopped(err);
  }
}
