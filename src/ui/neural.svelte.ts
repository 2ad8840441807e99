// The neural engine's side of the app: the model's loading, its predictions beside the real
// states, the running scores, "Guess inputs" and the "Predict first" teaching mode. The debugger
// (debugger.svelte.ts) tells it what it did; it never blocks the real engine.

import { isInverse, type Action } from '../core/actions';
import { compareStates, type StateComparison } from '../core/compare';
import type { Confidence } from '../core/confidence';
import { EvalStats, type ActionTally } from '../core/evalStats';
import type { ParseResult } from '../core/format';
import { stateAt, type DebugState } from '../core/state';
import type { Position, Recording } from '../core/trace';
import type { ModelDtype } from '../neuralEngine/modelConfig';
import { ModelClient, ModelError, type Backend, type ModelInfo, type ModelWorkerFactory, type PredictionResult } from '../neuralEngine/modelClient';
import type { DebuggerEvent } from './debugger.svelte';
import { modelTurnedOff } from './modelQuery';
import { NO_GUESSES, revealOf, tallyGuess, type GuessScore, type LearnerGuess, type Reveal } from './predictFirst';
import type { Prefs } from './prefs.svelte';
import { guessedCallMaker } from '../core/callBuilder';

export type { GuessScore, LearnerGuess, Reveal };

export type Mode = 'compare' | 'neural' | 'real';

export const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'compare', label: 'Compare' },
  { value: 'neural', label: 'Neural only' },
  { value: 'real', label: 'Real only' },
];

export interface ShownPrediction {
  action: Action;
  /** The parsed prediction (or why it could not be parsed). */
  state: ParseResult;
  text: string;
  /** The real state after the same action, and the field-by-field comparison. */
  real: DebugState;
  comparison: StateComparison;
  ms: number;
  newTokens: number;
  prefillTokens: number;
  /** How sure the model was of the state and each field. */
  confidence?: Confidence;
  /** Counted in the scores: not when the real state is the entry or the exit, which any answer
   * of the right kind matches (a step back to the entry, the end of the program). */
  scored: boolean;
}

export interface Candidate {
  call: string;
  /** 'yes': Pyodide returns the observed value; 'no': another value; 'error': it could not run. */
  verdict: 'pending' | 'yes' | 'no' | 'error';
  got?: string;
}

export type CheckCall = (call: string) => Promise<Recording>;

/** Where the neural side runs (the page's, or a test's). */
export interface NeuralEnvironment {
  /** The page's query string (see queryOptions). */
  query: string;
  /** The absolute URL the app is served from: the model folders lie under it. */
  baseUrl: string;
  /** A WebGPU adapter, if the browser offers one. */
  requestAdapter(): Promise<unknown>;
  /** Whether the browser has WebGPU at all (an adapter may still be refused). */
  hasWebGpu?: boolean;
  /** Where the model worker comes from (the app's own by default; tests give a stand-in that
   * speaks the same messages). */
  modelWorker?: ModelWorkerFactory;
}

/** The URL's query picks the backend, the model, the dtype and a cap on the tokens of a state
 * (`?backend=wasm|webgpu&model=NAME&dtype=fp32&max-new-tokens=N`; `?model=none` turns the model
 * off). Shareable, and the tests' hooks. */
function queryOptions(query: string): { backend: Backend | 'auto'; model: string | null; dtype: ModelDtype | null; off: boolean; maxNewTokens: number | null } {
  const q = new URLSearchParams(query);
  const b = q.get('backend');
  const d = q.get('dtype');
  const cap = Number(q.get('max-new-tokens'));
  return {
    maxNewTokens: Number.isInteger(cap) && cap > 0 ? cap : null,
    backend: b === 'wasm' || b === 'webgpu' ? b : 'auto',
    model: q.get('model'),
    dtype: d === 'fp32' || d === 'int8' || d === 'q4' || d === 'q8' || d === 'fp16' ? d : null,
    off: modelTurnedOff(query),
  };
}

