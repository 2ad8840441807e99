// The early stop's check: no prefix of a real state is ever refused (every prefix of every state in
// the golden fixtures), broken text is refused as soon as it is broken, and on whole states it
// agrees with parseState.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseState, unescapePayload, type ParseResult } from './format';
import { MAX_FIELD_CHARS, MAX_VALUE_CHARS, TOKENS } from './stateGrammar';
import { checkStatePrefix, maxStateChars, sourceNames, StatePrefixChecker, stateLimits, type StateLimits } from './stateGuard';

const EXPECTED = new URL('../../fixtures/format/expected/', import.meta.url);

interface GoldenState {
  file: string;
  text: string;
  terminator: string;
  limits: StateLimits;
}

/** The source back from a trajectory's context ("N text\n" lines). */
function contextSource(context: string): string {
  return context
    .slice(TOKENS.traceContextStart.length)
    .split('\n')
    .map((l) => unescapePayload(l.replace(/^[0-9]+ /, '')))
    .join('\n');
}

function localsOf(p: ParseResult): Record<string, string> | null {
  if ('unparseable' in p || p.event === 'exit' || p.event === 'entry' || p.event === 'return') return null;
  return p.locals ?? null;
}

/** Every state of every golden trajectory, with the limits the engine would use for it (the
 * program's names, the previous state's locals as NeuralSession keeps them). */
function goldenStates(): GoldenState[] {
  const out: GoldenState[] = [];
  for (const file of readdirSync(EXPECTED).filter((f) => f.endsWith('.txt'))) {
    const text = readFileSync(new URL(file, EXPECTED), 'utf8');
    const firstState = text.indexOf(TOKENS.frameSep);
    const names = sourceNames(contextSource(text.slice(0, firstState)));
    const body = text.slice(firstState, -TOKENS.traceEnd.length);
    const parts = body.split(TOKENS.actionSep);
    let previous: Record<string, string> | null = null;
    parts.forEach((part, i) => {
      const state = i === 0 ? part : part.slice(part.indexOf(TOKENS.frameSep));
      out.push({ file, text: state, terminator: i === parts.length - 1 ? TOKENS.traceEnd : TOKENS.actionSep, limits: stateLimits(names, previous) });
      const parsed = parseState(state, previous);
      expect('unparseable' in parsed, `${file} state ${i}`).toBe(false);
      previous = localsOf(parsed);
    });
  }
  return out;
}

const LOOSE: StateLimits = { maxLocals: 20, maxNameChars: 20, hasPrevious: true };

describe('every prefix of a real state', () => {
  const states = goldenStates();

  it('covers all the golden trajectories', () => {
    expect(new Set(states.map((s) => s.file)).size).toBe(readdirSync(EXPECTED).filter((f) => f.endsWith('.txt')).length);
    expect(states.length).toBeGreaterThan(150);
  });

  it('is accepted, whole or fed one piece at a time, with or without <|frame_sep|>', () => {
    let prefixes = 0;
    for (const s of states) {
      const incremental = new StatePrefixChecker(s.limits);
      const full = s.text + s.terminator;
      for (let n = 0; n <= full.length; n++) {
        const prefix = full.slice(0, n);
        const whole = checkStatePrefix(prefix, s.limits);
        expect(whole, `${s.file}: ${JSON.stringify(prefix)}`).toEqual({ ok: true, ended: n === full.length });
        if (n > 0) expect(incremental.push(full[n - 1]!).ok).toBe(true);
        // the model writes the body after the prompt's <|frame_sep|>
        if (n >= TOKENS.frameSep.length) expect(checkStatePrefix(prefix.slice(TOKENS.frameSep.length), s.limits).ok).toBe(true);
        prefixes++;
      }
      expect(incremental.verdict()).toEqual({ ok: true, ended: true });
      expect(s.text.length).toBeLessThanOrEqual(maxStateChars(s.limits));
    }
    expect(prefixes).toBeGreaterThan(10_000);
  });
});

