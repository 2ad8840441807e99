// What-if debugging against CPython's own bdb (src/testing/bdb_oracle.py) in Pyodide:
// - `set:NAME=EXPR` steps, as the CLI runs them (a re-run with the assignment made in the live
//   frame at that event), must give the same stops as bdb with the same assignment made in the
//   frame where it is stopped;
// - conditional breakpoints with hit counts must stop where bdb's cond and ignore make it stop.
// Plus the bad edits, each a clear error that leaves the session as it was.

import { beforeAll, describe, expect, it } from 'vitest';
import { formatStep, parseMoveStepList, parseStepList, type Action, type Step } from '../core/actions';
import { RecordingSession } from '../core/recordingSession';
import type { BreakCondition } from '../core/navigator';
import { EditError, type Edit } from '../core/whatIf';
import { listStates } from '../session/actionList';
import { LiveSession } from '../session/liveSession';
import { ProgramError, rerunWith } from '../session/programSession';
import type { PythonHost } from './pythonHost';
import type { RealEngine } from './realEngine';
import { hash, oracleEngine, rng, snapshot, type Snapshot } from '../testing/oracle';
import { loadPrograms } from '../testing/programs';

const programs = loadPrograms('examples', 'src/testing/programs');
const SEQUENCES_PER_PROGRAM = Number(process.env.NDB_WHATIF_SEQUENCES ?? 10);

interface Segment {
  goto: number;
  breakpoints: number[];
  commands: string[];
  conditions?: Record<string, [string | null, number]>;
}

const programsEdited = new Set<string>();
let engine: RealEngine;
let host: PythonHost;
let runSegments: (request: string) => string;

beforeAll(async () => {
  ({ engine, host, runSegments } = await oracleEngine());
}, 60_000);




function oracle(program: { source: string; call: string }, segment: Segment): Snapshot[] {
  const request = { source: program.source, call: program.call, segments: [segment] };
  return (JSON.parse(runSegments(JSON.stringify(request))) as Snapshot[][])[0]!;
}

/** A new value of the same kind, so that the program usually goes on (it may also raise: then
 * both engines must show the same exception). */
function editFor(r: () => number, name: string, repr: string): string | null {
  if (/^-?\d+$/.test(repr)) return `${name} + ${1 + Math.floor(r() * 5)}`;
  if (/^'.*'$/.test(repr)) return `${name} + 'z'`;
  if (repr.startsWith('[')) return r() < 0.5 ? `${name} + [7]` : `[]`;
  if (repr === 'True' || repr === 'False') return `not ${name}`;
  return null;
}

const LINE_ACTIONS: Action[] = [{ kind: 'step_into' }, { kind: 'step_over' }, { kind: 'step_return' }, { kind: 'continue' }];

