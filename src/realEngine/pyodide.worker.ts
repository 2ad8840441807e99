// The real engine in the browser: Pyodide in a module worker, served by the app itself.
//
// Protocol (types in ./client.ts): the main thread sends `init` once (with the interrupt buffer,
// when the page is cross-origin isolated), then `record` and `evaluate` requests; the worker
// answers `ready` once loaded, and `recorded`/`evaluated` or `error` for each request, echoing its id.

import type { loadPyodide as LoadPyodide, PyodideInterface } from 'pyodide';
import tracerSource from './tracer.py?raw';
import type { EvaluationResult, WorkerRequest, WorkerResponse } from './client';
import { installModule, RealEngine, type RecordOptions } from './realEngine';
import valuesSource from './values.py?raw';

interface WorkerScope {
  postMessage(message: WorkerResponse): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<WorkerRequest>) => void): void;
  location: { href: string };
}

const scope = self as unknown as WorkerScope;

function post(msg: WorkerResponse): void {
  scope.postMessage(msg);
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The folder the app serves Pyodide from, as an absolute URL (loadPyodide needs one). */
function pyodideIndexURL(): string {
  return new URL(`${import.meta.env.BASE_URL}pyodide/`, scope.location.href).href;
}

interface Loaded {
  real: RealEngine;
  /** values.py's evaluate_on_locals(expr, locals_json) -> JSON text. */
  evaluateOnLocals: (expr: string, localsJson: string) => unknown;
}

async function load(interruptBuffer: Uint8Array | null): Promise<Loaded> {
  const started = performance.now();
  const indexURL = pyodideIndexURL();
  // Loaded at run time from the served copy, so that the JS and the wasm always match.
  const mod = (await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)) as { loadPyodide: typeof LoadPyodide };
  const pyodide: PyodideInterface = await mod.loadPyodide({
    indexURL,
    stdout: () => undefined,
    stderr: () => undefined,
  });
  if (interruptBuffer) pyodide.setInterruptBuffer(interruptBuffer);
  const real = await RealEngine.create(pyodide, tracerSource);
  installModule(pyodide, 'ndb_values', valuesSource);
  const values = pyodide.pyimport('ndb_values') as unknown as { evaluate_on_locals: Loaded['evaluateOnLocals'] };
  const version = pyodide.runPython('import sys; sys.version.split()[0]');
  post({
    type: 'ready',
    loadMs: Math.round(performance.now() - started),
    pythonVersion: typeof version === 'string' ? version : '?',
    interruptible: interruptBuffer !== null,
  });
  return { real, evaluateOnLocals: (expr, localsJson) => values.evaluate_on_locals(expr, localsJson) };
}

let engine: Promise<Loaded> | null = null;

scope.addEventListener('message', (ev: MessageEvent<WorkerRequest>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'init':
      if (engine) return;
      engine = load(msg.interruptBuffer);
      engine.catch((err: unknown) => post({ type: 'error', id: null, message: `Python could not be loaded: ${describe(err)}` }));
      return;
    case 'record':
      void record(msg.id, msg.source, msg.call, msg.options);
      return;
    case 'evaluate':
      void evaluate(msg.id, msg.expr, msg.locals);
      return;
  }
});

async function loaded(id: number): Promise<Loaded | null> {
  if (!engine) {
    post({ type: 'error', id, message: 'The Python engine was not initialised.' });
    return null;
  }
  try {
    return await engine;
  } catch (err) {
    post({ type: 'error', id, message: `Python could not be loaded: ${describe(err)}` });
    return null;
  }
}

async function evaluate(id: number, expr: string, locals: Record<string, string>): Promise<void> {
  const py = await loaded(id);
  if (!py) return;
  try {
    const text = py.evaluateOnLocals(expr, JSON.stringify(locals));
    if (typeof text !== 'string') throw new Error('no answer');
    post({ type: 'evaluated', id, result: JSON.parse(text) as EvaluationResult });
  } catch (err) {
    post({ type: 'error', id, message: `The expression could not be evaluated: ${describe(err)}` });
  }
}

async function record(id: number, source: string, call: string, options: RecordOptions): Promise<void> {
  const py = await loaded(id);
  if (!py) return;
  const real = py.real;
  const started = performance.now();
  try {
    const recording = real.record(source, call, options);
    post({ type: 'recorded', id, recording, elapsedMs: Math.round(performance.now() - started) });
  } catch (err) {
    post({ type: 'error', id, message: `The tracer failed: ${describe(err)}` });
  }
}