describe('broken text', () => {
  const refusedAt = (text: string, limits: StateLimits = LOOSE): number => {
    const checker = new StatePrefixChecker(limits);
    const points = Array.from(text);
    for (let i = 0; i < points.length; i++) if (!checker.push(points[i]!).ok) return i;
    return -1;
  };

  const cases: Array<[string, string]> = [
    ['text before the event', 'h'],
    ['a field token first', '<|src_sep|>'],
    ['a line that is not a number', '<|line_sep|>x'],
    ['ten digits', '<|line_sep|>1234567890'],
    ['no line number', '<|line_sep|><|src_sep|>'],
    ['fields out of order', '<|line_sep|>3<|arg_sep|>'],
    ['a return with locals', '<|return_sep|>3<|src_sep|>return x<|arg_sep|>'],
    ['a number as a value', '<|line_sep|>3<|src_sep|>s = 0<|arg_sep|>{"s":1'],
    ['true as a value', '<|line_sep|>3<|src_sep|>s = 0<|arg_sep|>{"s":t'],
    ['not an object', '<|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>['],
    ['a bad escape', '<|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>{"x":"\\q'],
    ['a raw newline in a string', '<|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>{"x":"a\n'],
    ['".." in a call', '<|call_sep|>1<|src_sep|>def f(x):<|arg_sep|>{".."'],
    ['text after the object', '<|line_sep|>3<|src_sep|>s = 0<|arg_sep|>{"s":"1"}x'],
    ['an unknown token', '<|line_sep|>3<|foo|>'],
    ['two states', '<|exit_normal|><|frame_sep|>'],
    ['text after an exit', '<|exit_normal|>x'],
    ['text after exit_exception', '<|exit_exception|>V'],
    ['a token in an exit message', '<|exit_error|><|raise_sep|>bad<|src_sep|>'],
    ['a terminator before the locals', '<|line_sep|>3<|src_sep|>s = 0<|action_sep|>'],
    ['a terminator inside a string', '<|line_sep|>3<|src_sep|>s = 0<|arg_sep|>{"s":"1<|trace_end|>'],
    ['a raise after a return value', '<|return_sep|>3<|src_sep|>return x<|value_sep|>1<|raise_sep|>'],
  ];
  // each text is refused at its last character, where it broke
  for (const [name, text] of cases) {
    it(`is refused as soon as it is broken: ${name}`, () => {
      expect(refusedAt(text)).toBe(Array.from(text).length - 1);
    });
  }

  it('refuses ".." where there are no previous locals', () => {
    const text = '<|line_sep|>3<|src_sep|>s = 0<|arg_sep|>{"..":".."}';
    expect(checkStatePrefix(text, { ...LOOSE, hasPrevious: false })).toEqual({ ok: false, reason: expect.stringContaining('no previous locals') });
    expect(checkStatePrefix(text, LOOSE).ok).toBe(true);
  });

  it('refuses a value, a source line or a message one character past the cap', () => {
    const long = 'x'.repeat(MAX_VALUE_CHARS);
    const heads = [
      (v: string) => `<|return_sep|>3<|src_sep|>return x<|value_sep|>${v}`,
      (v: string) => `<|return_sep|>3<|src_sep|>${v}`,
      (v: string) => `<|exit_exception|><|raise_sep|>${v}`,
      (v: string) => `<|line_sep|>3<|src_sep|>s<|arg_sep|>{"s":"${v}`,
      (v: string) => `<|exception_sep|>3<|src_sep|>s<|arg_sep|>{}<|raise_sep|>${v}`,
    ];
    for (const head of heads) {
      expect(checkStatePrefix(head(`${long}\u2026`), LOOSE).ok).toBe(true);
      expect(checkStatePrefix(head(`${long}\u2026y`), LOOSE).ok).toBe(false);
      expect(head(`${long}\u2026y`).length).toBeGreaterThan(MAX_FIELD_CHARS);
    }
    // code points, not UTF-16 units; JSON escapes count as the character they stand for
    expect(checkStatePrefix(`<|return_sep|>3<|src_sep|>x<|value_sep|>${'😀'.repeat(MAX_FIELD_CHARS)}`, LOOSE).ok).toBe(true);
    expect(checkStatePrefix(`<|line_sep|>3<|src_sep|>s<|arg_sep|>{"s":"${'\\u00e9'.repeat(MAX_FIELD_CHARS)}"}`, LOOSE).ok).toBe(true);
    expect(checkStatePrefix(`<|line_sep|>3<|src_sep|>s<|arg_sep|>{"s":"${'\\u00e9'.repeat(MAX_FIELD_CHARS + 1)}`, LOOSE).ok).toBe(false);
    // "<||" is one "<|": an escaped value is measured after unescaping
    expect(checkStatePrefix(`<|return_sep|>3<|src_sep|>x<|value_sep|>${'<||'.repeat(60)}x`, LOOSE).ok).toBe(true);
  });

  it('refuses a runaway name, and more locals than the program has names', () => {
    const names = sourceNames('def f(alpha_beta, b):\n    total = alpha_beta + b\n    return total\n');
    const limits = stateLimits(names, null);
    expect(limits.maxNameChars).toBe(MAX_FIELD_CHARS);
    const call = '<|call_sep|>1<|src_sep|>def f(alpha_beta, b):<|arg_sep|>{';
    expect(checkStatePrefix(`${call}"alpha_beta":"1","b":"2"}`, limits).ok).toBe(true);
    // a wrong name that ends is readable (and wrong); one that runs on is stopped
    expect(checkStatePrefix(`${call}"alpha_betax":"1"}`, limits).ok).toBe(true);
    expect(checkStatePrefix(`${call}"${'ab'.repeat(61)}`, limits)).toEqual({ ok: false, reason: `a name longer than ${MAX_FIELD_CHARS} characters` });
    const many = Array.from({ length: limits.maxLocals + 1 }, (_, i) => `"b":"${i}"`).join(',');
    expect(checkStatePrefix(call + many, limits)).toEqual({ ok: false, reason: `more than ${limits.maxLocals} locals` });
    // a program with a longer identifier, or a previous state with a longer name, raises the cap
    const long = 'n'.repeat(MAX_FIELD_CHARS + 9);
    expect(stateLimits(sourceNames(`${long} = 1\n`), null).maxNameChars).toBe(long.length);
    expect(stateLimits(names, { [long]: '1' }).maxNameChars).toBe(long.length);
  });

  it('stays refused, and a longer text than any state is refused', () => {
    const checker = new StatePrefixChecker(LOOSE);
    expect(checker.push('x').ok).toBe(false);
    expect(checker.push('<|line_sep|>3').ok).toBe(false);
    const padded = `<|call_sep|>1<|src_sep|>x<|arg_sep|>${' '.repeat(maxStateChars(LOOSE))}`;
    expect(checkStatePrefix(padded, LOOSE)).toEqual({ ok: false, reason: expect.stringContaining('longer than any state') });
  });

  it('accepts what parseState accepts that the format never writes: whitespace, "/" escapes, a lone "<|"', () => {
    for (const text of [
      '<|line_sep|>3<|src_sep|>s<|arg_sep|> { "s" : "1" , "t" : null }\n',
      '<|line_sep|>3<|src_sep|>s<|arg_sep|>{"s":"a\\/b\\ud83d\\ude00"}',
      '<|return_sep|>3<|src_sep|>x <|y<|value_sep|><|abc|',
      '<|exit_error|>',
      '<|exit_error|><|raise_sep|>',
      '<|frame_sep|><|inv_exit_entry|>',
    ]) {
      expect(checkStatePrefix(text + TOKENS.actionSep, LOOSE), text).toEqual({ ok: true, ended: true });
      expect('unparseable' in parseState(text, {}), text).toBe(false);
    }
  });
});

