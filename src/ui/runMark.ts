// A run in progress, marked where a reload of the tab still finds it (the browser's
// sessionStorage: browser.ts). The app keeps the program in its link and runs the tab's own link
// again on reload; if a run ever froze the page (a recording forged to freeze it, a bug), that
// would freeze it again after every reload. So the mark is set before Python runs a program and
// cleared only once the answer was taken and the page has drawn it: a load that finds it set runs
// nothing by itself (linkSync.svelte.ts shows the code and asks).

import type { EngineInfo } from '../realEngine/browser/client';
import type { Ask, EngineQuestion, PythonHost } from '../realEngine/engineProtocol';

/** The app's engine as engineConnection.svelte.ts holds it (its AppEngine). */
type AppEngine = PythonHost & { readonly ready: Promise<EngineInfo>; stop?(): void };

/** Where the mark lives (null from `get`: storage blocked, nothing kept). */
export interface RunFlag {
  get(): boolean;
  set(running: boolean): void;
}

/** Runs `done` once the page has drawn what the code before it changed: after the next frame
 * (a frozen page never gets there), or after a timer where no frame comes (a hidden tab, tests). */
export function afterNextFrame(done: () => void): void {
  const frame = globalThis.requestAnimationFrame;
  const hidden = typeof document !== 'undefined' && document.hidden;
  if (typeof frame !== 'function' || hidden) setTimeout(done, 0);
  else frame(() => setTimeout(done, 0));
}

export class RunMark {
  /** The last page of this tab stopped during a run (the flag was still set when this one loaded). */
  readonly unfinishedAtLoad: boolean;
  private running = 0;
  /** Counts the runs that ended: a clear scheduled before a later run ended is dropped. */
  private ended = 0;

  constructor(
    private readonly flag: RunFlag | null,
    private readonly afterDrawn: (done: () => void) => void = afterNextFrame,
  ) {
    this.unfinishedAtLoad = flag?.get() ?? false;
  }

  /** A run begins; the function it returns ends it (once). The mark is cleared when no run is
   * left and the page has drawn what the last one changed. */
  begin(): () => void {
    this.running++;
    this.flag?.set(true);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      this.running--;
      const ended = ++this.ended;
      this.afterDrawn(() => {
        if (this.running === 0 && ended === this.ended) this.flag?.set(false);
      });
    };
  }

  /** `run` as one run. */
  async during<T>(run: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await run();
    } finally {
      end();
    }
  }

  /** The engine with each recording it makes marked as a run (every way a program runs: the first
   * run, an edit, a condition, a watch, a guessed call). */
  wrap(engine: AppEngine): AppEngine {
    const ask = ((question: EngineQuestion) => (question.kind === 'record' ? this.during(() => engine.ask(question)) : engine.ask(question))) as Ask;
    const marked: AppEngine = {
      ask,
      record: (source, call, options) => this.during(() => engine.record(source, call, options)),
      codeLines: (source) => engine.codeLines(source),
      expressionError: (expr) => engine.expressionError(expr),
      evaluateOnLocals: (expr, locals) => engine.evaluateOnLocals(expr, locals),
      sameValue: (predicted, expected) => engine.sameValue(predicted, expected),
      firstArgument: (args) => engine.firstArgument(args),
      callArguments: (values) => engine.callArguments(values),
      forOwner: (owner) => engine.forOwner(owner),
      release: () => engine.release(),
      get ready() {
        return engine.ready;
      },
    };
    if (engine.stop) marked.stop = () => engine.stop?.();
    return marked;
  }
}
