// Shared by the oracle tests: CPython's bdb driven in Pyodide (bdb_oracle.py), a seeded random
// generator, and the snapshot of a recorded stop in the shape the oracle reports.

import type { Position, Recording } from '../core/trace';
import { loadNodeEngine, readRepoFile } from '../realEngine/node/node';
import { inProcessHost, type PythonHost } from '../realEngine/pythonHost';
import { installModule, type RealEngine } from '../realEngine/realEngine';
import { seededRandom } from '../util/seededRandom';

export type Snapshot = Record<string, unknown>;

/** Installs the oracle next to the tracer; returns `run_segments_json`. */
export function loadOracle(engine: RealEngine): (request: string) => string {
  installModule(engine.pyodide, 'bdb_oracle', readRepoFile('src/testing/bdb_oracle.py'));
  const mod = engine.pyodide.pyimport('bdb_oracle') as unknown as { run_segments_json: (r: string) => string };
  return (r) => mod.run_segments_json(r);
}

/** The in-process engine, the host over it and the oracle beside it, as the oracle tests use them. */
export async function oracleEngine(): Promise<{ engine: RealEngine; host: PythonHost; runSegments: (request: string) => string }> {
  const engine = await loadNodeEngine();
  return { engine, host: inProcessHost(engine), runSegments: loadOracle(engine) };
}

/** A small seeded generator, so that a failing sequence can be replayed. */
export const rng = seededRandom;

/** FNV-1a: a program's name as a seed. */
export function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A recorded stop as the oracle reports it (bdb sees None as the value of a frame an exception leaves). */
export function snapshot(rec: Recording, pos: Position): Snapshot {
  if (pos >= rec.events.length) return { event: 'exit' };
  const e = rec.events[pos]!;
  const snap: Snapshot = { event: e.event, line: e.line, function: e.function, depth: e.depth, frame: e.frame, locals: e.locals };
  if (e.value !== undefined) snap.value = e.raising ? 'None' : e.value;
  return snap;
}

/** A project's run under CPython's bdb (bdb_project.py): where `continue` stops with breakpoints
 * in any file, where exceptions are raised, and where the uncaught one was. */
export interface ProjectBdbAnswer {
  stops: Array<{ file: string; line: number; function: string; event: string; exc_type?: string }>;
  uncaught: { file: string; line: number; function: string; event: string; exc_type: string } | null;
}

export interface ProjectBdbRequest {
  main: string;
  source: string;
  files: Record<string, string>;
  argv?: string[];
  breakpoints?: Array<{ file?: string; line: number }>;
  exceptions?: 'raised' | 'none';
}

export async function projectBdb(request: ProjectBdbRequest): Promise<ProjectBdbAnswer> {
  const engine = await loadNodeEngine();
  installModule(engine.pyodide, 'bdb_project', readRepoFile('src/testing/bdb_project.py'));
  const mod = engine.pyodide.pyimport('bdb_project') as unknown as { run_json: (r: string) => string };
  return JSON.parse(mod.run_json(JSON.stringify(request))) as ProjectBdbAnswer;
}