export class Neural {
  status = $state<'loading' | 'ready' | 'failed' | 'off'>('loading');
  progress = $state<{ loaded: number; total: number; file: string } | null>(null);
  error = $state<string | null>(null);
  info = $state.raw<ModelInfo | null>(null);
  note = $state<string | null>(null);
  mode = $state<Mode>('compare');
  backend = $state<Backend>('wasm');
  webgpuAvailable = $state(false);
  /** Why the GPU cannot be used, in words (null while unknown or when it can). */
  webgpuReason = $state<string | null>(null);

  prediction = $state.raw<ShownPrediction | null>(null);
  predicting = $state(false);
  /** Scores per action kind over this run of the program (a new program or Restart starts them
   * again), in the order the kinds were first seen. */
  scores = $state.raw<ActionTally[]>([]);
  /** The call (or "the module") the scores belong to. */
  scoredRun = $state<string>('');
  totalTokens = $state(0);
  totalMs = $state(0);
  states = $state(0);

  predictFirst = $state(false);
  guess = $state<LearnerGuess>({ line: '', value: '' });
  reveal = $state.raw<Reveal | null>(null);
  learnerScore = $state<GuessScore>(NO_GUESSES);
  modelScore = $state<GuessScore>(NO_GUESSES);
  /** The last forward action taken in this run: what Enter in the guess fields takes next. */
  lastForward = $state<Action>({ kind: 'step_into' });

  candidates = $state<Candidate[]>([]);
  guessing = $state(false);
  guessNote = $state<string | null>(null);

  private client: ModelClient | null = null;
  /** What the first load waits for before it builds the model (see start). */
  private firstGate: Promise<unknown> | null = null;
  private generation = 0;
  private recording: Recording | null = null;
  private position: Position = 0;
  private breakpoints: number[] = [];
  private readonly env: NeuralEnvironment;
  private readonly prefs: Prefs | null;
  private readonly options: ReturnType<typeof queryOptions>;
  private stats = new EvalStats();
  private checkCall: CheckCall | null = null;
  /** Bumped whenever the model's history starts again (a recording, a jump, a mode): an answer
   * for an older history is dropped. */
  private history = 0;

  constructor(env: NeuralEnvironment, prefs: Prefs | null = null) {
    this.env = env;
    this.prefs = prefs;
    this.options = queryOptions(env.query);
    // A reload keeps the teaching mode; the model's modes wait until it has loaded (load()).
    this.predictFirst = prefs?.predictFirst ?? false;
    if (prefs?.mode === 'real') this.mode = 'real';
  }

  readonly tokensPerS = $derived(this.totalMs > 0 ? (1000 * this.totalTokens) / this.totalMs : 0);
  readonly msPerState = $derived(this.states > 0 ? this.totalMs / this.states : 0);
  readonly active = $derived(this.status === 'ready' && this.mode !== 'real');

  /** The locals of the predicted state at the current stop (for watch expressions), if any. */
  readonly predictedLocals = $derived.by<Record<string, string> | null>(() => {
    const p = this.prediction;
    if (!p || !this.active || this.predicting || 'unparseable' in p.state) return null;
    const s = p.state;
    if (s.event === 'exit' || s.event === 'entry' || s.event === 'return' || !s.locals) return null;
    return s.locals;
  });

  /** The line of the predicted state (the editor's ghost marker). */
  readonly ghostLine = $derived.by<number | null>(() => {
    const p = this.prediction;
    if (!p || !this.active || 'unparseable' in p.state || p.state.event === 'exit' || p.state.event === 'entry') return null;
    return p.state.line > 0 ? p.state.line : null;
  });

  /** How sure the model is of the predicted stop's line (the ghost marker's note), if it says. */
  readonly ghostConfidence = $derived<number | null>(this.ghostLine === null ? null : (this.prediction?.confidence?.position ?? null));

