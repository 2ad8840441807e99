// The navigator against CPython's own bdb, run inside Pyodide (CPython 3.14) on the live program:
// for every program and many random action sequences, each forward action must stop exactly where
// bdb stops (same event, frame, line, locals, value), and inverse actions must land on the event
// that bdb reaches by stepping one event at a time.

import { beforeAll, describe, expect, it } from 'vitest';
import { formatAction, type Action } from '../core/actions';
import { Navigator } from '../core/navigator';
import type { Position, Recording } from '../core/trace';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';
import { hash, loadOracle, rng, snapshot, type Snapshot } from '../testing/oracle';
import { loadPrograms } from '../testing/programs';

const programs = loadPrograms('examples', 'src/testing/programs');
const SEQUENCES_PER_PROGRAM = Number(process.env.NDB_ORACLE_SEQUENCES ?? 60);
const ACTIONS_PER_SEQUENCE = 16;

interface Segment {
  goto: number;
  breakpoints: number[];
  commands: string[];
  expected: Snapshot[];
}

let engine: RealEngine;
let runSegments: (request: string) => string;

beforeAll(async () => {
  engine = await loadNodeEngine();
  runSegments = loadOracle(engine);
}, 60_000);




/** In pure step mode bdb stops at every event but the StopIteration that `yield from` raises
 * inside a generator without a traceback (dispatch_exception skips it). */
function bdbStepsOnto(rec: Recording, pos: Position): boolean {
  const e = rec.events[pos];
  if (!e) return false;
  return !(e.event === 'exception' && rec.codes[e.code]?.generator && e.exc_type === 'StopIteration' && e.exc_tb_none);
}

function randomAction(r: () => number, lines: number[]): Action {
  const x = r();
  if (x < 0.3) return { kind: 'step_into' };
  if (x < 0.5) return { kind: 'step_over' };
  if (x < 0.62) return { kind: 'step_return' };
  if (x < 0.7) return { kind: 'continue' };
  if (x < 0.8) return { kind: 'breakpoint', line: lines[Math.floor(r() * lines.length)]! };
  if (x < 0.88) return { kind: 'inv_step_into' };
  if (x < 0.94) return { kind: 'inv_step_over' };
  return { kind: 'inv_step_call' };
}

/** Runs a random sequence through the navigator and builds the oracle's segments beside it. */
function plan(rec: Recording, seed: number): { breakpoints: number[]; segments: Segment[]; actions: Action[] } {
  const r = rng(seed);
  const lines = [...new Set(rec.codes.flatMap((c) => c.lines))].sort((a, b) => a - b);
  const breakpoints = lines.filter(() => r() < 0.12).slice(0, 3);
  const nav = new Navigator(rec, breakpoints);
  const n = rec.events.length;
  const segments: Segment[] = [{ goto: 0, breakpoints: [...nav.breakpoints], commands: [], expected: [snapshot(rec, 0)] }];
  const actions: Action[] = [];
  let open = true; // the current segment has not reached the exit
  let unchecked = false; // the navigator is somewhere the oracle cannot follow
  for (let i = 0; i < ACTIONS_PER_SEQUENCE; i++) {
    if (open && !unchecked && nav.position >= 0 && r() < 0.1) {
      // Toggle a gutter breakpoint while stopped, as a user would.
      const line = lines[Math.floor(r() * lines.length)]!;
      const seg = segments[segments.length - 1]!;
      if (nav.breakpoints.has(line)) {
        nav.removeBreakpoint(line);
        seg.commands.push(`clear:${line}`);
      } else {
        nav.addBreakpoint(line);
        seg.commands.push(`break:${line}`);
      }
    }
    const action = randomAction(r, lines);
    actions.push(action);
    const before = nav.position;
    const after = nav.apply(action);
    const inverse = action.kind.startsWith('inv_');
    if (inverse || before < 0) {
      const goto = inverse ? after : 0;
      if (goto < 0 || !bdbStepsOnto(rec, goto)) {
        // The entry state, or an event pdb never stops at even when stepping: the oracle cannot
        // start there; a later action re-syncs.
        open = false;
        unchecked = true;
        continue;
      }
      const seg: Segment = { goto, breakpoints: [...nav.breakpoints], commands: [], expected: [snapshot(rec, goto)] };
      if (!inverse && (action.kind === 'continue' || action.kind === 'breakpoint')) {
        seg.commands.push(formatAction(action));
        seg.expected.push(snapshot(rec, after));
      }
      segments.push(seg);
      unchecked = false;
      open = after < n;
      continue;
    }
    if (!open) {
      if (!unchecked) expect(after, 'forward actions at the exit stay there').toBe(n);
      continue;
    }
    const seg = segments[segments.length - 1]!;
    seg.commands.push(formatAction(action));
    seg.expected.push(snapshot(rec, after));
    if (after >= n) open = false;
  }
  for (const seg of segments) {
    if (seg.expected[seg.expected.length - 1]?.event !== 'exit') seg.expected.push({ event: 'exit' });
  }
  return { breakpoints, segments, actions };
}

describe('navigator vs CPython bdb', () => {
  it('has at least 40 programs', () => {
    expect(programs.length).toBeGreaterThanOrEqual(40);
  });

  for (const program of programs) {
    it(`stops where bdb stops: ${program.name}`, () => {
      const rec = engine.record(program.source, program.call);
      expect(['normal', 'exception']).toContain(rec.exit.status);
      for (let s = 0; s < SEQUENCES_PER_PROGRAM; s++) {
        const { breakpoints, segments, actions } = plan(rec, hash(program.name) + s);
        const request = { source: program.source, call: program.call, segments: segments.map(({ goto, breakpoints: b, commands }) => ({ goto, breakpoints: b, commands })) };
        const got = JSON.parse(runSegments(JSON.stringify(request))) as Snapshot[][];
        const context = `seed ${s}, breakpoints [${breakpoints}], actions ${actions.map(formatAction).join(',')}`;
        expect(got.length, context).toBe(segments.length);
        segments.forEach((seg, k) => {
          expect(got[k], `${context}\nsegment ${k}: goto ${seg.goto}, commands ${seg.commands.join(',')}`).toEqual(seg.expected);
        });
      }
    });
  }
});