describe('what-if edits vs bdb with the same assignment in the live frame', () => {
  for (const program of programs) {
    it(`edits locals where bdb does: ${program.name}`, async () => {
      const base = engine.record(program.source, program.call);
      const lines = [...new Set(base.codes.flatMap((c) => c.lines))].sort((a, b) => a - b);
      let edited = 0;
      for (let s = 0; s < SEQUENCES_PER_PROGRAM; s++) {
        const r = rng(hash(program.name) + 7919 * s);
        const breakpoints = lines.filter(() => r() < 0.15).slice(0, 2);
        // Walk forward with the CLI's session, editing a local at some stops.
        const session = new RecordingSession(base, breakpoints);
        const rerun = rerunWith(host, base);
        const steps: Step[] = [];
        const expected: Snapshot[] = [snapshot(session.recording, session.position)];
        for (let i = 0; i < 10 && session.position < session.recording.events.length; i++) {
          const e = session.recording.events[session.position]!;
          const names = Object.keys(e.locals);
          if (names.length > 0 && r() < 0.35) {
            const name = names[Math.floor(r() * names.length)]!;
            const expr = editFor(r, name, e.locals[name]!);
            if (expr !== null) {
              try {
                await session.edit(name, expr, rerun);
              } catch (err) {
                // An edit whose expression raises in this frame: bdb would raise too; skip it.
                if (err instanceof EditError) continue;
                throw err;
              }
              steps.push({ kind: 'set', name, expr });
              expected.push(snapshot(session.recording, session.position));
              edited++;
              // A run the edit made longer than the event budget is cut where bdb's is not.
              if (session.recording.exit.status === 'budget') break;
              continue;
            }
          }
          const action = r() < 0.15 && lines.length ? { kind: 'breakpoint' as const, line: lines[Math.floor(r() * lines.length)]! } : LINE_ACTIONS[Math.floor(r() * LINE_ACTIONS.length)]!;
          steps.push(action);
          session.apply(action);
          expected.push(snapshot(session.recording, session.position));
        }
        if (expected[expected.length - 1]!.event !== 'exit') expected.push({ event: 'exit' });
        const got = oracle(program, { goto: 0, breakpoints, commands: steps.map(formatStep) });
        expect(got, `seed ${s}, breakpoints [${breakpoints}], steps ${steps.map(formatStep).join(' ; ')}`).toEqual(expected);
      }
      if (edited > 0) programsEdited.add(program.name);
    });
  }

  it('edited locals in most programs', () => {
    expect(programsEdited.size).toBeGreaterThanOrEqual(Math.floor(programs.length * 0.7));
  });
});

describe('conditional breakpoints and hit counts vs bdb', () => {
  for (const program of programs) {
    it(`stops where bdb's cond and ignore stop: ${program.name}`, () => {
      const base = engine.record(program.source, program.call);
      const lineEvents = base.events.filter((e) => e.event === 'line');
      if (lineEvents.length === 0) return;
      for (let s = 0; s < SEQUENCES_PER_PROGRAM; s++) {
        const r = rng(hash(program.name) + 104729 * s);
        const picks = [0, 1].map(() => lineEvents[Math.floor(r() * lineEvents.length)]!);
        const conditions = new Map<number, BreakCondition>();
        const segConditions: Record<string, [string | null, number]> = {};
        for (const e of picks) {
          if (conditions.has(e.line)) continue;
          const names = Object.keys(e.locals);
          const x = r();
          // A condition that holds at the picked event, one that raises where a name is unbound,
          // or none; and a hit count of 1 to 3.
          const name = names[Math.floor(r() * names.length)];
          const condition = x < 0.5 && name ? `repr(${name}) == ${JSON.stringify(e.locals[name])}` : x < 0.75 ? 'undefined_name > 0' : undefined;
          const hitCount = 1 + Math.floor(r() * 3);
          conditions.set(e.line, { ...(condition ? { condition } : {}), hitCount });
          segConditions[String(e.line)] = [condition ?? null, hitCount];
        }
        const rec = engine.record(program.source, program.call, {
          conditions: Object.fromEntries([...conditions].filter(([, c]) => c.condition).map(([line, c]) => [line, c.condition!])),
        });
        const session = new RecordingSession(rec, conditions.keys(), conditions);
        const expected: Snapshot[] = [snapshot(rec, session.position)];
        const commands: string[] = [];
        for (let i = 0; i < 6 && session.position < rec.events.length; i++) {
          commands.push('continue');
          expected.push(snapshot(rec, session.apply({ kind: 'continue' })));
        }
        if (expected[expected.length - 1]!.event !== 'exit') expected.push({ event: 'exit' });
        const got = oracle(program, { goto: 0, breakpoints: [...conditions.keys()], commands, conditions: segConditions });
        expect(got, `seed ${s}, conditions ${JSON.stringify(segConditions)}`).toEqual(expected);
      }
    });
  }
});