  /** Starts loading the model; the real engine does not wait for it. With `first`, the model's
   * files download at once but the model is built only once `first` settles (Python ready):
   * on a cold start the two would share the same cores. */
  async start(checkCall: CheckCall, first?: Promise<unknown>): Promise<void> {
    this.checkCall = checkCall;
    this.firstGate = first ?? null;
    if (this.options.off) {
      this.status = 'off';
      this.error = 'The model is turned off (?model=none): real-only mode.';
      this.mode = 'real';
      return;
    }
    const adapter = this.queryWebGpu();
    // A backend named in the URL loads at once; the GPU is asked about meanwhile (for the select).
    if (this.options.backend !== 'auto') {
      await Promise.all([adapter, this.load(this.options.backend)]);
      return;
    }
    await adapter;
    await this.load(this.webgpuAvailable ? 'webgpu' : 'wasm');
  }

  private async queryWebGpu(): Promise<void> {
    try {
      this.webgpuAvailable = Boolean(await this.env.requestAdapter());
    } catch {
      this.webgpuAvailable = false;
    }
    if (!this.webgpuAvailable) {
      this.webgpuReason =
        this.env.hasWebGpu === false
          ? 'this browser does not offer WebGPU'
          : 'the browser offered no GPU adapter (no usable GPU, or WebGPU is turned off)';
    }
  }

  /** The "Backend" select: a fresh worker on the other backend. */
  async setBackend(backend: Backend): Promise<void> {
    if (backend === this.backend && this.status !== 'failed') return;
    await this.load(backend);
  }

  setMode(mode: Mode): void {
    if (mode === this.mode) return;
    this.prefs?.setMode(mode);
    this.mode = mode;
    this.prediction = null;
    this.history++;
    this.predicting = false;
    // Compare and Neural only start again from the real state the debugger stands at.
    if (mode !== 'real' && this.recording) void this.begin();
  }

  setPredictFirst(on: boolean): void {
    this.predictFirst = on;
    this.prefs?.setPredictFirst(on);
    this.reveal = null;
  }

  private async load(backend: Backend): Promise<void> {
    const gen = ++this.generation;
    this.client?.dispose();
    this.backend = backend;
    this.status = 'loading';
    this.error = null;
    this.note = null;
    this.info = null;
    this.progress = null;
    this.prediction = null;
    const client = new ModelClient({
      onProgress: (loaded, total, file) => {
        if (gen === this.generation) this.progress = { loaded, total, file };
      },
      onDeviceLost: (message) => {
        if (gen !== this.generation) return;
        this.note = `The GPU device was lost (${message}): switched to WASM.`;
        void this.load('wasm').then(() => {
          if (gen + 1 === this.generation) this.note = `The GPU device was lost (${message}): switched to WASM.`;
        });
      },
    }, this.env.modelWorker);
    this.client = client;
    try {
      const gate = this.firstGate;
      this.firstGate = null;
      if (gate) void gate.finally(() => client.release());
      const info = await client.load(this.env.baseUrl, backend, this.options.model, this.options.dtype, this.options.maxNewTokens, gate !== null);
      if (gen !== this.generation) return;
      this.info = info;
      this.backend = info.backend;
      this.note = info.note ?? null;
      this.status = 'ready';
      this.progress = null;
      const saved = this.prefs?.mode;
      if (saved && saved !== 'real' && this.mode !== 'real') this.mode = saved;
      if (performance.getEntriesByName('ndb:model-ready').length === 0) performance.mark('ndb:model-ready');
      if (this.recording) await this.begin();
    } catch (err) {
      if (gen !== this.generation) return;
      this.status = 'failed';
      this.progress = null;
      const message = err instanceof Error ? err.message : String(err);
      this.error = `The model could not be loaded: ${message}. The real engine works as before (real-only mode).`;
    }
  }

