// The decoder's constraints never refuse a real state: for every action at every stop of the
// test programs (the gallery and the oracle programs, recorded by the real engine), the state the
// action reaches, written as the neural session writes it, is accepted by the state guard with the
// program's constraints, and every text the guard says the program fixes (`forced`) is what the
// real state goes on with.

import { beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../core/actions';
import { renderState, sourceLines } from '../core/format';
import { TOKENS } from '../core/stateGrammar';
import { elisionBase, formatStateAt } from '../core/trajectory';
import { Navigator } from '../core/navigator';
import { stateConstraints } from '../core/stateConstraints';
import { sourceNames, StatePrefixChecker, stateLimits } from '../core/stateGuard';
import type { Position, Recording } from '../core/trace';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';
import { loadPrograms } from '../testing/programs';

const programs = loadPrograms('examples', 'src/testing/programs');
let engine: RealEngine;

beforeAll(async () => {
  engine = await loadNodeEngine();
}, 120_000);

function actionsFor(rec: Recording): { action: Action; breakpoints: number[] }[] {
  const lines = rec.program?.lines ?? [];
  const some = [lines[1], lines[Math.floor(lines.length / 2)], lines.at(-1)].filter((l): l is number => l !== undefined);
  const simple = ['step_into', 'step_over', 'step_return', 'inv_step_into', 'inv_step_over', 'inv_step_call'] as const;
  return [
    ...simple.map((kind) => ({ action: { kind } as Action, breakpoints: [] })),
    ...simple.map((kind) => ({ action: { kind } as Action, breakpoints: some.slice(0, 1) })),
    { action: { kind: 'continue' }, breakpoints: [] },
    { action: { kind: 'continue' }, breakpoints: some },
    ...some.map((line) => ({ action: { kind: 'breakpoint', line } as Action, breakpoints: [] })),
    ...some.map((line) => ({ action: { kind: 'breakpoint', line } as Action, breakpoints: some.filter((l) => l !== line) })),
  ];
}

describe('the constraints on real states', () => {
  it('accept the state every action reaches from every stop, and force only what it goes on with', () => {
    let checked = 0;
    let forcedChars = 0;
    for (const program of programs) {
      const rec = engine.record(program.source, program.call, { maxEvents: 2000, timeLimit: 5 });
      if (!rec.program) continue;
      const lines = sourceLines(rec.source);
      const names = sourceNames(rec.source);
      for (let from: Position = -1; from <= rec.events.length; from++) {
        const before = formatStateAt(rec, from);
        const previousLocals = 'locals' in before && before.event !== 'return' ? before.locals : null;
        for (const { action, breakpoints } of actionsFor(rec)) {
          const nav = new Navigator(rec, breakpoints);
          nav.jump(from);
          const to = nav.apply(action);
          const inverse = action.kind.startsWith('inv_');
          const text = renderState(lines, formatStateAt(rec, to), { inverse, elideAgainst: elisionBase(rec, from, to, action) }).slice(TOKENS.frameSep.length);
          const constraints = stateConstraints(action, breakpoints, rec.source, rec.program, new Set([...names, ...Object.keys(previousLocals ?? {})]));
          const checker = new StatePrefixChecker(stateLimits(names, previousLocals), constraints);
          const where = `${program.name} ${JSON.stringify(action)} bp ${breakpoints} from ${from}: ${text}`;
          let at = 0;
          // as a decoder gives it: format tokens whole, other text piece by piece
          const pieces = (text + TOKENS.actionSep).split(/(<\|[a-z_]+\|>)/).flatMap((p) => (p.startsWith('<|') && p.endsWith('|>') ? [p] : Array.from(p)));
          for (const ch of pieces) {
            const forced = at < text.length ? checker.forced() : '';
            if (forced) {
              expect(text.slice(at).startsWith(forced), `${where}\nforced ${JSON.stringify(forced)} at ${at}`).toBe(true);
              forcedChars += forced.length;
            }
            const verdict = checker.push(ch);
            expect(verdict.ok, `${where}\n${JSON.stringify(verdict)}`).toBe(true);
            at += ch.length;
          }
          expect(checker.verdict()).toEqual({ ok: true, ended: true });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(forcedChars).toBeGreaterThan(checked);
  }, 300_000);

  it("refuse, in a frame, another frame's names and the builtins the frame never stores, which the program's names allow", () => {
    const source = 'total = 10\n\ndef f(xs):\n    n = len(xs)\n    return n + 1\n\nresult = f([4, 5])\n';
    const rec = engine.record(source, '', { maxEvents: 2000, timeLimit: 5 });
    expect(rec.program?.frames?.length).toBe(2);
    const names = sourceNames(source);
    const at = rec.events.findIndex((e) => e.event === 'line' && e.line === 5);
    const previousLocals = { xs: '[4, 5]' };
    const check = (text: string, frameNames: boolean) => {
      const program = frameNames ? rec.program : { ...rec.program!, frames: undefined };
      const constraints = stateConstraints({ kind: 'step_into' }, [], source, program, new Set([...names, ...Object.keys(previousLocals)]));
      const checker = new StatePrefixChecker(stateLimits(names, previousLocals), constraints);
      for (const piece of text.split(/(<\|[a-z_]+\|>)/).flatMap((p) => (p.startsWith('<|') ? [p] : Array.from(p)))) {
        const verdict = checker.push(piece);
        if (!verdict.ok) return verdict.reason ?? 'refused';
      }
      return 'accepted';
    };
    const real = renderState(sourceLines(source), formatStateAt(rec, at), { inverse: false, elideAgainst: elisionBase(rec, at - 1, at, { kind: 'step_into' }) }).slice(TOKENS.frameSep.length) + TOKENS.actionSep;
    expect(real).toContain('"n"');
    expect(check(real, true)).toBe('accepted');
    for (const wrong of ['total', 'len', 'result']) {
      const forged = real.replace('"n"', JSON.stringify(wrong));
      expect(check(forged, false), wrong).toBe('accepted'); // a name of the program: allowed without the frames
      expect(check(forged, true), wrong).toMatch(/not a name this frame can have|name/);
    }
  });
});
