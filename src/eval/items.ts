// What the evaluations read, one JSON object a line: held-out trajectories
// (`python3 -m training.make_eval_set` writes them) and CruxEval items. Reading the files is the
// caller's: the harness takes the items.

/** One held-out trajectory: a program, its call, where it starts, and the actions taken there. */
export interface EvalItem {
  id?: unknown;
  source: string;
  call: string;
  start?: number | null;
  /** Actions, and `set:NAME=EXPR` edits for what-if trajectories. */
  actions: string[];
  breakpoints?: number[];
  max_events?: number;
}

/** A CruxEval item: a function `f`, the arguments of one call, and what that call returns. */
export interface CruxItem {
  id: string;
  code: string;
  input: string;
  output: string;
}

/** Told after each item, so that a caller can show how far an evaluation is. */
export type OnProgress = (done: number, total: number) => void;