  /** The debugger's report of what it did. */
  onDebugger(ev: DebuggerEvent): void {
    if (ev.kind === 'cleared') {
      // No recording (the engine was restarted, a link shows other code): the old run's scores go.
      this.history++;
      this.predicting = false;
      this.recording = null;
      this.prediction = null;
      this.resetScores(null);
      return;
    }
    if (ev.kind === 'rerecorded') {
      this.recording = ev.recording;
      return;
    }
    if (ev.kind === 'edit') {
      this.recording = ev.recording;
      this.breakpoints = ev.breakpoints;
      this.position = ev.position;
      this.prediction = null;
      this.candidates = [];
      this.guessNote = null;
      void this.acceptEdit();
      return;
    }
    const fresh = ev.recording !== this.recording;
    if (ev.kind === 'recorded') this.resetScores(ev.recording);
    this.recording = ev.recording;
    this.breakpoints = ev.breakpoints;
    const from = this.position;
    this.position = ev.position;
    if (ev.kind === 'action' && !fresh) {
      this.step(ev.action, from, ev.position);
      return;
    }
    this.prediction = null;
    this.candidates = [];
    this.guessNote = null;
    void this.begin();
  }

  /** Scores belong to one run of one program: a new recording (a new program, Restart, a link)
   * starts them again. What-if edits keep them: they go on from a stop of the same run. */
  private resetScores(rec: Recording | null): void {
    this.stats = new EvalStats();
    this.scores = [];
    this.scoredRun = rec === null ? '' : rec.call.trim() !== '' ? rec.call.trim() : 'the module';
    this.learnerScore = NO_GUESSES;
    this.modelScore = NO_GUESSES;
    this.reveal = null;
    this.lastForward = { kind: 'step_into' };
  }

  private async begin(): Promise<void> {
    this.history++;
    this.predicting = false;
    const client = this.client;
    const rec = this.recording;
    if (!client || this.status !== 'ready' || !rec || this.mode === 'real') return;
    if (rec.events.length === 0) return;
    try {
      await client.begin(rec, Math.min(Math.max(this.position, 0), rec.events.length - 1), this.breakpoints);
    } catch {
      // a newer recording took over
    }
  }

  /** What-if: the model's newest state becomes the edited real state; it goes on from there, and
   * its next predictions are compared with the new run. */
  private async acceptEdit(): Promise<void> {
    const client = this.client;
    const rec = this.recording;
    if (!client || this.status !== 'ready' || !rec || this.mode === 'real') return;
    try {
      await client.edit(rec, this.position);
    } catch (err) {
      if (err instanceof ModelError && err.kind === 'superseded') return;
      // No history to edit (the model had not begun): start it at the edited state.
      await this.begin();
    }
  }

  private step(action: Action, _from: Position, to: Position): void {
    const client = this.client;
    const rec = this.recording!;
    if (!isInverse(action)) this.lastForward = action;
    const guess = this.predictFirst ? { ...this.guess } : null;
    if (this.predictFirst) this.guess = { line: '', value: '' };
    this.candidates = [];
    this.guessNote = null;
    if (!client || this.status !== 'ready' || this.mode === 'real') {
      if (guess) this.revealWith(action, guess, stateAt(rec, to), null);
      return;
    }
    const real = stateAt(rec, to);
    const accept = this.mode === 'neural' ? ({ kind: 'predicted' } as const) : ({ kind: 'real', position: to } as const);
    const gen = this.generation;
    const history = this.history;
    this.predicting = true;
    const mine = ++this.stepSeq;
    client
      .step(action, this.breakpoints, accept)
      .then((p) => {
        if (gen !== this.generation || history !== this.history || !p) return;
        this.show(p, real);
        if (guess) this.revealWith(action, guess, real, this.prediction);
      })
      .catch((err: unknown) => {
        if (err instanceof ModelError && err.kind === 'superseded') return;
        if (gen === this.generation && history === this.history) this.note = `The prediction failed: ${err instanceof Error ? err.message : String(err)}`;
      })
      .finally(() => {
        if (mine === this.stepSeq) this.predicting = false;
      });
  }

  private stepSeq = 0;

