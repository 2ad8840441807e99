// What the real engine can be asked, typed once: each question by kind, with the type of its
// answer. Python answers every one in one place (answers.py); the browser's worker client
// (client.ts), the Node faces' process host (processHost.ts) and the in-process engine of the
// tests all turn one `ask` function into the PythonHost interface (`hostFromAsk`), so the list of
// questions is written here only. Every answer is checked against its question before it is used
// (answerCheck.ts): the engine runs programs that may have taken it over.

import type { Recording } from '../core/trace';
import { nameTable, own } from '../core/names';
import { tracerOptions, type RecordOptions, type TracerOptions } from './recordOptions';

/** evaluate_on_locals's answer (values.py): a repr, the error raised, or why it is unknown. */
export type LocalsEvaluation = { value: string } | { error: string } | { unknown: string };

/** The lines that hold code, or the syntax error that stops the program compiling. */
export type CodeLines = { lines: number[] } | { error: string; line: number };

/** Each question and the type of its answer. */
export interface EngineQuestions {
  /** Runs the program under the tracer. */
  record: { ask: { source: string; call: string; options: TracerOptions }; answer: Recording };
  /** The lines of the program that hold code (where a breakpoint can stop). */
  codeLines: { ask: { source: string }; answer: CodeLines };
  /** The SyntaxError of a condition or watch expression, or null when it parses. */
  expressionError: { ask: { expr: string }; answer: string | null };
  /** A watch expression on a model's predicted locals (reprs), without the program. */
  evaluateOnLocals: { ask: { expr: string; locals: Record<string, string> }; answer: LocalsEvaluation };
  /** Whether two reprs denote equal Python values. */
  sameValue: { ask: { predicted: string; expected: string }; answer: boolean };
  /** The first argument of a call's argument list as written, or null. */
  firstArgument: { ask: { args: string }; answer: string | null };
  /** Predicted argument reprs joined into an argument list, or null if one is no literal. */
  callArguments: { ask: { values: readonly string[] }; answer: string | null };
}

export type QuestionKind = keyof EngineQuestions;

/** One question as it travels: its kind and its fields. */
export type EngineQuestion = { [K in QuestionKind]: { kind: K } & EngineQuestions[K]['ask'] }[QuestionKind];

export type AnswerTo<K extends QuestionKind> = EngineQuestions[K]['answer'];

/** Puts a question to an engine and resolves with its answer (the JSON the engine wrote, parsed). */
export type Ask = <K extends QuestionKind>(question: { kind: K } & EngineQuestions[K]['ask']) => Promise<AnswerTo<K>>;

/** The real engine as every face sees it: each question as a method, and `ask` for any of them
 * (what a host that hands questions on to another uses). */
export interface PythonHost {
  ask: Ask;
  record(source: string, call: string, options?: RecordOptions): Promise<Recording>;
  codeLines(source: string): Promise<CodeLines>;
  expressionError(expr: string): Promise<string | null>;
  evaluateOnLocals(expr: string, locals: Record<string, string>): Promise<LocalsEvaluation>;
  sameValue(predicted: string, expected: string): Promise<boolean>;
  firstArgument(args: string): Promise<string | null>;
  callArguments(values: readonly string[]): Promise<string | null>;
  /** The host as one owner (a session, a launch) sees it: its requests never share an
   * interpreter with another owner's, so that nothing a program leaves behind reaches another's. */
  forOwner(owner: string): PythonHost;
  /** This owner is done (a session ended, a launch disconnected): the interpreter its programs
   * ran in ends, so nothing of it stays in memory or is handed on. */
  release(): Promise<void>;
}

/** The questions' methods over one `ask`; `owners` gives the other owners' views and releases. */
export function hostFromAsk(ask: Ask, owners: { forOwner(owner: string): PythonHost; release(): Promise<void> }): PythonHost {
  return {
    ask,
    record: async (source, call, options = {}) => withSources(await ask({ kind: 'record', source, call, options: tracerOptions(options) }), options),
    codeLines: (source) => ask({ kind: 'codeLines', source }),
    expressionError: (expr) => ask({ kind: 'expressionError', expr }),
    evaluateOnLocals: (expr, locals) => ask({ kind: 'evaluateOnLocals', expr, locals }),
    sameValue: (predicted, expected) => ask({ kind: 'sameValue', predicted, expected }),
    firstArgument: (args) => ask({ kind: 'firstArgument', args }),
    callArguments: (values) => ask({ kind: 'callArguments', values }),
    forOwner: (owner) => owners.forOwner(owner),
    release: () => owners.release(),
  };
}

/** A recording of a program of several files keeps their sources (tracebacks and stacks show
 * their lines): they were handed in with the question, so they are added here, not sent back. */
function withSources(rec: Recording, options: RecordOptions): Recording {
  const files = options.files;
  if (!files || !rec.files) return rec;
  const sources: Record<string, string> = nameTable();
  for (const name of rec.files.slice(1)) {
    const text = own(files, name);
    if (text !== undefined) sources[name] = text;
  }
  return { ...rec, sources };
}
