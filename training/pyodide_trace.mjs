#!/usr/bin/env node
// Traces programs with the app's tracer in Pyodide (CPython 3.14) under Node, for machines whose
// Python is older than 3.12 (docs/architecture.md#python-versions). Reads JSONL on stdin: {"id", "source", "call",
// "max_events"?, "edits"?}; writes JSONL on stdout: {"id", "recording"} (the dict tracer.record returns) or
// {"id", "error"}. One Pyodide for the whole stream (it takes seconds to load).
//   node training/pyodide_trace.mjs < programs.jsonl > recordings.jsonl
import { createInterface } from 'node:readline';
import { loadPyodide } from 'pyodide';
import { register } from 'tsx/esm/api';

register();
const { engineSources } = await import('../src/realEngine/node/node.ts');
const { RealEngine, sandboxJsGlobals } = await import('../src/realEngine/realEngine.ts');
// As loadNodeEngine (src/realEngine/node/node.ts) loads it, with one difference: a fixed string hash
// seed. Each Pyodide otherwise draws its own, so a set of strings shows its items in another order
// in every tracer process, and a dataset could not be built again byte for byte from its recipe
// (nor the live source draw the builder's documents).
const pyodide = await loadPyodide({
  env: { PYTHONHASHSEED: '0' },
  jsglobals: sandboxJsGlobals(),
  stdout: (line) => process.stderr.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
const engine = await RealEngine.create(pyodide, engineSources());
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let id = null;
  try {
    const req = JSON.parse(line);
    id = req.id ?? null;
    const options = { maxEvents: req.max_events ?? 2000, maxRepr: req.max_repr ?? 1000, timeLimit: req.time_limit ?? 5, edits: req.edits ?? [] };
    const recording = engine.record(String(req.source), String(req.call ?? ''), options);
    process.stdout.write(`${JSON.stringify({ id, recording })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ id, error: err instanceof Error ? err.message : String(err) })}\n`);
  }
}
