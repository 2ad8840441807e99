// The model's text format: the golden fixtures shared with training/tests/test_format.py.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseActionList, type Action } from './actions';
import { capValue, jsonString, parseState, renderAction, renderState, sourceLines, srcText, type ParseResult } from './format';
import { FORMAT_TOKENS, TOKENS } from './stateGrammar';
import { formatStateAt, promptForNext, renderTrajectory, renderTrajectoryPieces } from './trajectory';
import { isInverse } from './actions';
import { Navigator } from './navigator';
import type { Position, Recording } from './trace';
import { parseTraceJsonl } from './traceJsonl';

const FIX = new URL('../../fixtures/format/', import.meta.url);
const read = (rel: string): string => readFileSync(new URL(rel, FIX), 'utf8');

interface Case { name: string; trace: string; actions: string; breakpoints?: number[]; start?: number }
interface ParseCase { name: string; text: string; previous: Record<string, string> | null; expected: Record<string, unknown> }

const cases = JSON.parse(read('cases.json')) as Case[];
const parseCases = JSON.parse(read('parse_cases.json')) as ParseCase[];
const recording = (c: Case): Recording => parseTraceJsonl(read(`traces/${c.trace}.jsonl`));
const options = (c: Case) => ({ breakpoints: c.breakpoints ?? [], ...(c.start !== undefined ? { start: c.start } : {}) });

function cappedTruth(rec: Recording, pos: Position, inverse: boolean): ParseResult {
  const st = formatStateAt(rec, pos);
  if (st.event === 'entry') return st;
  if (st.event === 'exit') {
    const status = st.status === 'normal' || st.status === 'exception' ? st.status : st.status === 'budget' || st.status === 'timeout' ? 'budget' : 'error';
    return status === 'exception' || status === 'error' ? { event: 'exit', status, message: capValue(st.message ?? '') } : { event: 'exit', status };
  }
  const out: ParseResult = { event: st.event, inverse, line: st.line, src: srcText(sourceLines(rec.source), st.line) };
  if (st.event !== 'return') out.locals = Object.fromEntries(Object.entries(st.locals).map(([k, v]) => [k, capValue(v)]));
  if (st.event === 'return' || st.event === 'exception') out.value = capValue(st.value ?? 'None');
  if (st.raising) out.raising = true;
  return out;
}

describe('golden trajectories', () => {
  for (const c of cases) {
    it(c.name, () => {
      const rec = recording(c);
      const actions = parseActionList(c.actions);
      expect(renderTrajectory(rec, actions, options(c))).toBe(read(`expected/${c.name}.txt`));
      // The positions file is what training/navigator.py is checked against: keep it current.
      const nav = new Navigator(rec, c.breakpoints ?? []);
      if (c.start !== undefined) nav.jump(c.start);
      const expected = JSON.parse(read(`expected/${c.name}.positions.json`)) as { start: number; positions: number[] };
      expect(nav.position).toBe(expected.start);
      expect(actions.map((a) => nav.apply(a))).toEqual(expected.positions);
    });
  }
});

describe('every rendered state parses back to the (capped) truth', () => {
  for (const c of cases) {
    it(c.name, () => {
      const rec = recording(c);
      const actions = parseActionList(c.actions);
      const p = renderTrajectoryPieces(rec, actions, options(c));
      const first = parseState(p.first, null);
      expect(first).toEqual(cappedTruth(rec, p.start, false));
      let previous = 'locals' in first ? first.locals : undefined;
      p.steps.forEach((s, i) => {
        const parsed = parseState(s.state + TOKENS.actionSep, previous);
        expect(parsed).toEqual(cappedTruth(rec, s.position, isInverse(actions[i]!)));
        previous = 'locals' in parsed ? parsed.locals : undefined;
      });
    });
  }
});

describe('parse cases', () => {
  for (const c of parseCases) {
    it(c.name, () => {
      const got = parseState(c.text, c.previous);
      if (c.expected.unparseable) {
        expect(Object.keys(got)).toEqual(['unparseable']);
        expect((got as { unparseable: string }).unparseable.length).toBeGreaterThan(0);
      } else expect(got).toEqual(c.expected);
    });
  }
  it('never throws on garbage', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = [...FORMAT_TOKENS, '{', '}', '"', ':', ',', '..', 'null', '1', 'x', '<|', '|>', '\\', '\ud800'];
    for (let k = 0; k < 3000; k++) {
      let text = '';
      for (let j = rand(13); j > 0; j--) text += alphabet[rand(alphabet.length)]!;
      const out = parseState(text, rand(2) ? { x: '1' } : null);
      expect('unparseable' in out || 'event' in out).toBe(true);
    }
  });
});

describe('pieces', () => {
  it('elides unchanged locals, marks deleted ones, caps values by code point', () => {
    const lines = ['def f(a):', '    b = a * 2', '    return b'];
    const prev = { a: '1', b: 'x'.repeat(200) };
    expect(renderState(lines, { event: 'line', line: 2, locals: { a: '1', c: '2' } }, { elideAgainst: prev })).toBe(
      '<|frame_sep|><|line_sep|>2<|src_sep|>b = a * 2<|arg_sep|>{"c":"2","b":null,"..":".."}',
    );
    const full = renderState(lines, { event: 'call', line: 1, locals: prev }, { inverse: true });
    expect(full.startsWith('<|frame_sep|><|inv_call_sep|>1<|src_sep|>def f(a):')).toBe(true);
    expect(full).toContain(`"b":"${'x'.repeat(120)}\u2026"`);
    expect(capValue('😀'.repeat(121))).toBe(`${'😀'.repeat(120)}\u2026`);
    expect(capValue('😀'.repeat(120))).toBe('😀'.repeat(120));
  });
  it('writes JSON strings like JSON.stringify', () => {
    for (const s of ['plain', 'q"uote', 'back\\slash', '\x00\x1f\x7f', 'tab\tnl\n', 'é☃😀', '\u2028', '\ud800', 'a\udc00b']) {
      expect(jsonString(s)).toBe(JSON.stringify(s));
    }
  });
  it('renders actions with the user breakpoints', () => {
    const bp: Action = { kind: 'breakpoint', line: 7 };
    expect(renderAction(bp, [9, 7, 3])).toBe('<|action_sep|><|breakpoint|>7,3,9');
    expect(renderAction({ kind: 'continue' }, [9, 3])).toBe('<|action_sep|><|continue|>3,9');
    expect(renderAction({ kind: 'continue' })).toBe('<|action_sep|><|continue|>');
  });
  it('builds a prompt whose completion is the next state', () => {
    const rec = recording(cases[0]!);
    const prompt = promptForNext(renderTrajectory(rec, parseActionList('step_into')), { kind: 'step_over' });
    expect(prompt.endsWith('<|action_sep|><|step_over|><|frame_sep|>')).toBe(true);
    const full = renderTrajectory(rec, parseActionList('step_into,step_over'));
    expect(full.startsWith(prompt)).toBe(true);
    const parsed = parseState(full.slice(prompt.length), rec.events[1]!.locals);
    expect(parsed).toEqual({ event: 'line', inverse: false, line: 3, src: 'for x in xs:', locals: { xs: '[1, 2, 3, 4]', s: '0' } });
  });
  it('has 29 distinct tokens, all matching the token pattern', () => {
    expect(new Set(FORMAT_TOKENS).size).toBe(29);
    for (const t of FORMAT_TOKENS) expect(t).toMatch(/^<\|[a-z_]+\|>$/);
  });
});