describe('on whole states it agrees with parseState', () => {
  // Mutations of real states: for each, the check with a terminator says yes exactly when
  // parseState reads it within the caps, and a readable one has no refused prefix.
  const states = goldenStates();
  const pool = ['"', '{', '}', ',', ':', 'null', '1', '<|', '<||', '|>', '\\', '\\u00', '\\n', 'x', ' ', '..', '"..":".."', 'é', '😀', '\n',
    TOKENS.srcSep, TOKENS.argSep, TOKENS.raiseSep, TOKENS.valueSep, TOKENS.lineSep, TOKENS.frameSep, TOKENS.exitNormal, '<|foo|>', TOKENS.actionSep];
  let seed = 12345;
  const rand = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const mutate = (text: string): string => {
    let t = text;
    for (let k = 1 + rand(3); k > 0; k--) {
      const at = rand(t.length + 1);
      const op = rand(3);
      if (op === 0) t = t.slice(0, at) + t.slice(at + 1 + rand(5));
      else if (op === 1) t = t.slice(0, at) + pool[rand(pool.length)]! + t.slice(at);
      else t = t.slice(0, at) + t.slice(at, at + 1 + rand(8)).repeat(2) + t.slice(at + 1 + rand(8));
    }
    return t;
  };
  const withinCaps = (p: ParseResult): boolean => {
    if ('unparseable' in p || p.event === 'entry') return true;
    const cp = (s: string | undefined) => Array.from(s ?? '').length;
    if (p.event === 'exit') return cp(p.message) <= MAX_FIELD_CHARS;
    return cp(p.src) <= MAX_FIELD_CHARS && cp(p.value) <= MAX_FIELD_CHARS && Object.values(p.locals ?? {}).every((v) => cp(v) <= MAX_FIELD_CHARS);
  };

  it('on thousands of mutated states', () => {
    const limits: StateLimits = { maxLocals: 1000, maxNameChars: 1000, hasPrevious: true };
    let readable = 0;
    let refused = 0;
    for (let round = 0; round < 12; round++) {
      for (const s of states) {
        const text = mutate(s.text);
        const parsed = parseState(text, { a: '1' });
        const end = text.indexOf(TOKENS.actionSep);
        const body = end >= 0 ? text.slice(0, end) : text;
        const good = !('unparseable' in parsed) && withinCaps(parsed);
        const verdict = checkStatePrefix(body + TOKENS.actionSep, limits);
        expect(verdict.ok, `${JSON.stringify(text)}: ${JSON.stringify(parsed)} ${JSON.stringify(verdict)}`).toBe(good);
        if (good) {
          readable++;
          const checker = new StatePrefixChecker(limits);
          for (const ch of body) expect(checker.push(ch).ok).toBe(true);
        } else refused++;
      }
    }
    expect(readable).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(200);
  });
});