describe('bad edits', () => {
  const source = 'def f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n';

  async function run(actions: string): Promise<unknown> {
    // as `ndb debug --actions` makes them: on the session every face moves on
    const live = await LiveSession.start(host, source, 'f(4)', { engine: 'real' });
    return listStates(live, parseMoveStepList(actions));
  }

  it('goes on from the edited value, and a step back returns to the run before the edit', async () => {
    const states = (await run('breakpoint:4,set:total=100,step_over,step_return')) as Array<Record<string, unknown>>;
    expect(states[2]).toMatchObject({ line: 4, locals: { n: '4', total: '100', i: '0' }, edits: [{ name: 'total', expr: '100', value: '100' }] });
    expect(states[4]).toMatchObject({ event: 'return', value: '106' });
    const back = (await run('breakpoint:4,set:total=[1, 2],inv_step_into,step_into')) as Array<Record<string, unknown>>;
    expect(back[2]).toMatchObject({ locals: { total: '[1, 2]' } });
    expect(back[4]).toMatchObject({ line: 4, locals: { total: '0' } });
    expect(back[4]!.edits).toBeUndefined();
  });

  it.each([
    ['breakpoint:4,set:nope=1', /'nope' is not a local of f\(\) at line 4 \(its locals: n, total, i\)/],
    ['breakpoint:4,set:total=1/0', /total = 1\/0 raised ZeroDivisionError: division by zero/],
    ['breakpoint:4,set:total=(', /not a Python expression/],
    ['set:total=1', /'total' is not a local of f\(\) at line 1/],
    ['continue,set:total=1', /nothing to edit after the program has ended/],
  ])('%s is a clear error', async (actions, message) => {
    await expect(run(actions)).rejects.toThrow(ProgramError);
    await expect(run(actions)).rejects.toThrow(message);
  });

  it('leaves the session as it was after a bad edit', async () => {
    const rec = engine.record(source, 'f(4)');
    const session = new RecordingSession(rec, []);
    session.apply({ kind: 'breakpoint', line: 4 });
    await expect(session.edit('total', 'undefined_name', rerunWith(host, rec))).rejects.toThrow(/NameError/);
    expect(session.history.depth).toBe(0);
    expect(session.state).toMatchObject({ line: 4, locals: { total: '0' } });
    session.apply({ kind: 'step_return' });
    expect(session.state).toMatchObject({ event: 'return', value: '6' });
  });

  it('records every edit layer again, or none when a re-run fails', async () => {
    const rec = engine.record(source, 'f(4)');
    const withWatch = (edits: readonly Edit[]) => engine.record(source, 'f(4)', { edits, watch: ['total * 2'] });
    const session = new RecordingSession(rec, []);
    session.apply({ kind: 'breakpoint', line: 4 });
    await session.edit('total', '100', rerunWith(host, rec));
    // The base run is re-recorded first, the edited one second: the second fails.
    let calls = 0;
    const failing = (edits: readonly Edit[]) => {
      if (++calls === 2) throw new Error('the second re-run fails');
      return withWatch(edits);
    };
    await expect(session.rerecord(failing)).rejects.toThrow('the second re-run fails');
    expect(session.recording.events[session.position]!.watch).toBeUndefined();
    session.apply({ kind: 'inv_step_into' }); // back to the run before the edit: unchanged too
    expect(session.recording.events[session.position]!.watch).toBeUndefined();
    session.apply({ kind: 'step_into' });
    await session.edit('total', '100', rerunWith(host, rec));
    await session.rerecord(withWatch);
    expect(session.state).toMatchObject({ locals: { total: '100' } });
    expect(session.recording.events[session.position]!.watch).toEqual([{ value: '200' }]);
    session.apply({ kind: 'inv_step_into' });
    expect(session.recording.events[session.position]!.watch).toEqual([{ value: '0' }]);
  });

  it('splits set: values with commas inside brackets and strings', () => {
    expect(parseStepList("breakpoint:5,set:xs=[1, 2],set:s='a,b',step_over").map(formatStep)).toEqual([
      'breakpoint:5',
      'set:xs=[1, 2]',
      "set:s='a,b'",
      'step_over',
    ]);
  });
});
