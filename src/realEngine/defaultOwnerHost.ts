// A host of several owners (processHost.ts: one interpreter per owner; processPool.ts: processes
// shared out by owner) answers a request that names no owner as its default owner does.

import type { Recording } from '../core/trace';
import type { CodeLines, LocalsEvaluation, PythonHost } from './pythonHost';
import type { RecordOptions } from './realEngine';

export abstract class DefaultOwnerHost implements PythonHost {
  /** The view of DEFAULT_OWNER, made once the subclass can make views. */
  protected abstract readonly byDefault: PythonHost;

  abstract forOwner(owner: string): PythonHost;

  release(): Promise<void> {
    return this.byDefault.release();
  }

  record(source: string, call: string, options?: RecordOptions): Promise<Recording> {
    return this.byDefault.record(source, call, options);
  }

  codeLines(source: string): Promise<CodeLines> {
    return this.byDefault.codeLines(source);
  }

  expressionError(expr: string): Promise<string | null> {
    return this.byDefault.expressionError(expr);
  }

  evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation> {
    return this.byDefault.evaluateOnLocals(expr, locals);
  }

  sameValue(predicted: string, expected: string): Promise<boolean> {
    return this.byDefault.sameValue(predicted, expected);
  }

  firstArgument(args: string): Promise<string | null> {
    return this.byDefault.firstArgument(args);
  }

  callArguments(values: readonly string[]): Promise<string | null> {
    return this.byDefault.callArguments(values);
  }
}