  private show(p: PredictionResult, real: DebugState): void {
    const comparison = compareStates(real, p.state, isInverse(p.action) ? 'inverse' : 'forward');
    if (performance.getEntriesByName('ndb:first-prediction').length === 0) performance.mark('ndb:first-prediction');
    const scored = real.event !== 'entry' && real.event !== 'exit';
    this.prediction = {
      action: p.action,
      state: p.state,
      text: p.text,
      real,
      comparison,
      ms: p.ms,
      newTokens: p.newTokens,
      prefillTokens: p.prefillTokens,
      ...(p.confidence ? { confidence: p.confidence } : {}),
      scored,
    };
    if (scored) {
      this.stats.add(p.action, comparison);
      this.scores = this.stats.perAction();
    }
    this.totalTokens += p.newTokens;
    this.totalMs += p.ms;
    this.states++;
  }

  private revealWith(action: Action, guess: LearnerGuess, real: DebugState, model: ShownPrediction | null): void {
    const reveal = revealOf(action, guess, real, model);
    this.reveal = reveal;
    if (!reveal.scored) return;
    this.learnerScore = tallyGuess(this.learnerScore, reveal.learner, reveal.learner);
    if (reveal.model) this.modelScore = tallyGuess(this.modelScore, reveal.learner, reveal.model);
  }

  /** At a return: sample k calls with the model, run each in Pyodide, mark those that return the
   * observed value. */
  async guessInputs(k = 4, temperature = 0.8): Promise<void> {
    const client = this.client;
    const rec = this.recording;
    if (!client || this.status !== 'ready' || !rec || !this.checkCall) return;
    const here = rec.events[this.position];
    if (!here || here.event !== 'return' || here.raising) {
      this.guessNote = 'Guess inputs works at a return: step to one first.';
      return;
    }
    const observed = here.value ?? 'None';
    this.guessing = true;
    this.guessNote = null;
    this.candidates = [];
    try {
      const samples = await client.sample(this.position, { kind: 'inv_step_call' }, k, temperature);
      // the same calls as the CLI's and MCP's guess_inputs: as the def takes its arguments, a method
      // through its object; what is not a call, or a call already listed, is counted, not shown
      const makeCall = guessedCallMaker(rec, this.position);
      const list: Candidate[] = [];
      let unusable = 0;
      let duplicates = 0;
      for (const p of samples) {
        const call = makeCall(p.state);
        if (call === null) unusable++;
        else if (list.some((c) => c.call === call)) duplicates++;
        else list.push({ call, verdict: 'pending' });
      }
      this.candidates = list;
      const notCalls = new Set<string>();
      for (const [i, c] of list.entries()) {
        if (c.verdict !== 'pending') continue;
        let verdict: Candidate['verdict'];
        let got: string | undefined;
        try {
          const check = await this.checkCall(c.call);
          if (check.exit.status === 'call_error') {
            // a predicted value that is not an expression: no call that can run
            notCalls.add(c.call);
            continue;
          }
          if (check.exit.status === 'normal') {
            got = check.exit.value ?? 'None';
            verdict = got === observed ? 'yes' : 'no';
          } else {
            verdict = 'error';
            got = check.exit.message ?? check.exit.status;
          }
        } catch (err) {
          verdict = 'error';
          got = err instanceof Error ? err.message : String(err);
        }
        this.candidates[i] = { ...c, verdict, got };
      }
      this.candidates = this.candidates.filter((c) => !notCalls.has(c.call));
      unusable += notCalls.size;
      const yes = this.candidates.filter((c) => c.verdict === 'yes').length;
      const shown = this.candidates.length;
      const dropped = [unusable > 0 ? `${unusable} not a call` : '', duplicates > 0 ? `${duplicates} repeated` : ''].filter(Boolean).join(', ');
      this.guessNote = `${yes} of ${shown} candidate calls return ${observed}${dropped ? ` (${samples.length} drawn: ${dropped})` : ''}.`;
    } catch (err) {
      this.guessNote = `Guessing failed: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.guessing = false;
    }
  }
}
